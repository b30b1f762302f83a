/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The insns monitor's QEMU TCG plugin (plugin API version 1, QEMU 7.2):
 * counts the guest instructions executed at each kernel code address inside
 * the bench's timed regions, per bench process (docs/monitors.md).  Like
 * every plugin loaded into QEMU it is GPL-2.0-or-later.
 *
 *   qemu-system-x86_64 ... -plugin insns-plugin.so,out=DIR
 *
 * Counting.  Every guest instruction, always, with inline adds (no helper
 * calls), from the first instruction of the boot, on one counter record
 * per translation-block layout (start address and instruction offsets):
 * blocks of one layout share it, so memory follows the code translated,
 * not the length of the run.  Kernel code (vaddr >= 0xffff800000000000)
 * is reported per address; user code, per process and not symbolised, as
 * the one [user] bucket (the vDSO is user code).  A block gets two adds:
 * one at its entry, credited to every instruction but the last, and one
 * at its last instruction.  A block left between the two (a page fault,
 * or an MMIO access that icount re-executes as a block of its own)
 * over-counts what it did not reach, at most n - 1 instructions; the pair
 * detects each such exit and the output states the bound.  A block that
 * holds a marker is counted per instruction, and the marker is not counted.
 *
 * Markers (bench/lib/harness.h, drivers/vm/insns-marker.c), recognised by
 * their bytes at translation time (7.2's plugins read no guest registers
 * or memory): at a begin marker every counter is snapshotted; at an end
 * marker the differences are added to the process's sums; at a process
 * marker, and at exit, the sums of the process before are written as
 * DIR/process-NNNN.tsv, N counting process markers from 1, when it had a
 * region.  Task markers do the same into sums of their own, written as
 * DIR/process-NNNN.tasks.tsv ("# regions:" counts the task regions that
 * ended): several tasks may be inside theirs at once (one vCPU interleaves
 * them), so the counting runs from the first task's begin while none was
 * in one to the end that leaves none in one.  The guest is stopped in the
 * callback, and under -icount its clock does not move meanwhile.
 *
 * QEMU 7.2 quirk: when the x86 translator meets an instruction that is not
 * the block's first and crosses onto the next page, it backs it out of the
 * block (disas_insn's siglongjmp(2)) but the plugin API still lists it:
 * n_insns is one too many and what is registered on it never runs.  The
 * last instruction's own counter makes such a phantom count 0, and the
 * statistics recognise it (the next block starts at its address with a
 * page-crossing first instruction) so that it is not taken for an exit.
 *
 * DIR/process-NNNN.tsv, sorted by address so that two identical guests
 * give byte-identical files:
 *   # insns process N
 *   # regions: R
 *   # total: T / # kernel: K / # user: U     (one line each)
 *   # early_exits: E over_count_bound: B
 *   ffffffff81234560<TAB>COUNT               one line per kernel address
 *   [user]<TAB>U
 * and DIR/summary at exit (translations, layouts, memory).
 *
 * Limits: one vCPU (inline adds are not atomic; -icount needs one vCPU
 * anyway); x86-64 guests with 4-level paging (the kernel/user split).
 */
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "insns-marker.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define KERNEL_START 0xffff800000000000ull
/* TCG translates at most 512 instructions per block (TCG_MAX_INSNS). */
#define MAX_TB_INSNS 512

/*
 * Counters live in slabs that never move (inline ops hold their address).
 * For each kind of region (timed, task), base[] is the snapshot of a begin
 * marker (a counter made after it had 0 then), acc[] the process's sums
 * over its regions.
 */
#define SLAB_COUNTERS 65536
enum kind { TIMED, TASK, KINDS };
struct slab {
	struct slab *next;
	size_t used;
	size_t snap_used[KINDS];	/* counters [0, snap_used) were snapshotted */
	uint64_t v[SLAB_COUNTERS];
	uint64_t base[KINDS][SLAB_COUNTERS];
	uint64_t acc[KINDS][SLAB_COUNTERS];
};

/*
 * One kernel block layout.  per_insn: counter i counts instruction i (a
 * marker's stays 0); otherwise counter 0 counts entries (credited to
 * instructions 0 .. n-2, or to the only one) and counter 1 arrivals at the
 * last instruction.
 */
struct block {
	uint64_t vaddr;
	uint32_t n;
	bool per_insn;
	bool user;		/* below the kernel half: counted into [user] */
	uint16_t *off;		/* offset of each instruction from vaddr */
	struct slab *slab;	/* its counters: slab->v[idx ...] */
	size_t idx;
};

struct hit {
	uint64_t addr;
	uint64_t count;
};

static struct {
	char *out_dir;
	GMutex lock;
	struct slab *slabs;	/* newest first */
	GHashTable *layouts;	/* struct block * -> itself, by layout */
	GPtrArray *blocks;	/* every struct block, in creation order */
	GHashTable *crossers;	/* block starts whose first insn crosses a page */

	unsigned int depth[KINDS];	/* regions open: the timed kind 0 or 1, tasks any */
	unsigned int process;	/* process markers seen */
	unsigned int regions[KINDS];	/* regions of this process */
	unsigned int written, unpaired;

	uint64_t translations, marker_blocks;
	size_t bytes;		/* memory this plugin allocated */
} st;

static void *xalloc0(size_t n)
{
	st.bytes += n;
	return g_malloc0(n);
}

/* n consecutive counters in one slab (n <= MAX_TB_INSNS). */
static void counters_alloc(struct block *b, size_t n)
{
	struct slab *s = st.slabs;

	if (!s || s->used + n > SLAB_COUNTERS) {
		s = xalloc0(sizeof(*s));
		s->next = st.slabs;
		st.slabs = s;
	}
	b->slab = s;
	b->idx = s->used;
	s->used += n;
}

static uint64_t *counter(const struct block *b, uint32_t i) { return &b->slab->v[b->idx + i]; }
static uint64_t summed(const struct block *b, enum kind k, uint32_t i) { return b->slab->acc[k][b->idx + i]; }

static guint layout_hash(gconstpointer p)
{
	const struct block *b = p;
	uint64_t h = b->vaddr * 0x9e3779b97f4a7c15ull ^ ((uint64_t)b->n << 2 | (uint64_t)b->user << 1 | b->per_insn);

	for (uint32_t i = 0; i < b->n; i++)
		h = (h ^ b->off[i]) * 0x100000001b3ull;
	return (guint)(h ^ h >> 32);
}

static gboolean layout_equal(gconstpointer pa, gconstpointer pb)
{
	const struct block *a = pa, *b = pb;

	return a->vaddr == b->vaddr && a->n == b->n && a->per_insn == b->per_insn && a->user == b->user &&
	       !memcmp(a->off, b->off, a->n * sizeof(a->off[0]));
}

/* ---- regions and processes -------------------------------------------- */

static void snapshot(enum kind k)
{
	for (struct slab *s = st.slabs; s; s = s->next) {
		memcpy(s->base[k], s->v, s->used * sizeof(s->v[0]));
		s->snap_used[k] = s->used;
	}
}

static void accumulate(enum kind k)
{
	for (struct slab *s = st.slabs; s; s = s->next)
		for (size_t i = 0; i < s->used; i++)
			s->acc[k][i] += s->v[i] - (i < s->snap_used[k] ? s->base[k][i] : 0);
}

static void region_begin(enum kind k)
{
	if (k == TIMED && st.depth[k]) {
		st.unpaired++;	/* a begin without its end: the earlier is dropped */
		st.depth[k] = 0;
	}
	if (!st.depth[k]++)
		snapshot(k);
}

static void region_end(enum kind k)
{
	if (!st.depth[k]) {
		st.unpaired++;
		return;
	}
	if (!--st.depth[k])
		accumulate(k);
	st.regions[k]++;
}

/* Is the last instruction of b the 7.2 phantom (see the top of the file)? */
static bool is_phantom(const struct block *b)
{
	uint64_t last = b->vaddr + b->off[b->n - 1];

	return b->n > 1 && g_hash_table_contains(st.crossers, &last);
}

/* A kernel address's count, or a user block's into [user]. */
static void add_hit(GArray *hits, const struct block *b, uint32_t i, uint64_t count, uint64_t *user)
{
	struct hit h = { b->vaddr + b->off[i], count };

	if (b->user)
		*user += count;
	else if (count)
		g_array_append_val(hits, h);
}

/* The process's kernel hits and [user]; *exits and *bound: blocks left early. */
static GArray *process_hits(enum kind kind, uint64_t *user, uint64_t *exits, uint64_t *bound)
{
	GArray *hits = g_array_new(FALSE, FALSE, sizeof(struct hit));

	*user = *exits = *bound = 0;
	for (guint k = 0; k < st.blocks->len; k++) {
		const struct block *b = g_ptr_array_index(st.blocks, k);
		uint64_t entries, last;

		if (b->per_insn) {
			for (uint32_t i = 0; i < b->n; i++)
				add_hit(hits, b, i, summed(b, kind, i), user);
			continue;
		}
		entries = summed(b, kind, 0);
		if (!entries)
			continue;
		for (uint32_t i = 0; i + 1 < b->n || i == 0; i++)
			add_hit(hits, b, i, entries, user);
		if (b->n == 1)
			continue;
		last = summed(b, kind, 1);
		add_hit(hits, b, b->n - 1, last, user);
		if (entries > last && !is_phantom(b)) {
			/* left before the last: at most n - 1 counted that did not run */
			*exits += entries - last;
			*bound += (entries - last) * (b->n - 1);
		}
	}
	return hits;
}

static int hit_cmp(const void *pa, const void *pb)
{
	const struct hit *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* One address once: blocks that overlap or were laid out anew add up. */
static uint64_t hits_merge(GArray *hits)
{
	uint64_t total = 0;
	guint w = 0;

	g_array_sort(hits, hit_cmp);
	for (guint i = 0; i < hits->len; i++) {
		struct hit *h = &g_array_index(hits, struct hit, i);

		total += h->count;
		if (w && g_array_index(hits, struct hit, w - 1).addr == h->addr)
			g_array_index(hits, struct hit, w - 1).count += h->count;
		else
			g_array_index(hits, struct hit, w++) = *h;
	}
	g_array_set_size(hits, w);
	return total;
}

static void process_write(enum kind k)
{
	uint64_t user, exits, bound, kernel;
	GArray *hits = process_hits(k, &user, &exits, &bound);
	char path[4096];
	FILE *f;

	kernel = hits_merge(hits);
	snprintf(path, sizeof(path), "%s/process-%04u%s.tsv", st.out_dir, st.process, k == TASK ? ".tasks" : "");
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "insns: %s: %s\n", path, strerror(errno));
		g_array_free(hits, TRUE);
		return;
	}
	fprintf(f, "# insns process %u\n# regions: %u\n", st.process, st.regions[k]);
	fprintf(f, "# total: %" PRIu64 "\n# kernel: %" PRIu64 "\n# user: %" PRIu64 "\n",
		kernel + user, kernel, user);
	fprintf(f, "# early_exits: %" PRIu64 " over_count_bound: %" PRIu64 "\n", exits, bound);
	for (guint i = 0; i < hits->len; i++)
		fprintf(f, "%016" PRIx64 "\t%" PRIu64 "\n", g_array_index(hits, struct hit, i).addr,
			g_array_index(hits, struct hit, i).count);
	fprintf(f, "[user]\t%" PRIu64 "\n", user);
	if (fclose(f))
		fprintf(stderr, "insns: writing %s: %s\n", path, strerror(errno));
	else if (k == TIMED)
		st.written++;
	g_array_free(hits, TRUE);
}

