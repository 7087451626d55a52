/* heat2d plot --values SPEC: a .nc input as heat2d's reader reads it, for
 * the plotting script (tools/plot_bench.py), so that plot draws what run
 * and compare read (the variable, its dimensions' order, its packing). On
 * stdout: "field NX NY" (then " dx=M" and " dt=S" where the file gives the
 * cells' size in metres and heat2d's time step) and a line end, then NX*NY doubles in the host's
 * byte order, i fastest; or, for a series named whole, "series" and a line
 * for each of its records' steps. */
#include "plot_values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    heat2d_netcdf_facts facts;
    if (heat2d_netcdf_read_facts(spec, &field, &facts, err) != 0)
        return -1;
    const size_t cells = field.nx * field.ny;
    /* The grid in metres and the clock in seconds, where the file has
     * them: the plot's axes and times. */
    const double dx = facts.dx > 0.0 ? facts.dx : facts.spacing;
    char grid[80] = "";
    if (dx > 0.0)
        snprintf(grid, sizeof grid, " dx=%.17g", dx);
    if (facts.dt > 0.0)
        snprintf(grid + strlen(grid), sizeof grid - strlen(grid), " dt=%.17g", facts.dt);
    const bool written = printf("field %zu %zu%s\n", field.nx, field.ny, grid) > 0 &&
                         fwrite(field.values, sizeof *field.values, cells, stdout) == cells &&
                         fflush(stdout) == 0;
    heat2d_field_free(&field);
    return written ? 0 : heat2d_fail(err, "cannot write to stdout");
}
