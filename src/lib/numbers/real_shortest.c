/* A number in the fewest significant digits that read back as it: for the
 * values a message echoes (a value a refusal names is the value given, and
 * one the user can type back: 0.3, not 0.29999999999999999), and for a
 * float a file holds (0.1f was written as 0.1, not 0.100000001490116). */
#include "real_format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* x in the fewest digits, up to most, that strtod reads back as x, or as
 * the float x is when as_float (the last tried where none does). */
static void shortest(double x, int most, bool as_float, char *out, size_t size)
{
    /* An integer's digits all shown: 10, not 1e+01. */
    const int whole = fabs(x) >= 1.0 && fabs(x) < 1e17 ? (int)floor(log10(fabs(x))) + 1 : 1;
    for (int digits = whole; digits <= most; ++digits) {
        snprintf(out, size, "%.*g", digits, x);
        const double back = strtod(out, NULL);
        if ((as_float ? (float)back == (float)x : back == x) || !isfinite(x))
            return;
    }
}

void heat2d_format_shortest(double x, char *out, size_t size)
{
    if (out != NULL && size > 0)
        shortest(x, 17, false, out, size);
}

double heat2d_float_as_written(float x)
{
    char text[32];
    shortest((double)x, 9, true, text, sizeof text);
    return strtod(text, NULL);
}
