/*
 * What a bench says about itself, for run.sh: its metrics (--describe, the
 * run's metrics.tsv), its options (--describe-options, from which run.sh
 * takes the config keys the bench knows) and its options as check()
 * resolved them (--check).  Each prints to F; 0, or 1 on a write error.
 */
#ifndef MMDELTA_DESCRIBE_H
#define MMDELTA_DESCRIBE_H

#include <stdio.h>

struct bench;

/* metric<TAB>label<TAB>unit<TAB>lower|higher per metric. */
int describe_metrics(FILE *f, const struct bench *b);
/*
 * option<TAB>kind<TAB>default<TAB>choices<TAB>help per option, in table
 * order; kind is size, number, choice, string, flag or tasks; default is the value
 * before any option is parsed (bytes for a size, yes|no for a flag), empty
 * when the option is off unless given; choices "a|b|c" or empty.
 */
int describe_options(FILE *f, const struct bench *b);
/* The bench's monitors for configs that name none: one line, maybe empty. */
int describe_monitors(FILE *f, const struct bench *b);
/* "--option" and its value, one word per line, for every option that is on. */
int describe_resolved(FILE *f, const struct bench *b);

#endif
