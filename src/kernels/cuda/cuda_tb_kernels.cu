/* The variants of cuda-tb's temporal-blocking kernel (the scheme and its
 * arithmetic: cuda_tb_stream.cuh), which passes run at which depth, how a
 * pass covers the grid, and the C launchers. */
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda_tb_kernels.h"
#include "cuda_tb_stream.cuh"

namespace
{

using namespace heat2d_tb;

/* A variant in both precisions: the same scheme, its state in double or in
 * float (half the registers; the depth and warps kept, so that one variant
 * table serves both). */
struct Variant {
    const char *name;
    unsigned depth;
    bool fma;
    const void *kernel[2]; /* by heat2d_precision: HEAT2D_F64, HEAT2D_F32 */
};

#define HEAT2D_TB_VARIANT(name, depth, minb, fma, pairs, direct)                                   \
    {                                                                                              \
        name, depth, fma,                                                                          \
        {                                                                                          \
            (const void *)tb_kernel<double, depth, minb, fma, pairs, direct>,                      \
                (const void *)tb_kernel<float, depth, minb, fma, pairs, direct>                    \
        }                                                                                          \
    }

/* The main variant of each precision, the bit-identical one, then the
 * shallower passes for the remainder. Names: depth, r (rotation: the steady
 * rows two a trip), thread blocks an SM holds, f for FMA, s for steady rows
 * without tests, l for their lean copies, p for pairs of steady rows, d
 * for output rows stored from registers (l included). A variant that
 * spills loses more than depth gains: 8r4fsd keeps its 238 registers at 8
 * warps an SM, where the 12-warp variants of depth 6 and more spill at
 * their 168. 9r6fsp is f32's (its state is half as large). Measurements:
 * docs/performance.md, "cuda-tb". */
const Variant kVariants[] = {
    HEAT2D_TB_VARIANT("8r4fsd", 8, 4, true, false, true),
    HEAT2D_TB_VARIANT("9r6fsp", 9, 6, true, true, false),
    HEAT2D_TB_VARIANT("8r4sl", 8, 4, false, false, false),
    HEAT2D_TB_VARIANT("4r4sl", 4, 4, false, false, false),
    HEAT2D_TB_VARIANT("2r4sl", 2, 4, false, false, false),
};
constexpr int kVariantCount = (int)(sizeof kVariants / sizeof kVariants[0]);

/* The main variant of each precision (by heat2d_precision: HEAT2D_F64,
 * HEAT2D_F32), the fastest measured. */
const char *const kMainVariant[2] = {"8r4fsd", "9r6fsp"};

int find_variant(const char *name)
{
    for (int k = 0; k < kVariantCount; ++k)
        if (strcmp(kVariants[k].name, name) == 0)
            return k;
    return -1;
}

/* The variant that runs passes of a depth: the main one from
 * HEAT2D_CUDA_TB_VARIANT (a tuning knob), else the precision's, or the
 * first of that depth. */
int main_variant(heat2d_precision precision)
{
    const char *name = getenv("HEAT2D_CUDA_TB_VARIANT");
    const int chosen = name != nullptr ? find_variant(name) : -1;
    return chosen >= 0 ? chosen : find_variant(kMainVariant[precision == HEAT2D_F32 ? 1 : 0]);
}

int variant_for(heat2d_precision precision, unsigned depth)
{
    const int main = main_variant(precision);
    if (main >= 0 && kVariants[main].depth == depth)
        return main;
    for (int k = 0; k < kVariantCount; ++k)
        if (kVariants[k].depth == depth)
            return k;
    return -1;
}

} // namespace

extern "C" unsigned heat2d_cuda_tb_depths(heat2d_precision precision, unsigned *depths,
                                          unsigned capacity)
{
    /* Descending: the main depth, then 4 and 2 for the remainder. */
    const int main = main_variant(precision);
    const unsigned wanted[] = {main >= 0 ? kVariants[main].depth : 4, 4, 2};
    unsigned n = 0;
    for (unsigned d : wanted)
        if (n < capacity && (n == 0 || d < depths[n - 1]))
            depths[n++] = d;
    return n;
}

extern "C" bool heat2d_cuda_tb_variant_known(const char *name, char *names, size_t size)
{
    size_t used = 0;
    if (size > 0)
        names[0] = '\0';
    for (int k = 0; k < kVariantCount; ++k) {
        const int n = snprintf(names + used, used < size ? size - used : 0, "%s%s",
                               k > 0 ? ", " : "", kVariants[k].name);
        used += n > 0 ? (size_t)n : 0;
    }
    return find_variant(name) >= 0;
}

