/* The %24.16E formatter the field writer uses (real_format.c), and the
 * shortest form messages echo and a float read as written (real_shortest.c), internal to the
 * library. */
#ifndef HEAT2D_REAL_FORMAT_H
#define HEAT2D_REAL_FORMAT_H

#include <stddef.h>

#define E16_WIDTH 24

/* Exactly what snprintf(out, 25, "%24.16E", x) writes (24 characters, no
 * NUL): the 17 significant digits of x correctly rounded, ties to even, as
 * glibc does in the default rounding mode. */
void heat2d_format_e16(double x, char out[E16_WIDTH]);

/* x in the fewest significant digits that strtod reads back as x
 * (real_shortest.c): what a message echoes. */
void heat2d_format_shortest(double x, char *out, size_t size);

/* The decimal a float was written from: the double of its fewest
 * significant digits that round to it (0.1f gives 0.1; real_shortest.c). */
double heat2d_float_as_written(float x);

#endif /* HEAT2D_REAL_FORMAT_H */
