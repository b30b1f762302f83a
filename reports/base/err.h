/*
 * Error reporting for library code: functions fill a message and return -1,
 * so that unit tests can check error paths and only mmstat's main() exits.
 */
#ifndef MMDELTA_ERR_H
#define MMDELTA_ERR_H

struct err {
	char msg[1024];
};

/* Format the message and return -1, so callers can `return err_set(...)`. */
int err_set(struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