/* The process before this marker is over: its sums out, and zeroed. */
static void process_end(void)
{
	for (enum kind k = TIMED; k < KINDS; k++) {
		if (st.depth[k]) {
			st.unpaired++;	/* it ended inside a region (killed, or failed) */
			st.depth[k] = 0;
		}
		if (st.regions[k] && st.process)
			process_write(k);
		for (struct slab *s = st.slabs; s; s = s->next)
			memset(s->acc[k], 0, s->used * sizeof(s->acc[k][0]));
		st.regions[k] = 0;
	}
}

static void on_marker(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	g_mutex_lock(&st.lock);
	switch ((enum insns_mark)(uintptr_t)udata) {
	case MARK_BEGIN:
		region_begin(TIMED);
		break;
	case MARK_END:
		region_end(TIMED);
		break;
	case MARK_TASK_BEGIN:
		region_begin(TASK);
		break;
	case MARK_TASK_END:
		region_end(TASK);
		break;
	default:
		process_end();
		st.process++;
		break;
	}
	g_mutex_unlock(&st.lock);
}

/* ---- translation ------------------------------------------------------ */

/* The shared counters of this layout, made on first sight. */
static struct block *layout_block(uint64_t vaddr, uint32_t n, bool per_insn, uint16_t *off)
{
	struct block key = { .vaddr = vaddr, .n = n, .per_insn = per_insn, .user = vaddr < KERNEL_START, .off = off };
	struct block *b;

