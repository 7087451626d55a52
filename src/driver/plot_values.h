/* The values heat2d plot hands its plotting script (plot_values.c). */
#ifndef HEAT2D_PLOT_VALUES_H
#define HEAT2D_PLOT_VALUES_H

#include "field_netcdf.h"

/* spec (FILE.nc[:VAR][:STEP]) read by heat2d's reader onto stdout: 0, or
 * -1 with err. */
int heat2d_plot_values(const char *spec, heat2d_error *err);

#endif
