/*
 * The start trigger: lets a driver or a person attach monitors or a profiler
 * to exactly the timed region, as the munlock thread did with operf.
 *   none        run straight through
 *   signal      say "ready" on stderr and wait for SIGUSR1; again at "done"
 *   fifo:DIR    write "ready\n"/"done\n" to DIR/ready, wait for a byte on DIR/go
 * SIGUSR1 is blocked and taken with sigwaitinfo(), so no handler runs at all.
 */
#ifndef MMDELTA_TRIGGER_H
#define MMDELTA_TRIGGER_H

struct trigger {
	enum { TRIG_NONE, TRIG_SIGNAL, TRIG_FIFO } kind;
	int ready_fd, go_fd;
	const char *who;
};

int trigger_open(struct trigger *t, const char *spec, const char *who);
/* Announce state ("ready" or "done") and wait for the release. */
int trigger_wait(struct trigger *t, const char *state);
void trigger_close(struct trigger *t);

#endif
