#include "stencil_cpu.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The bits of x - x: all zero when x is finite (x - x is +0 exactly),
 * those of a NaN when x is NaN or +-Inf. OR-ed over many cells they are
 * non-zero exactly when one of them was not finite. One subtraction and one
 * integer OR, both vectorised: a floating-point comparison (isfinite,
 * fabs(x) <= DBL_MAX) kept GCC 12 from vectorising the loop at all. */
static inline uint64_t nonfinite_bits(double x)
{
    double d = x - x;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* The update of cells [i_begin, i_end) of one row: every method on the host
 * (cpu, omp, mpi-cpu) goes through this one loop, so that each cell sees the
 * same operations in the same order whatever the decomposition. The loop has
 * no branch, so the compiler vectorises it; the parenthesisation is the
 * original's left-to-right order, and -ffp-contract=off keeps every rounding
 * step where it was. Returns the OR of nonfinite_bits over the centre values
 * read. */
static inline uint64_t update_run(const double *restrict centre, const double *restrict south,
                                  const double *restrict north, double *restrict out,
                                  size_t i_begin, size_t i_end, double alpha)
{
    uint64_t nonfinite = 0;
    for (size_t i = i_begin; i < i_end; ++i) {
        double c = centre[i];
        out[i] = c + alpha * (centre[i - 1] + centre[i + 1] + south[i] + north[i] - 4.0 * c);
        nonfinite |= nonfinite_bits(c);
    }
    return nonfinite;
}

typedef uint64_t (*run_fn)(const double *restrict centre, const double *restrict south,
                           const double *restrict north, double *restrict out, size_t i_begin,
                           size_t i_end, double alpha);

/* The rows [j_begin, j_end): boundary rows and columns 0, interior cells by
 * run. Inlined into each caller with its run, so each stays one loop. */
static inline uint64_t step_rows_with(run_fn run, size_t nx, size_t ny, size_t j_begin,
                                      size_t j_end, double alpha, const double *u, double *v)
{
    /* An integer OR of per-cell flags: unlike a floating-point sum, the
     * compiler may reorder it, so the interior loop still vectorises. */
    uint64_t nonfinite = 0;
    for (size_t j = j_begin; j < j_end; ++j) {
        double *restrict out = v + j * nx;
        if (j == 0 || j == ny - 1) {
            memset(out, 0, nx * sizeof(double));
            continue;
        }
        const double *centre = u + j * nx;
        out[0] = 0.0;
        nonfinite |= run(centre, centre - nx, centre + nx, out, 1, nx - 1, alpha);
        out[nx - 1] = 0.0;
    }
    return nonfinite;
}

bool heat2d_cpu_step_rows(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                          const double *u, double *v)
{
    return step_rows_with(update_run, nx, ny, j_begin, j_end, alpha, u, v) == 0;
}

#ifdef __SSE2__
/* update_run with streaming stores. The cells are computed by update_run
 * itself, a chunk at a time into a buffer that stays in the L1 cache, and
 * the buffer is then streamed to out: the arithmetic is the one loop every
 * host method shares (the same bits by construction), vectorised as the
 * compiler vectorises it (a hand-written SSE2 version of it ran 25% slower
 * on an AMD EPYC, whatever its stores), and the extra copy costs L1
 * bandwidth only. A streaming store must be 16-byte aligned: a cell before
 * the first aligned pair goes straight to out, and a last odd cell is
 * copied with an ordinary store. */
enum { STREAM_CHUNK = 512 }; /* cells: 4 KiB of buffer */

static uint64_t update_run_stream(const double *restrict centre, const double *restrict south,
                                  const double *restrict north, double *restrict out,
                                  size_t i_begin, size_t i_end, double alpha)
{
    uint64_t nonfinite = 0;
    size_t i = i_begin;
    if (i < i_end && (uintptr_t)(out + i) % 16 != 0) {
        nonfinite |= update_run(centre, south, north, out, i, i + 1, alpha);
        ++i;
    }
    _Alignas(16) double buffer[STREAM_CHUNK];
    while (i < i_end) {
        size_t len = i_end - i < STREAM_CHUNK ? i_end - i : STREAM_CHUNK;
        /* The run shifted to start at i, so that it writes buffer[0, len);
         * its reads of (centre + i)[-1] are centre[i - 1], inside the row. */
        nonfinite |= update_run(centre + i, south + i, north + i, buffer, 0, len, alpha);
        size_t k = 0;
        for (; k + 2 <= len; k += 2)
            _mm_stream_pd(out + i + k, _mm_load_pd(buffer + k));
        if (k < len)
            out[i + k] = buffer[k];
        i += len;
    }
    return nonfinite;
}

bool heat2d_cpu_stream_stores(void)
{
    return true;
}

bool heat2d_cpu_step_rows_stream(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                                 const double *u, double *v)
{
    uint64_t nonfinite = step_rows_with(update_run_stream, nx, ny, j_begin, j_end, alpha, u, v);
    /* Streaming stores are weakly ordered: make them visible before the
     * caller's barrier lets another thread read them. */
    _mm_sfence();
    return nonfinite == 0;
}
#else
bool heat2d_cpu_stream_stores(void)
{
    return false;
}

bool heat2d_cpu_step_rows_stream(size_t nx, size_t ny, size_t j_begin, size_t j_end, double alpha,
                                 const double *u, double *v)
{
    return heat2d_cpu_step_rows(nx, ny, j_begin, j_end, alpha, u, v);
}
#endif

bool heat2d_cpu_step_block(size_t stride, size_t i_begin, size_t i_end, size_t j_begin,
                           size_t j_end, double alpha, const double *u, double *v)
{
    uint64_t nonfinite = 0;
    for (size_t j = j_begin; j < j_end; ++j) {
        const double *centre = u + j * stride;
        nonfinite |= update_run(centre, centre - stride, centre + stride, v + j * stride, i_begin,
                                i_end, alpha);
    }
    return nonfinite == 0;
}

bool heat2d_cpu_rows_finite(size_t nx, size_t j_begin, size_t j_end, const double *u)
{
    uint64_t nonfinite = 0;
    for (size_t k = j_begin * nx; k < j_end * nx; ++k)
        nonfinite |= nonfinite_bits(u[k]);
    return nonfinite == 0;
}
