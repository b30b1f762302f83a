/*
 * The rows of one where block (where.h): every function of the two runs'
 * profiles, its means per iteration and its test across iterations, then
 * the ones a block shows.
 */
#ifndef MMDELTA_WHEREROWS_H
#define MMDELTA_WHEREROWS_H

#include <stddef.h>

#include "profile/profread.h"
#include "profile/where.h"

/* insns: significant functions, then the others, up to top; [rest]; the total, tested. */
void rows_insns(struct where_block *w, const struct iter_profiles *pb, const struct iter_profiles *pn,
		double alpha, size_t top);
/* samples: the significant functions, up to top. */
void rows_samples(struct where_block *w, const struct iter_profiles *pb, const struct iter_profiles *pn,
		  double alpha, size_t top);
void rows_free(struct where_row *rows, size_t from, size_t n);

#endif
