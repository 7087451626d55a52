/* Precision, snapshot-copy and snapshot-writer names, the f32 error
 * bound, and each precision's cells (cells_real.c's tables). */
#include "heat2d_cells.h"
#include "heat2d_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *heat2d_precision_name(heat2d_precision p)
{
    return p == HEAT2D_F32 ? "f32" : "f64";
}

/* The index in names[] of text, or -1 with "WHAT 'TEXT' is not one of ...". */
static int parse_name(const char *text, const char *const names[2], const char *what,
                      heat2d_error *err)
{
    for (int k = 0; k < 2; ++k)
        if (strcmp(text, names[k]) == 0)
            return k;
    heat2d_fail(err, "%s '%s' is not one of %s, %s", what, text, names[0], names[1]);
    return -1;
}

int heat2d_parse_precision(const char *text, const char *what, heat2d_precision *p,
                           heat2d_error *err)
{
    static const char *const names[2] = {"f64", "f32"};
    int k = parse_name(text, names, what, err);
    if (k < 0)
        return -1;
    *p = k == 1 ? HEAT2D_F32 : HEAT2D_F64;
    return 0;
}

const char *heat2d_snapshot_copy_name(heat2d_snapshot_copy c)
{
    return c == HEAT2D_SNAPSHOT_OVERLAP ? "overlap" : "plain";
}

const char *heat2d_snapshot_writer_name(heat2d_snapshot_writer w)
{
    return w == HEAT2D_WRITER_NETCDF ? "netcdf" : w == HEAT2D_WRITER_TEXT ? "text" : "none";
}

size_t heat2d_precision_bytes(heat2d_precision p)
{
    return heat2d_cells_of(p)->bytes;
}

const heat2d_cells *heat2d_cells_of(heat2d_precision p)
{
    return p == HEAT2D_F32 ? &heat2d_cells_table_f32 : &heat2d_cells_table;
}

double heat2d_f32_error_bound(size_t steps, double max_abs)
{
    return (1.0 + 7.0 * (double)steps) * ldexp(1.0, -24) * max_abs;
}

double heat2d_precision_slack(heat2d_precision p, size_t steps)
{
    return p == HEAT2D_F32 ? heat2d_f32_error_bound(steps, 1.0) : 0.0;
}
