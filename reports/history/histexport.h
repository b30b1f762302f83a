/*
 * Data files for the trend charts of `history.sh html` (histexport.c):
 * DIR/series.tsv lists the series, DIR/sN.{dat,seg,cp,tics} hold series N.
 */
#ifndef MMDELTA_HISTEXPORT_H
#define MMDELTA_HISTEXPORT_H

#include "histchanges.h"

int hist_export(sqlite3 *db, const char *dir, const struct hist_data *d,
		const struct hist_changes *c, struct err *e);

#endif
