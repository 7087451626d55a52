/* What the host kernels share beyond their precision: the kernels
 * themselves are stencil_cpu_real.c's, one compilation a precision. */
#include "stencil_cpu.h"

bool heat2d_cpu_stream_stores(void)
{
#ifdef __SSE2__
    return true;
#else
    return false;
#endif
}

const heat2d_cpu_kernels *heat2d_cpu_kernels_for(heat2d_precision p)
{
    return p == HEAT2D_F32 ? &heat2d_cpu_kernels_table_f32 : &heat2d_cpu_kernels_table;
}

int heat2d_cpu_fail_nonfinite(const heat2d_cpu_kernels *k, size_t nx, size_t ny, const void *field,
                              size_t step, heat2d_error *err)
{
    if (k->cell_bytes == sizeof(double))
        return heat2d_fail_nonfinite(nx, ny, field, step, err);
    /* Widening keeps NaN and infinity, so the first non-finite cell and the
     * message are those of the float field. */
    for (size_t c = 0; c < nx * ny; ++c) {
        double x = k->get(field, c);
        if (x - x != 0.0) {
            if (step == 0)
                return heat2d_fail(err, "non-finite value at cell (%zu, %zu) in the initial state",
                                   c % nx, c / nx);
            return heat2d_fail(err, "non-finite value at cell (%zu, %zu) after step %zu", c % nx,
                               c / nx, step);
        }
    }
    return heat2d_fail(err, "non-finite value after step %zu (cell not found)", step);
}

size_t heat2d_cpu_fault_cell(size_t nx, size_t ny)
{
    return (ny - 2) * nx + (nx - 2);
}
