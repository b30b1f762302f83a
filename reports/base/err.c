/* One place that formats library errors (see err.h for why). */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

int err_set(struct err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}