extern "C" cudaError_t heat2d_cuda_tb_load_kernels(void)
{
    for (int k = 0; k < kVariantCount; ++k)
        for (const void *kernel : kVariants[k].kernel) {
            cudaFuncAttributes attributes;
            const cudaError_t rc = cudaFuncGetAttributes(&attributes, kernel);
            if (rc != cudaSuccess)
                return rc;
        }
    return cudaSuccess;
}

extern "C" cudaError_t heat2d_cuda_tb_plan_pass(heat2d_precision precision, size_t nx, size_t ny,
                                                unsigned depth, heat2d_cuda_tb_plan *plan)
{
    const int variant = variant_for(precision, depth);
    if (variant < 0 || plan == nullptr || nx == 0 || ny == 0 || nx > (size_t)LLONG_MAX / 16 ||
        ny > (size_t)LLONG_MAX / 16)
        return cudaErrorInvalidValue;
    const void *kernel = kVariants[variant].kernel[precision == HEAT2D_F32 ? 1 : 0];
    int device = 0;
    int sms = 0;
    int per_sm = 0;
    cudaError_t rc = cudaGetDevice(&device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (rc == cudaSuccess)
        rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0);
    if (rc != cudaSuccess)
        return rc;
    if (sms <= 0 || per_sm <= 0)
        return cudaErrorInvalidConfiguration;

    const long long width = kStripCols - 2 * (long long)depth; /* output columns per strip */
    const long long rows = (long long)ny;
    const long long strips = ((long long)nx + width - 1) / width;
    const long long resident = (long long)per_sm * sms * kWarpsPerBlock;
    /* Cut the rows into segments so that the waves of warps are full: the
     * time of a pass goes as (waves) x (rows a warp streams, its own plus
     * 2*depth of halo). Past a few waves more segments only add halo. */
    long long max_segs = 8 * ((resident + strips - 1) / strips);
    if (max_segs > rows)
        max_segs = rows;
    const long long min_segs = (rows + kMaxSegRows - 1) / kMaxSegRows;
    if (max_segs < min_segs)
        max_segs = min_segs;
    long long best_segs = min_segs;
    long long best_cost = LLONG_MAX;
    for (long long segs = min_segs; segs <= max_segs; ++segs) {
        const long long seg_rows = (rows + segs - 1) / segs;
        if ((segs - 1) * seg_rows >= rows)
            continue; /* an empty last segment: the same cut as fewer segments */
        const long long waves = (strips * segs + resident - 1) / resident;
        const long long cost = waves * (seg_rows + 2 * (long long)depth);
        if (cost < best_cost) {
            best_cost = cost;
            best_segs = segs;
        }
    }
    const long long seg_rows = (rows + best_segs - 1) / best_segs;
    const long long segs = (rows + seg_rows - 1) / seg_rows;
    const long long items = strips * segs;
    const long long blocks = (items + kWarpsPerBlock - 1) / kWarpsPerBlock;
    if (blocks > INT_MAX)
        return cudaErrorInvalidConfiguration;
    plan->precision = precision;
    plan->depth = depth;
    plan->variant = variant;
    plan->blocks = (unsigned)blocks;
    plan->strips = strips;
    plan->seg_rows = seg_rows;
    plan->items = items;
    plan->resident = resident;
    /* With FMA, 3 adds and 2 fused multiply-adds; else the reference's 7. */
    plan->fp_ops = kVariants[variant].fma ? 5 : 7;
    return cudaSuccess;
}

extern "C" cudaError_t heat2d_cuda_tb_pass(const heat2d_cuda_tb_plan *plan, const void *src,
                                           void *dst, size_t nx, size_t ny, double alpha,
                                           cudaStream_t stream)
{
    if (plan == nullptr || plan->variant < 0 || plan->variant >= kVariantCount ||
        plan->blocks == 0 || plan->strips <= 0 || plan->seg_rows <= 0)
        return cudaErrorInvalidValue;
    long long lx = (long long)nx;
    long long ly = (long long)ny;
    long long strips = plan->strips;
    long long seg_rows = plan->seg_rows;
    long long items = plan->items;
    /* The kernel's alpha is of its precision: rounded to float once, here. */
    const bool f32 = plan->precision == HEAT2D_F32;
    float alpha32 = (float)alpha;
    void *args[] = {&src,    &dst,      &lx,   &ly, f32 ? (void *)&alpha32 : (void *)&alpha,
                    &strips, &seg_rows, &items};
    const cudaError_t rc = cudaLaunchKernel(kVariants[plan->variant].kernel[f32 ? 1 : 0],
                                            dim3(plan->blocks), dim3(kThreads), args, 0, stream);
    const cudaError_t last = cudaGetLastError();
    return rc != cudaSuccess ? rc : last;
}
