/* Comparison of two fields, cell by cell, within a tolerance. */
#ifndef HEAT2D_COMPARE_H
#define HEAT2D_COMPARE_H

#include "heat2d_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heat2d_tolerance {
    double atol;
    double rtol;
} heat2d_tolerance;

#define HEAT2D_DEFAULT_ATOL 2e-12
#define HEAT2D_DEFAULT_RTOL 2e-10

typedef struct heat2d_comparison {
    double max_abs_diff;
    size_t worst_index;
    size_t failures;
    double rms_diff; /* sqrt(mean((a-b)^2)) over every cell; NaN with a NaN cell */
} heat2d_comparison;

/* Per cell |a-b| <= atol + rtol*|a| with a the reference, as the original. */
void heat2d_compare_arrays(const double *reference, const double *candidate, size_t n,
                           heat2d_tolerance tol, heat2d_comparison *result);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_COMPARE_H */