	b = g_hash_table_lookup(st.layouts, &key);
	if (b)
		return b;
	b = xalloc0(sizeof(*b));
	*b = key;
	b->off = xalloc0(n * sizeof(off[0]));
	memcpy(b->off, off, n * sizeof(off[0]));
	counters_alloc(b, per_insn ? n : 2);
	g_hash_table_add(st.layouts, b);
	g_ptr_array_add(st.blocks, b);
	return b;
}

/* A first instruction that runs onto the next page (allowed, unlike a later
 * one's): a block that ends at this address had a phantom. */
static void note_crosser(uint64_t vaddr, size_t first_size)
{
	uint64_t *key;

	if (!((vaddr ^ (vaddr + first_size - 1)) & ~(uint64_t)0xfff) ||
	    g_hash_table_contains(st.crossers, &vaddr))
		return;
	key = xalloc0(sizeof(*key));
	*key = vaddr;
	g_hash_table_add(st.crossers, key);
}

/* The adds of one block: counter i is instruction i's when per_insn,
 * else counter 0 the entries' and counter 1 the last instruction's. */
static void instrument(struct qemu_plugin_tb *tb, size_t n, const enum insns_mark *marks, struct block *b)
{
	if (!b->per_insn) {
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, counter(b, 0), 1);
		if (n > 1)
			qemu_plugin_register_vcpu_insn_exec_inline(qemu_plugin_tb_get_insn(tb, n - 1),
								   QEMU_PLUGIN_INLINE_ADD_U64, counter(b, 1), 1);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (marks[i] != MARK_NONE)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)marks[i]);
		else
			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   counter(b, (uint32_t)i), 1);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	enum insns_mark marks[MAX_TB_INSNS];
	uint16_t off[MAX_TB_INSNS];
	bool has_marker = false;
	struct block *b;

	(void)id;
	if (n == 0 || n > MAX_TB_INSNS)
		return;	/* not seen: TCG's limit is 512 */
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		marks[i] = insns_marker(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
		has_marker |= marks[i] != MARK_NONE;
		off[i] = (uint16_t)(qemu_plugin_insn_vaddr(insn) - vaddr);
	}
	g_mutex_lock(&st.lock);
	st.translations++;
	st.marker_blocks += has_marker;
	b = layout_block(vaddr, (uint32_t)n, has_marker, off);
	note_crosser(vaddr, qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, 0)));
	g_mutex_unlock(&st.lock);
	instrument(tb, n, marks, b);
}

