/*
 * N tasks doing one piece of work at once, as will-it-scale runs a test:
 * processes (fork) or threads of the bench, each bound to a CPU of its own
 * if asked, released together and timed as one region, from their release
 * to the end of the last one's work.
 *
 *   tasks_start()  in setup(): creates the tasks; each runs prepare(i) and
 *                  waits.  Returns when every task waits, or one failed.
 *   tasks_run()    in measure(): the timed region, clock reads and insns
 *                  markers included: releases them, waits until every task
 *                  has done work(i).
 *   tasks_stop()   in teardown(): each task runs finish(i) and ends; they
 *                  are reaped.
 *
 * The region holds the release (one wake-up of each task), the work, and
 * the last task's wake-up of the bench: creating the tasks, preparing them
 * and their end lie outside.  A task that is done waits until tasks_stop(),
 * so that its exit (a process's unmaps its whole address space) never runs
 * inside the region on a CPU another task still works on.
 */
#ifndef MMDELTA_TASKS_H
#define MMDELTA_TASKS_H
#include <stdint.h>

#define TASKS_MAX 4096

struct task_spec {
	uint64_t n;			/* 1 to TASKS_MAX */
	int threads;			/* 0: processes, 1: threads of the bench */
	int pin;			/* bind task i to the i-th allowed CPU (cpus.h) */
	int (*prepare)(unsigned i);	/* optional: in task i, before the region */
	int (*work)(unsigned i);	/* in task i: the timed work; 0, or -1 after task_fail() */
	void (*finish)(unsigned i);	/* optional: in task i, after the region */
};

/* 0, or -1 after saying why (the task that failed, and its reason). */
int tasks_start(const struct task_spec *spec);
/* The region: 0 with its length in *ns, or -1 after saying which task failed. */
int tasks_run(uint64_t *ns);
/* The tasks' minor faults during their work (getrusage, outside the region). */
uint64_t tasks_minor_faults(void);
/* 0, or -1 after saying which task ended badly. */
int tasks_stop(void);

/* In a task: record why it fails, printf-style (%m is errno); returns -1. */
int task_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
