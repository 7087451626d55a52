/* The variants of cuda-tb's temporal-blocking kernel (the scheme and its
 * arithmetic: cuda_tb_stream.cuh), which passes run at which depth, how a
 * pass covers the grid, and the C launchers. */
#include <cfloat>
#include <climits>
#include <cmath>
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
    int arith;             /* Arith: kReference, kFused or kScaled */
    const char *unscaled;  /* a scaled variant's twin for where its range does not reach */
    bool dependent;        /* passes launched programmatically dependent */
    const void *kernel[2]; /* by heat2d_precision: HEAT2D_F64, HEAT2D_F32 */
};

#define HEAT2D_TB_VARIANT(name, depth, minb, arith, unscaled, pairs, direct, dep)                  \
    {                                                                                              \
        name, depth, arith, unscaled, dep,                                                         \
        {                                                                                          \
            (const void *)tb_kernel<double, depth, minb, arith, pairs, direct>,                    \
                (const void *)tb_kernel<float, depth, minb, arith, pairs, direct>                  \
        }                                                                                          \
    }

/* The main variants of each precision, their fused twins (of the same
 * depth), the bit-identical one, then the shallower passes for the
 * remainder. Names: depth, r (rotation: the steady rows two a loop trip),
 * thread blocks an SM holds, then the arithmetic (q: the scaled form's four
 * operations, f: two fused multiply-adds, none: the reference's order), s
 * for steady rows without tests, l for their lean copies, p for pairs of
 * steady rows, d for output rows stored from registers (l included), g for
 * passes launched programmatically dependent. The depth and blocks an SM
 * are set by the registers: a variant that spills loses more than depth
 * gains. Measurements: docs/performance.md, "cuda-tb". */
const Variant kVariants[] = {
    HEAT2D_TB_VARIANT("8r4qsd", 8, 4, kScaled, "8r4fsd", false, true, false),
    HEAT2D_TB_VARIANT("9r6qsp", 9, 6, kScaled, "9r6fsp", true, false, false),
    HEAT2D_TB_VARIANT("8r4qsdg", 8, 4, kScaled, "8r4fsd", false, true, true),
    HEAT2D_TB_VARIANT("9r6qspg", 9, 6, kScaled, "9r6fsp", true, false, true),
    HEAT2D_TB_VARIANT("7r6qspg", 7, 6, kScaled, "7r6fspg", true, false, true),
    HEAT2D_TB_VARIANT("8r4fsd", 8, 4, kFused, nullptr, false, true, false),
    HEAT2D_TB_VARIANT("9r6fsp", 9, 6, kFused, nullptr, true, false, false),
    HEAT2D_TB_VARIANT("7r6fspg", 7, 6, kFused, nullptr, true, false, true),
    HEAT2D_TB_VARIANT("8r4sl", 8, 4, kReference, nullptr, false, false, false),
    HEAT2D_TB_VARIANT("4r4sl", 4, 4, kReference, nullptr, false, false, false),
    HEAT2D_TB_VARIANT("2r4sl", 2, 4, kReference, nullptr, false, false, false),
};
constexpr int kVariantCount = (int)(sizeof kVariants / sizeof kVariants[0]);

/* The main variant of a precision by the grid's size: the first entry of
 * the precision whose cells reach up to the grid's, the fastest measured
 * there (docs/performance.md, "cuda-tb"). */
struct Choice {
    heat2d_precision precision;
    long long max_cells;
    const char *variant;
};
const Choice kChoices[] = {
    {HEAT2D_F64, 2048LL * 2048, "8r4qsdg"}, {HEAT2D_F64, LLONG_MAX, "8r4qsd"},
    {HEAT2D_F32, 2048LL * 2048, "7r6qspg"}, {HEAT2D_F32, 4096LL * 4096, "9r6qspg"},
    {HEAT2D_F32, LLONG_MAX, "9r6qsp"},
};

int find_variant(const char *name)
{
    for (int k = 0; name != nullptr && k < kVariantCount; ++k)
        if (strcmp(kVariants[k].name, name) == 0)
            return k;
    return -1;
}

/* The variant that runs passes of a depth: the main one from
 * HEAT2D_CUDA_TB_VARIANT (a tuning knob), else the size's choice, or the
 * first of that depth. */
int main_variant(heat2d_precision precision, size_t nx, size_t ny)
{
    const char *name = getenv("HEAT2D_CUDA_TB_VARIANT");
    const int chosen = name != nullptr ? find_variant(name) : -1;
    return chosen >= 0 ? chosen : find_variant(heat2d_cuda_tb_choice(precision, nx, ny));
}

