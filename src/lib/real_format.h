/* The %24.16E formatter the field writer uses (real_format.c), internal to
 * the library. */
#ifndef HEAT2D_REAL_FORMAT_H
#define HEAT2D_REAL_FORMAT_H

#define E16_WIDTH 24

/* Exactly what snprintf(out, 25, "%24.16E", x) writes (24 characters, no
 * NUL): the 17 significant digits of x correctly rounded, ties to even, as
 * glibc does in the default rounding mode. */
void heat2d_format_e16(double x, char out[E16_WIDTH]);

#endif /* HEAT2D_REAL_FORMAT_H */
