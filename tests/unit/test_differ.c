/*
 * reports/differ.c: what is not the same in every run besides the code
 * under test, as the line above every table says it ("timedmunlock SIZE:
 * 256M in base; 512M in big"), as the gate's verdict says it ("SIZE 512M
 * (baseline 256M)"), and the note on runs from different machines.  The
 * report is built by hand: runs with a name and the "key: value" lines of
 * their meta, and benches with the KEY=VALUE lines of their resolved
 * BENCH/config, as kvfile.c reads them.
 */
#include <string.h>

#include "unit.h"
#include "compare/differ.h"
#include "compare/report.h"

/* A kvlist of the pairs given, alive until the end of the enclosing block. */
#define KV(...)										\
	((struct kvlist){ (struct kv[]){ __VA_ARGS__ },					\
			  sizeof((struct kv[]){ __VA_ARGS__ }) / sizeof(struct kv) })

static char *run_names[] = { "base", "big", "third" };
static char *bench_names[] = { "timedmunlock", "heaprelease" };

static struct run_info runs[3];
static struct bench_cmp benches[2];
static struct kvlist configs[2][3];
static struct report rep;

/* n_runs runs of n_benches benches, every meta and config empty. */
static struct report *report_of(size_t n_runs, size_t n_benches)
{
	differences_free(&rep.differences, rep.n_runs);
	memset(runs, 0, sizeof(runs));
	memset(benches, 0, sizeof(benches));
	memset(configs, 0, sizeof(configs));
	for (size_t r = 0; r < n_runs; r++)
		runs[r].name = run_names[r];
	for (size_t b = 0; b < n_benches; b++) {
		benches[b].data.name = bench_names[b];
		benches[b].data.n_runs = n_runs;
		benches[b].config = configs[b];
	}
	rep = (struct report){ .runs = runs, .n_runs = n_runs, .benches = benches,
			       .n_benches = n_benches };
	return &rep;
}

/* Static: a compound literal in a helper would die with its return. */
#define LIST(a) ((struct kvlist){ (a), sizeof(a) / sizeof((a)[0]) })
static struct kv meta_rc3_0[] = {
	{ "kernel", "3.11-rc3-0" }, { "hostname", "fixture" }, { "status", "complete" },
};
static struct kv meta_rc3_1[] = {
	{ "kernel", "3.11-rc3-1" }, { "hostname", "fixture" }, { "status", "complete" },
};
/* Resolved timedmunlock configs as run.sh writes them (compare_unlike.bats). */
static struct kv config_256m[] = {
	{ "BENCH", "timedmunlock" }, { "ITERATIONS", "4" }, { "SIZE", "256M" },
	{ "THP", "never" }, { "command", "bench/timedmunlock --size 256M" },
};
static struct kv config_512m[] = {
	{ "BENCH", "timedmunlock" }, { "ITERATIONS", "4" }, { "SIZE", "512M" },
	{ "THP", "never" }, { "command", "bench/timedmunlock --size 512M" },
};

static const char *line_of(size_t i)
{
	static char buf[512];

	assert_true(i < rep.differences.n);
	difference_line(&rep, &rep.differences.d[i], buf, sizeof(buf));
	return buf;
}

static const char *note_of(size_t bench, size_t run)
{
	static char buf[512];

	difference_note(&rep, bench, run, buf, sizeof(buf));
	return buf;
}

/* The runs are the same but for SIZE; the kernel release differs by design. */
static void size_256m_against_512m(void)
{
	report_of(2, 1);
	runs[0].meta = LIST(meta_rc3_0);
	runs[1].meta = LIST(meta_rc3_1);
	configs[0][0] = LIST(config_256m);
	configs[0][1] = LIST(config_512m);
	differences_find(&rep);
}

TEST(a_differing_size_is_named_with_each_runs_value)
{
	size_256m_against_512m();
	assert_int_equal(rep.differences.n, 1);
	assert_string_equal(line_of(0), "timedmunlock SIZE: 256M in base; 512M in big");
}

TEST(the_gate_note_names_the_value_against_the_baseline)
{
	size_256m_against_512m();
	assert_string_equal(note_of(0, 1), "SIZE 512M (baseline 256M)");
	assert_string_equal(note_of(0, 0), "");	/* the baseline against itself */
}

/*
 * Kernel release and MemTotal differ between kernels by design; ITERATIONS,
 * DESCRIPTION and the command lines only say how long a run measured and
 * what it is called (configkeys.h).
 */
TEST(the_kernel_and_how_long_a_run_measured_are_no_difference)
{
	report_of(2, 1);
	runs[0].meta = KV({ "kernel", "6.1.0-18" }, { "memtotal", "16314892" }, { "hostname", "h" });
	runs[1].meta = KV({ "kernel", "6.1.0-21" }, { "memtotal", "16314900" }, { "hostname", "h" });
	configs[0][0] = KV({ "SIZE", "1G" }, { "ITERATIONS", "4" }, { "DESCRIPTION", "before" },
			   { "command", "bench/timedmunlock --size 1G" });
	configs[0][1] = KV({ "SIZE", "1G" }, { "ITERATIONS", "10" }, { "DESCRIPTION", "after" },
			   { "command", "bench/timedmunlock --size 1G --iterations 10" });
	differences_find(&rep);
	assert_int_equal(rep.differences.n, 0);
	assert_string_equal(note_of(0, 1), "");
}

