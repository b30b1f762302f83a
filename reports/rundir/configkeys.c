/* Which keys of a resolved BENCH/config decide what a run measured (see configkeys.h). */
#include <string.h>

#include "configkeys.h"

int config_key_measures(const char *key, size_t len)
{
	static const char *const timing[] = { "ITERATIONS", "WARMUP", "MAX_ITERATIONS",
					      "MAX_TIME", "CI_TARGET", "DESCRIPTION", NULL };

	if (len == 0 || strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") < len)
		return 0;
	for (int k = 0; timing[k]; k++)
		if (len == strlen(timing[k]) && !strncmp(key, timing[k], len))
			return 0;
	return 1;
}
