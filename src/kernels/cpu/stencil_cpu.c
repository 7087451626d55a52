/* The host kernels in both precisions, from one source
 * (stencil_cpu_real.h): f64 under the plain names, f32 under names ending
 * in _f32. */
#include "stencil_cpu.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { STREAM_CHUNK = 512 }; /* cells of a streaming run's buffer: 4 KiB in f64 */

/* Each public kernel is built twice on x86-64, for AVX2 and for the
 * baseline (SSE2), and the loader picks the one this CPU runs (GCC's and
 * Clang's target_clones). AVX2 halves the instructions per cell; FMA stays
 * off (it is another target, and -ffp-contract=off forbids fusing anyway),
 * so both clones round every operation alike and give the same bits.
 * Measurements: docs/performance.md, "cpu", "omp". */
#if defined(__x86_64__) && !defined(__AVX2__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define HOST_KERNEL __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef HOST_KERNEL
#define HOST_KERNEL
#endif

/* A streaming store of one 16-byte vector from b to p (SSE2), of the
 * precision being written (REAL_F32, heat2d_precisions.h). */
#define STREAM(p, b)          STREAM_OF(REAL_F32, p, b)
#define STREAM_OF(f32, p, b)  STREAM_OF_(f32, p, b)
#define STREAM_OF_(f32, p, b) STREAM_##f32(p, b)
#define STREAM_0(p, b)        _mm_stream_pd((p), _mm_load_pd(b))
#define STREAM_1(p, b)        _mm_stream_ps((p), _mm_load_ps(b))

#define HEAT2D_REAL_SOURCE "stencil_cpu_real.h"
#include "heat2d_precisions.h"

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
    return p == HEAT2D_F32 ? &kernels_f32 : &kernels;
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
