/*
 * reports/profile/interleave.c: which kernel functions are interleaving.
 * The names are 6.12's (tests/fixtures/profile's tables, /proc/kallsyms of
 * Debian's 6.12.117 cloud kernel), each put on its side by where the
 * kernel calls it: from the tick, an interrupt, a softirq, a context
 * switch or RCU's grace-period and callback machinery, or on a syscall's
 * or a page fault's own path.
 */
#include "unit.h"
#include "profile/interleave.h"

static void all(const char *const *names, int want)
{
	for (; *names; names++)
		if (profile_interleaving(*names) != want)
			fail_msg("%s: %d, not %d", *names, !want, want);
}

TEST(the_scheduler_tick_interrupts_softirqs_and_rcu_are_interleaving)
{
	static const char *const names[] = {
		"__schedule", "schedule", "finish_task_switch", "__switch_to_asm", "pick_next_task_fair",
		"pick_eevdf", "update_curr", "__update_load_avg_se", "enqueue_entity", "dequeue_entities",
		"try_to_wake_up", "psi_task_switch", "native_sched_clock", "sched_tick", "scheduler_tick",
		"account_system_index_time", "tick_nohz_handler", "update_process_times", "hrtimer_interrupt",
		"__run_timers", "sysvec_apic_timer_interrupt", "__irq_exit_rcu", "irq_enter_rcu",
		"handle_softirqs", "run_ksoftirqd", "rcu_core", "rcu_do_batch", "rcu_cblist_dequeue",
		"rcu_segcblist_extract_done_cbs", "rcu_note_context_switch", "note_gp_changes",
		"invoke_rcu_core", NULL,
	};

	all(names, 1);
}

TEST(a_syscalls_own_path_is_work_even_into_rcu_and_the_entry_code)
{
	/*
	 * call_rcu() queues a freed VMA's callback on the syscall's path;
	 * __rcu_read_lock, lock_vma_under_rcu and __cond_resched are calls of
	 * the fault and the syscall, and rcu_all_qs is __cond_resched's own
	 * report of a quiescent state; irqentry_* enter every page fault;
	 * vm_stat_account and account_kernel_stack are mm's and fork's
	 * accounting; dequeue_hugetlb_folio_nodemask is hugetlb's, not the
	 * scheduler's dequeue; [user] and [unknown] are not kernel functions.
	 */
	static const char *const names[] = {
		"call_rcu", "__call_rcu_common", "rcu_segcblist_enqueue", "rcu_async_should_hurry",
		"__rcu_read_lock", "__rcu_read_unlock", "lock_vma_under_rcu", "__cond_resched", "rcu_all_qs",
		"irqentry_enter", "irqentry_exit_to_user_mode", "vm_stat_account", "account_kernel_stack",
		"dequeue_hugetlb_folio_nodemask", "do_mprotect_pkey", "mas_walk", "vm_area_free_rcu_cb",
		"_raw_spin_unlock_irqrestore", "[user]", "[unknown]", NULL,
	};

	all(names, 0);
}
