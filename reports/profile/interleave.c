/*
 * The list of interleaving paths (interleave.h), as fnmatch(3) patterns
 * checked against 6.1's and 6.12's kallsyms and the insns profiles of
 * tests/fixtures.  A function a syscall calls itself is work even when
 * its name looks like the machinery's: call_rcu() queues its callback
 * through rcu_segcblist_enqueue() and asks rcu_async_should_hurry(), once
 * per freed VMA, on the syscall's own path.  What a callback does once it
 * runs (vm_area_free_rcu_cb, the slab frees) is work: those functions are
 * the syscall's too, and a name cannot tell the two calls apart.
 * cond_resched() on a kernel without preemptible RCU reports a quiescent
 * state through rcu_all_qs() on every call, whether or not it schedules:
 * a walk that calls cond_resched() once per block pays it as work (Holt's
 * undone munmap, 2,293,774 instructions in five munmaps of 256G).
 */
#include <fnmatch.h>
#include <stddef.h>

#include "profile/interleave.h"

/* Matched first: the syscall's own calls into RCU. */
static const char *const work[] = {
	"rcu_segcblist_enqueue", "rcu_async_should_hurry", "rcu_all_qs",
};

static const char *const interleaving[] = {
	/* the scheduler: picking, switching, its accounting and wake-ups */
	"schedule", "schedule_*", "__schedule", "preempt_schedule*", "finish_task_switch*", "prepare_task_switch",
	"__switch_to*", "switch_mm_irqs_off", "switch_ldt", "switch_fpu_return", "*load_gs_index", "native_load_tls",
	"cr4_update_irqsoff", "pick_next_*", "pick_task*", "pick_eevdf", "put_prev_*", "set_next_*", "__set_next_*",
	"*_fair", "*_entit*", "update_curr*", "*update_load_avg*", "update_cfs_*", "update_rq_clock*",
	"update_deadline", "update_min_vruntime", "arch_scale_*", "enqueue_task*", "dequeue_task*",
	"try_to_wake_up", "ttwu_*", "wake_up_process", "wakeup_preempt", "resched_curr*", "check_preempt_*",
	"select_task_rq*", "swake_up_*", "psi_*", "sched_*", "scheduler_*", "*sched_clock*", "idle_cpu",
	"cpuacct_*", "account_*time", "vtime_*", "acct_account_*", "*mm_cid*",
	/* the tick, timers and the clock the tick keeps */
	"tick_*", "*_tick", "task_tick_*", "hrtick_*", "update_process_times", "calc_global_load*", "*timer*",
	"clockevents_*", "lapic_*", "update_vsyscall", "update_wall_time", "timekeeping_*",
	"update_fast_timekeeper", "ktime_get_update_offsets_now", "ntp_tick_length",
	/* interrupts */
	"irq_*", "__irq_*", "*sysvec_*", "handle_irq*", "native_apic_*",
	/* softirqs, RCU's grace periods and callback batches, kernel threads and workqueues */
	"*softirq*", "rcu_*", "invoke_rcu_core", "*note_gp_changes", "do_nocb_*", "kthread_*", "smpboot_*",
	"process_one_work", "worker_*", "wq_worker_*",
};

static int listed(const char *const *patterns, size_t n, const char *function)
{
	for (size_t i = 0; i < n; i++)
		if (!fnmatch(patterns[i], function, 0))
			return 1;
	return 0;
}

int profile_interleaving(const char *function)
{
	if (listed(work, sizeof(work) / sizeof(work[0]), function))
		return 0;
	return listed(interleaving, sizeof(interleaving) / sizeof(interleaving[0]), function);
}
