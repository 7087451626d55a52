/* A double in the fewest significant digits that read back as it, for the
 * values a message echoes: a value a refusal names is the value given, and
 * one the user can type back (0.3, not 0.29999999999999999). */
#include "real_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void heat2d_format_shortest(double x, char *out, size_t size)
{
    if (out == NULL || size == 0)
        return;
    /* An integer's digits all shown: 10, not 1e+01. */
    const int whole = fabs(x) >= 1.0 && fabs(x) < 1e17 ? (int)floor(log10(fabs(x))) + 1 : 1;
    for (int digits = whole; digits <= 17; ++digits) {
        snprintf(out, size, "%.*g", digits, x);
        if (strtod(out, NULL) == x || !isfinite(x))
            return;
    }
}
