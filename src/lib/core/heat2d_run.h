/* Running one method: the timed solve, the f32 bound, the summary checks and
 * the outcome a program prints. */
#ifndef HEAT2D_RUN_H
#define HEAT2D_RUN_H

#include "heat2d_method.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The timed part of a run of a non-distributed method in cfg->precision.
 * u holds the initial state and v the same (doubles, as for m->solve); on
 * success *result points at u or v, which holds the final field as doubles,
 * and *seconds is the time of m->solve or m->solve_f32 alone (an f32 run's
 * rounding to float and widening back happen outside it). Refuses, with the
 * method's name, a precision the method has no path for. */
int heat2d_solve(const heat2d_method *m, const heat2d_config *cfg, double *u, double *v,
                 double **result, double *seconds, heat2d_report *rep, heat2d_error *err);

/* How far an f32 run may be from the f64 run of the same configuration, in
 * any cell, when the initial state is bounded by max_abs: rounding the
 * initial state (2^-24 relative) plus, per step, the roundings of the
 * update's six operations and of alpha, which sum to less than 7 x 2^-24 x
 * max_abs, since every intermediate is bounded by 4 x max_abs and the exact
 * update is a convex combination (alpha <= 1/4): errors made in one step
 * are carried, never amplified, by the next. So
 *     |f32 - f64| <= (1 + 7 * steps) * 2^-24 * max_abs.
 * Valid without FMA contraction and with it (a fused multiply-add rounds
 * once where two roundings are counted). */
double heat2d_f32_error_bound(size_t steps, double max_abs);

/* How far a run in precision p of an initial state bounded by 1 may be from
 * the f64 run, per cell: 0 for f64, heat2d_f32_error_bound(steps, 1) for
 * f32. The summary check and heat2d check widen their bounds by it. */
double heat2d_precision_slack(heat2d_precision p, size_t steps);

typedef struct heat2d_summary {
    double mass;
    double centre;
    double min;
    double max;
} heat2d_summary;

/* Sum in storage order (the order of the original's SUM), min, max and
 * centre of a run's field in cfg->precision, and its check: every cell
 * finite, and the bounds of heat2d_check_bounds after cfg->steps. */
int heat2d_summarise_run(const heat2d_config *cfg, const double *field, heat2d_summary *sum,
                         heat2d_error *err);

/* Whether a state after step steps, of minimum lo, maximum hi and sum
 * mass, keeps the bounds of cfg's initial state: for the standard one the
 * original's (-1e-12 <= lo, hi <= 1 + 1e-12, -1e-12 <= mass <= 1 +
 * 1e-10); for cfg->initial its own, each widened alike in proportion to
 * max |u0|; the mass also by the rounding of its sums and steps, from
 * the cell count, step and sum |u0|; in f32 also by the precision's slack.
 * 0, else 1 for a value out of bounds, 2 for the mass. */
int heat2d_check_bounds(const heat2d_config *cfg, size_t step, double lo, double hi, double mass);

typedef struct heat2d_outcome {
    heat2d_summary summary;
    heat2d_report report;
    double total_s;
} heat2d_outcome;

/* The first cell in storage order that is not finite; false if none. */
bool heat2d_find_nonfinite(size_t nx, size_t ny, const double *field, size_t *i, size_t *j);

/* The failure of a run whose field, after `step` steps, holds a non-finite
 * value: "non-finite value at cell (i, j) after step K". Returns -1. */
int heat2d_fail_nonfinite(size_t nx, size_t ny, const double *field, size_t step,
                          heat2d_error *err);

/* KEY=VALUE lines of the seed protocol, then heat2d's own keys. */
void heat2d_print_outcome(FILE *stream, const heat2d_method *m, const heat2d_config *cfg,
                          const heat2d_outcome *out);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_RUN_H */