/* ---- set-up and exit -------------------------------------------------- */

/* qemu's peak resident set, plugin included, for the cost figures. */
static long long peak_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kb = atoll(line + 6);
	if (f)
		fclose(f);
	return kb;
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char path[4096];
	uint64_t phantoms = 0;
	FILE *f;

	(void)id;
	(void)udata;
	process_end();
	for (guint k = 0; k < st.blocks->len; k++)
		phantoms += is_phantom(g_ptr_array_index(st.blocks, k));
	snprintf(path, sizeof(path), "%s/summary", st.out_dir);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "processes: %u\nprocesses_with_regions: %u\nunpaired_markers: %u\n", st.process,
		st.written, st.unpaired);
	fprintf(f, "translations: %" PRIu64 "\nmarker_blocks: %" PRIu64 "\n", st.translations,
		st.marker_blocks);
	fprintf(f, "layouts: %u\nlayouts_with_phantom: %" PRIu64 "\n", st.blocks->len, phantoms);
	fprintf(f, "plugin_bytes: %zu\nqemu_peak_rss_kb: %lld\n", st.bytes, peak_rss_kb());
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	char probe[4096];
	FILE *f;

	if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insns: target %s: only x86_64 guests are supported\n", info->target_name);
		return -1;
	}
	if (!info->system_emulation || info->system.max_vcpus != 1) {
		fprintf(stderr, "insns: needs system emulation with exactly one vCPU (inline counters are not atomic)\n");
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4) || !argv[i][4]) {
			fprintf(stderr, "insns: unknown argument '%s' (out=DIR)\n", argv[i]);
			return -1;
		}
		st.out_dir = g_strdup(argv[i] + 4);
	}
	if (!st.out_dir) {
		fprintf(stderr, "insns: out=DIR is required\n");
		return -1;
	}
	/* Refuse now rather than lose the first process. */
	snprintf(probe, sizeof(probe), "%s/summary", st.out_dir);
	f = fopen(probe, "w");
	if (!f) {
		fprintf(stderr, "insns: out=%s: cannot write %s: %s\n", st.out_dir, probe, strerror(errno));
		return -1;
	}
	fclose(f);
	g_mutex_init(&st.lock);
	st.layouts = g_hash_table_new(layout_hash, layout_equal);
	st.blocks = g_ptr_array_new();
	st.crossers = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