/* base 256M, big 512M, third 256M: "256M in base, third; 512M in big". */
TEST(runs_that_share_a_value_are_grouped_in_run_order)
{
	report_of(3, 1);
	configs[0][0] = KV({ "SIZE", "256M" });
	configs[0][1] = KV({ "SIZE", "512M" });
	configs[0][2] = KV({ "SIZE", "256M" });
	differences_find(&rep);
	assert_int_equal(rep.differences.n, 1);
	assert_string_equal(line_of(0), "timedmunlock SIZE: 256M in base, third; 512M in big");
	assert_string_equal(note_of(0, 2), "");	/* third is the baseline's SIZE */
}

/* A key only a later run has is found from that run's config. */
TEST(a_key_a_run_lacks_reads_none)
{
	report_of(2, 1);
	configs[0][0] = KV({ "THP", "never" });
	configs[0][1] = KV({ "THP", "never" }, { "SIZE", "512M" });
	differences_find(&rep);
	assert_int_equal(rep.differences.n, 1);
	assert_null(rep.differences.d[0].values[0]);
	assert_string_equal(line_of(0), "timedmunlock SIZE: (none) in base; 512M in big");
	assert_string_equal(note_of(0, 1), "SIZE 512M (baseline (none))");
}

/*
 * base "ro quiet mitigations=off", big "ro mitigations=auto": big has
 * mitigations=auto that base lacks, and lacks quiet and mitigations=off.
 */
TEST(the_command_line_says_the_words_added_and_dropped)
{
	report_of(2, 1);
	runs[0].meta = KV({ "cmdline", "ro quiet mitigations=off" });
	runs[1].meta = KV({ "cmdline", "ro mitigations=auto" });
	differences_find(&rep);
	assert_int_equal(rep.differences.n, 1);
	assert_string_equal(line_of(0), "cmdline: big adds mitigations=auto; drops quiet, mitigations=off");
	assert_string_equal(note_of(0, 1), "cmdline (adds mitigations=auto; drops quiet, mitigations=off)");
}

/* Spacing alone is no difference; the same words reordered are, and say so. */
TEST(the_command_line_differs_by_its_words_not_its_spacing)
{
	report_of(3, 1);
	runs[0].meta = KV({ "cmdline", "ro quiet mitigations=off" });
	runs[1].meta = KV({ "cmdline", " ro  quiet\tmitigations=off " });
	runs[2].meta = KV({ "cmdline", "ro quiet mitigations=off" });
	differences_find(&rep);
	assert_int_equal(rep.differences.n, 0);

	runs[2].meta = KV({ "cmdline", "mitigations=off ro quiet" });
	differences_find(&rep);
	assert_int_equal(rep.differences.n, 1);
	assert_string_equal(line_of(0), "cmdline: third has the same words in another order or repeated");
	assert_string_equal(note_of(0, 1), "");
	assert_string_equal(note_of(0, 2), "cmdline (has the same words in another order or repeated)");
}

/*
 * THP differs for every bench, SIZE only for timedmunlock: the meta key comes
 * first and has no bench, and heaprelease's gate note leaves SIZE out.
 */
TEST(a_bench_s_config_is_not_in_another_bench_s_note)
{
	report_of(2, 2);
	runs[0].meta = KV({ "thp_enabled", "madvise" });
	runs[1].meta = KV({ "thp_enabled", "always" });
	configs[0][0] = KV({ "SIZE", "256M" });
	configs[0][1] = KV({ "SIZE", "512M" });
	configs[1][0] = KV({ "THREADS", "1 2" });
	configs[1][1] = KV({ "THREADS", "1 2" });
	differences_find(&rep);
	assert_int_equal(rep.differences.n, 2);
	assert_null(rep.differences.d[0].bench);
	assert_string_equal(line_of(0), "thp_enabled: madvise in base; always in big");
	assert_string_equal(line_of(1), "timedmunlock SIZE: 256M in base; 512M in big");
	assert_string_equal(note_of(0, 1), "thp_enabled always (baseline madvise), SIZE 512M (baseline 256M)");
	assert_string_equal(note_of(1, 1), "thp_enabled always (baseline madvise)");
}

TEST(runs_of_different_machines_are_noted)
{
	char buf[512];

	report_of(2, 1);
	runs[0].meta = KV({ "hostname", "login" }, { "slurm_node", "node1" });
	runs[1].meta = KV({ "hostname", "login" }, { "slurm_node", "node2" });
	assert_int_equal(machines_note(&rep, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "native runs of different machines (base: node1, big: node2): "
			    "the differences include the machines', not only the kernels'");
}

/* A VM's clock is not the machine's: no note, whatever the hosts. */
TEST(runs_in_a_vm_get_no_machines_note)
{
	char buf[512] = "";

	report_of(2, 1);
	runs[0].meta = KV({ "hostname", "node1" });
	runs[1].meta = KV({ "hostname", "node2" }, { "vm", "qemu" });
	assert_int_equal(machines_note(&rep, buf, sizeof(buf)), 0);
}

/* Two jobs on node1 submitted from different login hosts: one machine. */
TEST(the_slurm_node_is_the_machine_before_the_hostname)
{
	char buf[512] = "";

	report_of(2, 1);
	runs[0].meta = KV({ "hostname", "login1" }, { "slurm_node", "node1" });
	runs[1].meta = KV({ "hostname", "login2" }, { "slurm_node", "node1" });
	assert_int_equal(machines_note(&rep, buf, sizeof(buf)), 0);
	/* an empty slurm_node is none: the hostnames decide */
	runs[1].meta = KV({ "hostname", "login2" }, { "slurm_node", "" });
	runs[0].meta = KV({ "hostname", "login1" }, { "slurm_node", "" });
	assert_int_equal(machines_note(&rep, buf, sizeof(buf)), 1);
	assert_non_null(strstr(buf, "(base: login1, big: login2)"));
}
