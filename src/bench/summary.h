/* heat2d bench: summary.md, the tables a reader sees. */
#ifndef HEAT2D_SUMMARY_H
#define HEAT2D_SUMMARY_H

#include "bench.h"

#include <stdio.h>

/* Reads every row of DIR/trials.csv (earlier runs into the same folder
 * included), writes DIR/summary.md and, when echo is non-NULL, the same text
 * to echo; *own_rows (when non-NULL) counts the rows of info's run read
 * back, which the caller holds to the rows it wrote. */
int bench_write_summary(const bench_run_info *info, FILE *echo, size_t *own_rows,
                        heat2d_error *err);

#endif /* HEAT2D_SUMMARY_H */
