/* Temporal blocking for cuda-tb: several Jacobi steps per pass through device
 * memory, behind C launchers. Internal to src/backends/cuda. */
#ifndef HEAT2D_CUDA_TB_KERNELS_H
#define HEAT2D_CUDA_TB_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How one pass of a given depth covers an nx x ny grid: the grid is cut into
 * strips of columns and segments of rows, one warp each. Computed once per
 * run, outside the time loop. */
typedef struct heat2d_cuda_tb_plan {
    heat2d_precision precision;
    unsigned depth;     /* time steps per pass */
    int variant;        /* which compiled kernel runs it */
    unsigned blocks;    /* thread blocks of the launch */
    long long strips;   /* column strips across nx */
    long long seg_rows; /* rows per segment (the last one may be shorter) */
    long long items;    /* strips * segments: one warp each */
    long long resident; /* warps the device holds at once for this kernel */
    bool dependent;     /* passes launched programmatically dependent */
    unsigned fp_ops;    /* floating-point instructions a cell-update: 7, 5 fused, 4 scaled */
    double coef;        /* the kernel's alpha, or c = (1 - 4 alpha) / alpha when scaled */
    double scale;       /* alpha^depth when scaled, else 1 */
} heat2d_cuda_tb_plan;

/* The main variant for an nx x ny grid of precision, by the grid's size
 * (host code: no GPU needed); NULL for no precision of this build. */
const char *heat2d_cuda_tb_choice(heat2d_precision precision, size_t nx, size_t ny);

/* The pass depth of a variant by name; 0 for none. */
unsigned heat2d_cuda_tb_variant_depth(const char *name);

/* The pass depths for an nx x ny grid, deepest (the main one) first, into
 * depths; returns how many. A run does as many passes of the first as fit,
 * then of the next ones, and a last single step with heat2d_cuda_step. The
 * main pass is heat2d_cuda_tb_choice's variant's; HEAT2D_CUDA_TB_VARIANT (a
 * tuning knob) selects another main variant by name, e.g. 8r4sl, the
 * bit-identical 8-deep kernel without FMA (docs/performance.md, "cuda-tb",
 * compares them). */
unsigned heat2d_cuda_tb_depths(heat2d_precision precision, size_t nx, size_t ny, unsigned *depths,
                               unsigned capacity);

/* Whether name is a variant of this build (HEAT2D_CUDA_TB_VARIANT's
 * values); the names there are, comma-separated, into names. */
bool heat2d_cuda_tb_variant_known(const char *name, char *names, size_t size);

/* Whether a scaled pass of depth steps stays inside precision's range for
 * alpha and a field whose cells stay within +-bound: where it does not, the
 * plan runs the scaled variant's fused twin. */
bool heat2d_cuda_tb_scaled_in_range(heat2d_precision precision, unsigned depth, double alpha,
                                    double bound);

/* Loads the temporal-blocking kernels into the current context now rather
 * than at their first launch. */
cudaError_t heat2d_cuda_tb_load_kernels(void);

/* Plans a pass of depth steps (one of heat2d_cuda_tb_depths) for nx x ny
 * cells of precision on the current device, for alpha and a field whose
 * cells stay within +-bound (max |u0|): a scaled variant runs only where
 * its range holds, its fused twin elsewhere. cudaErrorInvalidValue for a
 * depth there is no variant of. */
cudaError_t heat2d_cuda_tb_plan_pass(heat2d_precision precision, size_t nx, size_t ny,
                                     unsigned depth, double alpha, double bound,
                                     heat2d_cuda_tb_plan *plan);

/* Queues one pass on stream: dst <- plan->depth Jacobi steps of src, every
 * cell of dst written (boundary cells 0), equal to as many calls of
 * heat2d_cuda_step within the original's tolerance (bit for bit for the
 * variants without FMA). src and dst must not overlap. dependent: the pass
 * may be launched programmatically dependent on the kernel before it
 * (false while a graph is being captured). Returns the launch status
 * (cudaGetLastError() after the launch). */
cudaError_t heat2d_cuda_tb_pass(const heat2d_cuda_tb_plan *plan, const void *src, void *dst,
                                size_t nx, size_t ny, bool dependent, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUDA_TB_KERNELS_H */
