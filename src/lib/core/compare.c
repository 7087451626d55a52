/* Cell-by-cell comparison of a candidate field against a reference, with the
 * original tool's test and bookkeeping, made safe for NaN. */
#define _POSIX_C_SOURCE 200809L

#include "heat2d_compare.h"

#include <math.h>

void heat2d_compare_arrays(const double *reference, const double *candidate, size_t n,
                           heat2d_tolerance tol, heat2d_comparison *result)
{
    double max_abs_diff = 0.0;
    size_t worst_index = 0;
    size_t failures = 0;
    bool nan_seen = false;
    /* The sum of squares as scale^2 * ssq, rescaled as the largest
     * difference grows (as BLAS's dnrm2), so that no square overflows. */
    double scale = 0.0, ssq = 0.0;

    for (size_t i = 0; i < n; ++i) {
        double a = reference[i];
        double diff = fabs(a - candidate[i]);
        if (isnan(diff)) {
            /* Every comparison with NaN is false, so the original's test
             * would pass it silently; here it fails, and the first one is
             * the worst cell, since no difference is known there. */
            ++failures;
            if (!nan_seen) {
                nan_seen = true;
                max_abs_diff = diff;
                worst_index = i;
            }
            continue;
        }
        if (diff > scale) {
            ssq = 1.0 + ssq * (scale / diff) * (scale / diff);
            scale = diff;
        } else if (diff > 0.0) {
            ssq += (diff / scale) * (diff / scale);
        }
        /* Strictly greater: the first cell of the maximum, as the original. */
        if (!nan_seen && diff > max_abs_diff) {
            max_abs_diff = diff;
            worst_index = i;
        }
        /* Product then sum, each rounded, as Python evaluates it; the build's
         * -ffp-contract=off keeps the compiler from fusing them. */
        if (diff > tol.atol + tol.rtol * fabs(a))
            ++failures;
    }
    result->max_abs_diff = max_abs_diff;
    result->worst_index = worst_index;
    result->failures = failures;
    result->rms_diff = nan_seen ? NAN : n == 0 ? 0.0 : scale * sqrt(ssq / (double)n);
}
