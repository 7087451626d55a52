/* What a NetCDF file records of a run, held to being finite numbers before
 * any file is made (field_netcdf.h): CF readers take an infinite
 * coordinate, time or diffusivity as data, and the run's inputs are each
 * finite while a product of them (alpha*dx^2/dt, (n - 1)*dx, steps*dt)
 * may overflow. */
#include "field_netcdf.h"

#include <math.h>

int heat2d_netcdf_meta_check(const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    const size_t cells = meta->nx > meta->ny ? meta->nx : meta->ny;
    const char *axis = meta->nx >= meta->ny ? "x" : "y";
    const double reach = (double)(cells > 0 ? cells - 1 : 0) * meta->dx;
    const double last = (double)meta->steps * meta->dt;
    if (meta->dx > 0.0 && !isfinite(reach))
        return heat2d_fail(err,
                           "dx %g m: the cell centres along %s reach %zu x dx, not a finite "
                           "number, which a NetCDF file cannot record; give a smaller --dx",
                           meta->dx, axis, cells - 1);
    if (meta->dt > 0.0 && !isfinite(last))
        return heat2d_fail(err,
                           "dt %g s: the time of step %zu, %zu x dt, is not a finite number, "
                           "which a NetCDF file cannot record; give a smaller --dt",
                           meta->dt, meta->steps, meta->steps);
    if (!isfinite(meta->diffusivity) || !isfinite(meta->alpha))
        return heat2d_fail(err,
                           "the diffusivity alpha*dx^2/dt (alpha %g, dx %g m, dt %g s) is not a "
                           "finite number, which a NetCDF file cannot record; give a smaller --dx "
                           "or a larger --dt",
                           meta->alpha, meta->dx, meta->dt);
    return 0;
}
