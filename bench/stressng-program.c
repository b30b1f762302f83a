/* The stress-ng program: where it is, what it says of itself.  See stressng-program.h. */
#include "stressng-program.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int sng_find(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p;
	size_t n;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(out, X_OK);
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p += n + (p[n] == ':')) {
		n = strcspn(p, ":");
		snprintf(out, len, "%.*s/%s", (int)n, p, name);
		if (n && !access(out, X_OK))
			return 0;
	}
	return -1;
}

/* Run PROGRAM with one option; its first line of output into buf. */
static int ask(const char *program, const char *option, char *buf, size_t len)
{
	int fds[2], status;
	ssize_t got = 0, r;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(program, program, option, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (size_t)got < len - 1 && (r = read(fds[0], buf + got, len - 1 - (size_t)got)) > 0)
		got += r;
	close(fds[0]);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

int sng_has_stressor(const char *program, const char *name)
{
	static char list[16384];
	size_t n = strlen(name);

	if (ask(program, "--stressors", list, sizeof(list)))
		return -1;
	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/* "stress-ng, version 0.15.06 (gcc ...)" */
int sng_version(const char *program, char *version, size_t len)
{
	char line[256], *v;

	if (ask(program, "--version", line, sizeof(line)) || !(v = strstr(line, "version ")))
		return bench_fail("%s --version failed: not a stress-ng this bench knows", program);
	snprintf(version, len, "%.*s", (int)strcspn(v + 8, " "), v + 8);
	return 0;
}

