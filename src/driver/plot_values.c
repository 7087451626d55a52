/* heat2d plot --values SPEC: a .nc input as heat2d's reader reads it, for
 * the plotting script (tools/plot_bench.py), so that plot draws what run
 * and compare read (the variable, its dimensions' order, its packing). On
 * stdout: "field NX NY" and a line end, then NX*NY doubles in the host's
 * byte order, i fastest; or, for a series named whole, "series" and a line
 * for each of its records' steps. */
#include "plot_values.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct step_lines {
    bool any;
} step_lines;

static int print_step(void *ctx, size_t step, heat2d_error *err)
{
    step_lines *lines = ctx;
    if (!lines->any && fputs("series\n", stdout) == EOF)
        return heat2d_fail(err, "cannot write to stdout");
    lines->any = true;
    return printf("%zu\n", step) < 0 ? heat2d_fail(err, "cannot write to stdout") : 0;
}

int heat2d_plot_values(const char *spec, heat2d_error *err)
{
    heat2d_netcdf_spec parsed;
    const int kind = heat2d_netcdf_spec_parse(spec, &parsed, err);
    if (kind <= 0)
        return kind < 0 ? -1 : heat2d_fail(err, "--values %s: not a NetCDF input", spec);
    /* Named whole, it may be a series: its steps, each record checked. */
    step_lines lines = {false};
    if (!parsed.record && heat2d_netcdf_check_steps(spec, print_step, &lines, err) != 0)
        return -1;
    if (lines.any)
        return fflush(stdout) == 0 ? 0 : heat2d_fail(err, "cannot write to stdout");
    heat2d_field field;
    if (heat2d_netcdf_read(spec, &field, err) != 0)
        return -1;
    const size_t cells = field.nx * field.ny;
    const bool written = printf("field %zu %zu\n", field.nx, field.ny) > 0 &&
                         fwrite(field.values, sizeof *field.values, cells, stdout) == cells &&
                         fflush(stdout) == 0;
    heat2d_field_free(&field);
    return written ? 0 : heat2d_fail(err, "cannot write to stdout");
}
