#include "trigger.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fail(const struct trigger *t, const char *what)
{
	fprintf(stderr, "%s: trigger: %s: %s\n", t->who, what, errno ? strerror(errno) : "unexpected");
	return -1;
}

int trigger_open(struct trigger *t, const char *spec, const char *who)
{
	char path[PATH_MAX];
	sigset_t set;

	memset(t, 0, sizeof(*t));
	t->who = who;
	t->ready_fd = t->go_fd = -1;
	if (!strcmp(spec, "none"))
		return 0;
	if (!strcmp(spec, "signal")) {
		/* Blocked before any thread exists, so every thread inherits the mask. */
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		if (sigprocmask(SIG_BLOCK, &set, NULL))
			return fail(t, "sigprocmask");
		t->kind = TRIG_SIGNAL;
		return 0;
	}
	if (strncmp(spec, "fifo:", 5) || !spec[5]) {
		fprintf(stderr, "%s: --trigger %s: must be none, signal or fifo:DIR\n", who, spec);
		return -1;
	}
	t->kind = TRIG_FIFO;
	/* The driver holds both FIFOs open read-write, so these opens never block. */
	snprintf(path, sizeof(path), "%s/ready", spec + 5);
	t->ready_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (t->ready_fd < 0)
		return fail(t, path);
	snprintf(path, sizeof(path), "%s/go", spec + 5);
	t->go_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->go_fd < 0)
		return fail(t, path);
	return 0;
}

int trigger_wait(struct trigger *t, const char *state)
{
	char msg[64], c;
	sigset_t set;
	ssize_t n;
	int len;

	switch (t->kind) {
	case TRIG_NONE:
		return 0;
	case TRIG_SIGNAL:
		fprintf(stderr, "%s: %s, pid %d: kill -USR1 %d to continue\n",
			t->who, state, (int)getpid(), (int)getpid());
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		while (sigwaitinfo(&set, NULL) < 0)
			if (errno != EINTR)
				return fail(t, "sigwaitinfo");
		return 0;
	case TRIG_FIFO:
		len = snprintf(msg, sizeof(msg), "%s %d\n", state, (int)getpid());
		if (write(t->ready_fd, msg, (size_t)len) != len)
			return fail(t, "write ready fifo");
		do
			n = read(t->go_fd, &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1) {
			errno = n < 0 ? errno : 0;
			return fail(t, "driver closed the go fifo");
		}
		return 0;
	}
	return 0;
}

void trigger_close(struct trigger *t)
{
	if (t->ready_fd >= 0)
		close(t->ready_fd);
	if (t->go_fd >= 0)
		close(t->go_fd);
}
