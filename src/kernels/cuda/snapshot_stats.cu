/* A snapshot's invariants on the device: sum, least and greatest value, the
 * non-finite cells and the first of them, fused with the copy into the
 * snapshot buffer. Two launches: a fixed number of blocks, each reducing its
 * cells in a fixed order to a partial, then one block reducing the partials
 * in a fixed order, so the same field gives the same sum every time (an
 * atomic sum would not). The pass is bound by memory: one read (and one
 * write, with the copy) of the field. */
#include <climits>
#include <cmath>

#include "snapshot_stats.h"

namespace
{

constexpr unsigned kThreads = 256;
constexpr unsigned kBlocks = 1024; /* about eight a multiprocessor on the GPUs this runs on */
constexpr unsigned kUnroll = 4;    /* loads in flight a thread before the first is used */

struct Partial {
    double sum, lo, hi;
    unsigned long long nonfinite, first;
};

__device__ __forceinline__ Partial empty()
{
    return Partial{0.0, INFINITY, -INFINITY, 0ull, ULLONG_MAX};
}

/* b's cells all follow a's, or b is another thread's: the first non-finite
 * cell is the least index either saw. */
__device__ __forceinline__ Partial merge(Partial a, const Partial &b)
{
    a.sum += b.sum;
    a.lo = b.lo < a.lo ? b.lo : a.lo;
    a.hi = b.hi > a.hi ? b.hi : a.hi;
    a.nonfinite += b.nonfinite;
    a.first = b.first < a.first ? b.first : a.first;
    return a;
}

__device__ __forceinline__ void add(Partial &p, double x, unsigned long long k)
{
    p.sum += x;
    p.lo = x < p.lo ? x : p.lo;
    p.hi = x > p.hi ? x : p.hi;
    if (!isfinite(x)) {
        p.nonfinite++;
        p.first = k < p.first ? k : p.first;
    }
}

__device__ __forceinline__ Partial shuffle_down(const Partial &p, unsigned offset)
{
    Partial q;
    q.sum = __shfl_down_sync(0xffffffffu, p.sum, offset);
    q.lo = __shfl_down_sync(0xffffffffu, p.lo, offset);
    q.hi = __shfl_down_sync(0xffffffffu, p.hi, offset);
    q.nonfinite = __shfl_down_sync(0xffffffffu, p.nonfinite, offset);
    q.first = __shfl_down_sync(0xffffffffu, p.first, offset);
    return q;
}

/* The block's partials into thread 0's, in a fixed tree. */
__device__ Partial reduce_block(Partial p)
{
    __shared__ Partial warps[kThreads / 32];
    for (unsigned offset = 16; offset > 0; offset /= 2)
        p = merge(p, shuffle_down(p, offset));
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warps[warp] = p;
    __syncthreads();
    if (threadIdx.x == 0)
        for (unsigned w = 1; w < kThreads / 32; ++w)
            p = merge(p, warps[w]);
    return p;
}

template <typename Real>
__global__ void __launch_bounds__(kThreads)
    partial_kernel(const Real *__restrict__ field, Real *__restrict__ copy, size_t n,
                   Partial *__restrict__ partials)
{
    const size_t stride = (size_t)kBlocks * kThreads;
    size_t k = (size_t)blockIdx.x * kThreads + threadIdx.x;
    Partial p = empty();
    for (; k + (kUnroll - 1) * stride < n; k += kUnroll * stride) {
        Real x[kUnroll];
#pragma unroll
        for (unsigned r = 0; r < kUnroll; ++r)
            x[r] = field[k + r * stride];
#pragma unroll
        for (unsigned r = 0; r < kUnroll; ++r) {
            if (copy != nullptr)
                copy[k + r * stride] = x[r];
            add(p, (double)x[r], k + r * stride);
        }
    }
    for (; k < n; k += stride) {
        const Real x = field[k];
        if (copy != nullptr)
            copy[k] = x;
        add(p, (double)x, k);
    }
    p = reduce_block(p);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = p;
}

/* One block of kThreads: each thread merges kBlocks / kThreads partials in
 * order, then the block's tree. */
__global__ void __launch_bounds__(kThreads)
    final_kernel(const Partial *__restrict__ partials, heat2d_cuda_stats *__restrict__ result)
{
    constexpr unsigned kEach = kBlocks / kThreads;
    Partial p = empty();
    for (unsigned q = 0; q < kEach; ++q)
        p = merge(p, partials[threadIdx.x * kEach + q]);
    p = reduce_block(p);
    if (threadIdx.x == 0)
        *result = heat2d_cuda_stats{p.sum, p.lo, p.hi, p.nonfinite, p.first};
}

static_assert(kBlocks % kThreads == 0, "the final block takes the partials in equal shares");

template <typename Real>
cudaError_t launch(const void *field, void *copy, size_t n, void *scratch,
                   heat2d_cuda_stats *result, cudaStream_t stream)
{
    Partial *partials = static_cast<Partial *>(scratch);
    partial_kernel<Real><<<kBlocks, kThreads, 0, stream>>>(static_cast<const Real *>(field),
                                                           static_cast<Real *>(copy), n, partials);
    cudaError_t rc = cudaGetLastError();
    if (rc != cudaSuccess)
        return rc;
    final_kernel<<<1, kThreads, 0, stream>>>(partials, result);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t heat2d_cuda_stats_scratch_bytes(void)
{
    return kBlocks * sizeof(Partial);
}

extern "C" cudaError_t heat2d_cuda_snapshot_stats(heat2d_precision precision, const void *field,
                                                  void *copy, size_t n, void *scratch,
                                                  heat2d_cuda_stats *result, cudaStream_t stream)
{
    if (precision == HEAT2D_F32)
        return launch<float>(field, copy, n, scratch, result, stream);
    return launch<double>(field, copy, n, scratch, result, stream);
}

extern "C" heat2d_field_stats heat2d_cuda_stats_field(const heat2d_cuda_stats *s)
{
    heat2d_field_stats out;
    out.sum = s->sum;
    out.lo = s->lo;
    out.hi = s->hi;
    out.nonfinite = s->nonfinite;
    out.first_nonfinite = s->nonfinite > 0 ? (size_t)s->first_nonfinite : SIZE_MAX;
    return out;
}

extern "C" cudaError_t heat2d_cuda_load_stats_kernels(void)
{
    cudaFuncAttributes attributes;
    cudaError_t rc = cudaFuncGetAttributes(&attributes, partial_kernel<double>);
    if (rc == cudaSuccess)
        rc = cudaFuncGetAttributes(&attributes, partial_kernel<float>);
    return rc != cudaSuccess ? rc : cudaFuncGetAttributes(&attributes, final_kernel);
}
