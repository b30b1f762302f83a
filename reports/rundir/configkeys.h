/*
 * Which keys of a resolved BENCH/config decide what a run measured.  The
 * file holds the config's KEY=VALUE lines, the bench's command lines, and
 * lines on how the run went (why -i auto stopped, its wall time, the swept
 * key's name, the sequential gate's design, --add's note); of the keys,
 * ITERATIONS, WARMUP, MAX_ITERATIONS, MAX_TIME, CI_TARGET and DESCRIPTION
 * decide only how long to measure or what to call it.  compare.sh names
 * the others when runs differ in them, and history.sh keeps runs that
 * differ in them in separate series.
 */
#ifndef MMDELTA_CONFIGKEYS_H
#define MMDELTA_CONFIGKEYS_H

#include <stddef.h>

/* The first len bytes of key: an upper-case config key that decides what
 * is measured. */
int config_key_measures(const char *key, size_t len);

#endif
