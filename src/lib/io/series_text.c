/* The text format's series (field_format.h): a folder of field files, one
 * a snapshot, DIR/step_NNN.dat, named by the series' step with as many
 * digits as its last step has, so that the files sort by it. The folder
 * is readied and checked by the caller before the run. */
#include "field_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text_series {
    const char *dir;
    int width;
    size_t nx, ny;
    const heat2d_cells *cells;
    double *widened; /* an f32 snapshot as doubles, for the writer */
} text_series;

static int text_series_close(void *series, bool complete, heat2d_error *err)
{
    (void)complete;
    (void)err;
    text_series *s = series;
    if (s != NULL)
        free(s->widened);
    free(s);
    return 0;
}

static int text_series_open(void **series, const char *path, const heat2d_config *cfg,
                            const heat2d_netcdf_meta *meta, bool append, heat2d_error *err)
{
    (void)meta;
    (void)append; /* a folder takes new step files; --append is the NetCDF series' */
    text_series *s = calloc(1, sizeof *s);
    *series = s;
    if (s == NULL)
        return heat2d_fail(err, "--save-every: cannot allocate the series' state");
    *s = (text_series){
        .dir = path, .nx = cfg->nx, .ny = cfg->ny, .cells = heat2d_cells_of(cfg->precision)};
    for (size_t step = cfg->first_step + cfg->steps; step > 0; step /= 10)
        s->width++;
    if (cfg->precision == HEAT2D_F32) {
        s->widened = malloc(cfg->nx * cfg->ny * sizeof(double));
        if (s->widened == NULL)
            return heat2d_fail(err, "--save-every: cannot allocate %zu bytes to widen snapshots",
                               cfg->nx * cfg->ny * sizeof(double));
    }
    return 0;
}

static int text_series_append(void *series, size_t step, const void *cells, heat2d_error *err)
{
    text_series *s = series;
    const double *values = cells;
    if (s->widened != NULL) {
        s->cells->widen(s->widened, cells, s->nx * s->ny);
        values = s->widened;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/step_%0*zu.dat", s->dir, s->width, step);
    return heat2d_field_write(path, s->nx, s->ny, values, err);
}

const heat2d_series_format heat2d_series_text = {
    .keeps = "step files",
    .open = text_series_open,
    .append = text_series_append,
    .close = text_series_close,
};
