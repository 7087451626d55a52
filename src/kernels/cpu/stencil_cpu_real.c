/* The host kernels, written once for both precisions (heat2d_real.h):
 * compiled once per precision (heat2d_real_sources), so that both run the
 * same loops in the same order; f64 under the plain names, f32 under names
 * ending in _f32 (stencil_cpu.h), each precision's behind its table,
 * heat2d_cpu_kernels_table(_f32). */
#include "heat2d_real.h"
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

/* A streaming store of one 16-byte vector from b to p (SSE2), of this
 * precision. */
#if REAL_F32
#define STREAM(p, b) _mm_stream_ps((p), _mm_load_ps(b))
#else
#define STREAM(p, b) _mm_stream_pd((p), _mm_load_pd(b))
#endif

/* The bits of x - x: all zero when x is finite (x - x is +0 exactly),
 * those of a NaN when x is NaN or +-Inf. OR-ed over many cells they are
 * non-zero exactly when one of them was not finite. One subtraction and one
 * integer OR, both vectorised: a floating-point comparison (isfinite,
 * fabs(x) <= DBL_MAX) kept GCC 12 from vectorising the loop at all. */
static inline REAL_BITS FN(nonfinite_bits)(REAL x)
{
    REAL d = x - x;
    REAL_BITS bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* The update of cells [i_begin, i_end) of one row: every method on the host
 * (cpu, omp, mpi-cpu) goes through this one loop, so that each cell sees the
 * same operations in the same order whatever the decomposition. The loop has
 * no branch, so the compiler vectorises it; the parenthesisation is the
 * original's left-to-right order, and -ffp-contract=off keeps every rounding
 * step where it was. Every operand is REAL (the 4 too), so a float run never
 * widens. Returns the OR of nonfinite_bits over the centre values read. */
static inline REAL_BITS FN(update_run)(const REAL *restrict centre, const REAL *restrict south,
                                       const REAL *restrict north, REAL *restrict out,
                                       size_t i_begin, size_t i_end, REAL alpha)
{
    REAL_BITS nonfinite = 0;
    for (size_t i = i_begin; i < i_end; ++i) {
        REAL c = centre[i];
        out[i] = c + alpha * (centre[i - 1] + centre[i + 1] + south[i] + north[i] - (REAL)4 * c);
        nonfinite |= FN(nonfinite_bits)(c);
    }
    return nonfinite;
}

/* The rows [j_begin, j_end): boundary rows and columns 0, interior cells by
 * run. Inlined into each caller with its run, so each stays one loop. */
static inline REAL_BITS
FN(step_rows_with)(REAL_BITS (*run)(const REAL *restrict, const REAL *restrict,
                                    const REAL *restrict, REAL *restrict, size_t, size_t, REAL),
                   size_t nx, size_t ny, size_t j_begin, size_t j_end, REAL alpha, const REAL *u,
                   REAL *v)
{
    /* An integer OR of per-cell flags: unlike a floating-point sum, the
     * compiler may reorder it, so the interior loop still vectorises. */
    REAL_BITS nonfinite = 0;
    for (size_t j = j_begin; j < j_end; ++j) {
        REAL *restrict out = v + j * nx;
        if (j == 0 || j == ny - 1) {
            memset(out, 0, nx * sizeof(REAL));
            continue;
        }
        const REAL *centre = u + j * nx;
        out[0] = 0;
        nonfinite |= run(centre, centre - nx, centre + nx, out, 1, nx - 1, alpha);
        out[nx - 1] = 0;
    }
    return nonfinite;
}

HOST_KERNEL bool FN(heat2d_cpu_step_rows)(size_t nx, size_t ny, size_t j_begin, size_t j_end,
                                          REAL alpha, const REAL *u, REAL *v)
{
    return FN(step_rows_with)(FN(update_run), nx, ny, j_begin, j_end, alpha, u, v) == 0;
}

#ifdef __SSE2__
/* update_run with streaming stores. The cells are computed by update_run
 * itself, a chunk at a time into a buffer that stays in the L1 cache, and
 * the buffer is then streamed to out: the arithmetic is the one loop every
 * host method shares (the same bits by construction), vectorised as the
 * compiler vectorises it (a hand-written SSE2 version was slower:
 * docs/performance.md, "omp"), and the extra copy costs L1 bandwidth only. A streaming store must
 * be 16-byte aligned: cells before the first aligned vector go straight to out, and the cells after
 * the last whole vector are copied with ordinary stores. */
static REAL_BITS FN(update_run_stream)(const REAL *restrict centre, const REAL *restrict south,
                                       const REAL *restrict north, REAL *restrict out,
                                       size_t i_begin, size_t i_end, REAL alpha)
{
    enum { LANES = 16 / sizeof(REAL) };
    REAL_BITS nonfinite = 0;
    size_t i = i_begin;
    while (i < i_end && (uintptr_t)(out + i) % 16 != 0) {
        nonfinite |= FN(update_run)(centre, south, north, out, i, i + 1, alpha);
        ++i;
    }
    _Alignas(16) REAL buffer[STREAM_CHUNK];
    while (i < i_end) {
        size_t len = i_end - i < STREAM_CHUNK ? i_end - i : STREAM_CHUNK;
        /* The run shifted to start at i, so that it writes buffer[0, len);
         * its reads of (centre + i)[-1] are centre[i - 1], inside the row. */
        nonfinite |= FN(update_run)(centre + i, south + i, north + i, buffer, 0, len, alpha);
        size_t k = 0;
        for (; k + LANES <= len; k += LANES)
            STREAM(out + i + k, buffer + k);
        for (; k < len; ++k)
            out[i + k] = buffer[k];
        i += len;
    }
    return nonfinite;
}

HOST_KERNEL bool FN(heat2d_cpu_step_rows_stream)(size_t nx, size_t ny, size_t j_begin, size_t j_end,
                                                 REAL alpha, const REAL *u, REAL *v)
{
    REAL_BITS nonfinite =
        FN(step_rows_with)(FN(update_run_stream), nx, ny, j_begin, j_end, alpha, u, v);
    /* Streaming stores are weakly ordered: make them visible before the
     * caller's barrier lets another thread read them. */
    _mm_sfence();
    return nonfinite == 0;
}
#else
HOST_KERNEL bool FN(heat2d_cpu_step_rows_stream)(size_t nx, size_t ny, size_t j_begin, size_t j_end,
                                                 REAL alpha, const REAL *u, REAL *v)
{
    return FN(heat2d_cpu_step_rows)(nx, ny, j_begin, j_end, alpha, u, v);
}
#endif

HOST_KERNEL bool FN(heat2d_cpu_step_block)(size_t stride, size_t i_begin, size_t i_end,
                                           size_t j_begin, size_t j_end, REAL alpha, const REAL *u,
                                           REAL *v)
{
    REAL_BITS nonfinite = 0;
    for (size_t j = j_begin; j < j_end; ++j) {
        const REAL *centre = u + j * stride;
        nonfinite |= FN(update_run)(centre, centre - stride, centre + stride, v + j * stride,
                                    i_begin, i_end, alpha);
    }
    return nonfinite == 0;
}

HOST_KERNEL bool FN(heat2d_cpu_rows_finite)(size_t nx, size_t j_begin, size_t j_end, const REAL *u)
{
    REAL_BITS nonfinite = 0;
    for (size_t k = j_begin * nx; k < j_end * nx; ++k)
        nonfinite |= FN(nonfinite_bits)(u[k]);
    return nonfinite == 0;
}

/* The same kernels behind the precision-neutral table (stencil_cpu.h):
 * untyped arrays, and alpha rounded to REAL once per call; a cell read and
 * written as heat2d_cells reads and writes it. */
static bool FN(any_step_rows)(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                              const void *u, void *v)
{
    return FN(heat2d_cpu_step_rows)(nx, ny, j_begin, j_end, (REAL)alpha, u, v);
}

static bool FN(any_step_rows_stream)(size_t nx, size_t ny, size_t j_begin, size_t j_end,
                                     double alpha, const void *u, void *v)
{
    return FN(heat2d_cpu_step_rows_stream)(nx, ny, j_begin, j_end, (REAL)alpha, u, v);
}

static bool FN(any_step_block)(size_t stride, size_t i_begin, size_t i_end, size_t j_begin,
                               size_t j_end, double alpha, const void *u, void *v)
{
    return FN(heat2d_cpu_step_block)(stride, i_begin, i_end, j_begin, j_end, (REAL)alpha, u, v);
}

static bool FN(any_rows_finite)(size_t nx, size_t j_begin, size_t j_end, const void *u)
{
    return FN(heat2d_cpu_rows_finite)(nx, j_begin, j_end, u);
}

const heat2d_cpu_kernels FN(heat2d_cpu_kernels_table) = {
    .cell_bytes = sizeof(REAL),
    .step_rows = FN(any_step_rows),
    .step_rows_stream = FN(any_step_rows_stream),
    .step_block = FN(any_step_block),
    .rows_finite = FN(any_rows_finite),
    .get = FN(heat2d_cell_get),
    .set = FN(heat2d_cell_set),
};