int variant_for(heat2d_precision precision, size_t nx, size_t ny, unsigned depth)
{
    const int main = main_variant(precision, nx, ny);
    if (main >= 0 && kVariants[main].depth == depth)
        return main;
    for (int k = 0; k < kVariantCount; ++k)
        if (kVariants[k].depth == depth)
            return k;
    return -1;
}

} // namespace

/* Level t carries u / alpha^t, which the scheme keeps within bound /
 * alpha^t (a level's terms add up to at most 1/alpha times the last
 * level's largest), and the stored rows are multiplied by alpha^T, which
 * must be a normal number; 2^10 of headroom below the largest value. */
extern "C" bool heat2d_cuda_tb_scaled_in_range(heat2d_precision precision, unsigned depth,
                                               double alpha, double bound)
{
    const bool f32 = precision == HEAT2D_F32;
    const double largest = f32 ? (double)FLT_MAX : DBL_MAX;
    const double smallest = f32 ? (double)FLT_MIN : DBL_MIN;
    const double power = std::pow(alpha, (double)depth);
    return alpha > 0.0 && power >= smallest && bound <= largest / 1024.0 * power;
}

extern "C" const char *heat2d_cuda_tb_choice(heat2d_precision precision, size_t nx, size_t ny)
{
    const long long cells =
        nx > (size_t)LLONG_MAX / (ny > 0 ? ny : 1) ? LLONG_MAX : (long long)(nx * ny);
    for (const Choice &c : kChoices)
        if (c.precision == precision && cells <= c.max_cells)
            return c.variant;
    return nullptr;
}

extern "C" unsigned heat2d_cuda_tb_variant_depth(const char *name)
{
    const int k = find_variant(name);
    return k >= 0 ? kVariants[k].depth : 0;
}

extern "C" unsigned heat2d_cuda_tb_depths(heat2d_precision precision, size_t nx, size_t ny,
                                          unsigned *depths, unsigned capacity)
{
    /* Descending: the main depth, then 4 and 2 for the remainder. */
    const int main = main_variant(precision, nx, ny);
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
                                                unsigned depth, double alpha, double bound,
                                                heat2d_cuda_tb_plan *plan)
{
    int variant = variant_for(precision, nx, ny, depth);
    if (variant >= 0 && kVariants[variant].arith == kScaled &&
        !heat2d_cuda_tb_scaled_in_range(precision, depth, alpha, bound))
        variant = find_variant(kVariants[variant].unscaled);
    if (variant < 0 || kVariants[variant].depth != depth || plan == nullptr || nx == 0 || ny == 0 ||
        nx > (size_t)LLONG_MAX / 16 || ny > (size_t)LLONG_MAX / 16)
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
    /* Dependent launches where the device has them (compute capability 9.0
     * on); elsewhere the kernel's wait is nothing, and so is the attribute. */
    int major = 0;
    rc = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (rc != cudaSuccess)
        return rc;
    plan->dependent = kVariants[variant].dependent && major >= 9;
    /* Scaled: 3 adds and 1 fused multiply-add; fused: 3 adds and 2; the
     * reference's 7 otherwise. */
    const int arith = kVariants[variant].arith;
    plan->fp_ops = arith == kScaled ? 4 : arith == kFused ? 5 : 7;
    plan->coef = arith == kScaled ? (1.0 - 4.0 * alpha) / alpha : alpha;
    plan->scale = arith == kScaled ? std::pow(alpha, (double)depth) : 1.0;
    return cudaSuccess;
}

extern "C" cudaError_t heat2d_cuda_tb_pass(const heat2d_cuda_tb_plan *plan, const void *src,
                                           void *dst, size_t nx, size_t ny, bool dependent,
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
    /* The kernel's constants are of its precision: rounded to float once,
     * here. */
    const bool f32 = plan->precision == HEAT2D_F32;
    double coef = plan->coef;
    double scale = plan->scale;
    float coef32 = (float)coef;
    float scale32 = (float)scale;
    void *args[] = {&src,
                    &dst,
                    &lx,
                    &ly,
                    f32 ? (void *)&coef32 : (void *)&coef,
                    f32 ? (void *)&scale32 : (void *)&scale,
                    &strips,
                    &seg_rows,
                    &items};
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(plan->blocks);
    config.blockDim = dim3(kThreads);
    config.stream = stream;
    cudaLaunchAttribute attribute = {};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    if (dependent && plan->dependent) {
        config.attrs = &attribute;
        config.numAttrs = 1;
    }
    const cudaError_t rc =
        cudaLaunchKernelExC(&config, kVariants[plan->variant].kernel[f32 ? 1 : 0], args);
    const cudaError_t last = cudaGetLastError();
    return rc != cudaSuccess ? rc : last;
}
