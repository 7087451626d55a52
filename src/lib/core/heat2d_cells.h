/* A precision's cells behind untyped arrays: what the code outside a
 * method's arithmetic does with a field of the run's precision (read or
 * write a cell, widen it to doubles, round doubles into it, scan it), one
 * table a precision. cells_real.c, compiled once per precision
 * (heat2d_real.h), makes both; heat2d_cells_of picks the run's. */
#ifndef HEAT2D_CELLS_H
#define HEAT2D_CELLS_H

#include "heat2d_config.h"
#include "heat2d_field_stats.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct heat2d_cells {
    size_t bytes; /* of a cell */
    double (*get)(const void *field, size_t k);
    void (*set)(void *field, size_t k, double value);
    /* to[k] = from[k] as a double, for k in [0, n): exact */
    void (*widen)(double *to, const void *from, size_t n);
    /* to[k] = from[k] rounded to the cell type, for k in [0, n) */
    void (*narrow)(void *to, const double *from, size_t n);
    /* heat2d_field_stats_add: cells [begin, end) in storage order into s */
    void (*stats_add)(heat2d_field_stats *s, const void *field, size_t begin, size_t end);
    /* The sum, least and greatest of cells [begin, end) into s, in fixed
     * lanes that the compiler vectorises (a NaN or an infinity leaves the
     * sum non-finite; the non-finite cells are not counted). */
    void (*scan)(heat2d_field_stats *s, const void *field, size_t begin, size_t end);
} heat2d_cells;

/* The table of precision p. */
const heat2d_cells *heat2d_cells_of(heat2d_precision p);

/* Each precision's table and its cell accessors, from its compilation of
 * cells_real.c (f64 the plain names, f32 the names ending in _f32), for
 * other tables of a precision to share. */
extern const heat2d_cells heat2d_cells_table;
extern const heat2d_cells heat2d_cells_table_f32;
double heat2d_cell_get(const void *field, size_t k);
double heat2d_cell_get_f32(const void *field, size_t k);
void heat2d_cell_set(void *field, size_t k, double value);
void heat2d_cell_set_f32(void *field, size_t k, double value);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CELLS_H */
