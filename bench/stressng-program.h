/*
 * The stress-ng program the stressng bench runs: found as a shell finds a
 * command, and asked its version and its stressors before anything runs.
 */
#ifndef MMDELTA_STRESSNG_PROGRAM_H
#define MMDELTA_STRESSNG_PROGRAM_H

#include <stddef.h>

/* NAME as a path into out: itself with a slash, else the first on PATH; 0 or -1. */
int sng_find(const char *name, char *out, size_t len);
/* stress-ng --version's number into version; 0, or -1 after saying why. */
int sng_version(const char *program, char *version, size_t len);
/* 1 when NAME is one of stress-ng --stressors, 0 when not, -1 when it cannot tell. */
int sng_has_stressor(const char *program, const char *name);

#endif
