/* mpi-cuda's kernels: the step over a rectangle of a rank's block, and the
 * column moves of the halo exchange.
 *
 * The update is a plain one-cell-per-thread kernel: a rank's block is a
 * fraction of the grid, and the point of this method is the halo traffic,
 * not the last percent of the single-GPU kernel (cuda-resident's). The
 * expression is the SPEC's, ((((uW + uE) + uS) + uN) - 4u), built with
 * --fmad=false, so every cell is bit-identical to cpu's.
 */
#include <climits>

#include "mpi_cuda_kernels.h"

namespace
{

constexpr unsigned kBlockX = 128;
constexpr unsigned kBlockY = 2;
constexpr unsigned kThreads1d = 256;
constexpr size_t kMaxGridY = 65535; /* CUDA's limit on gridDim.y */

template <typename Real>
__global__ void __launch_bounds__(kBlockX *kBlockY)
    update_kernel(const Real *__restrict__ u, Real *__restrict__ v, size_t stride, size_t i0,
                  size_t i1, size_t j0, size_t j1, Real alpha)
{
    const size_t i = i0 + (size_t)blockIdx.x * kBlockX + threadIdx.x;
    if (i >= i1)
        return;
    /* Grid-stride over rows: gridDim.y is capped at 65535. */
    for (size_t j = j0 + (size_t)blockIdx.y * kBlockY + threadIdx.y; j < j1;
         j += (size_t)gridDim.y * kBlockY) {
        const size_t c = j * stride + i;
        const Real centre = u[c];
        v[c] = centre +
               alpha * (u[c - 1] + u[c + 1] + u[c - stride] + u[c + stride] - Real(4) * centre);
    }
}

template <typename Real>
__global__ void pack_column_kernel(const Real *__restrict__ src, size_t stride, size_t count,
                                   Real *__restrict__ dst)
{
    const size_t k = (size_t)blockIdx.x * kThreads1d + threadIdx.x;
    if (k < count)
        dst[k] = src[k * stride];
}

template <typename Real>
__global__ void unpack_column_kernel(const Real *__restrict__ src, Real *__restrict__ dst,
                                     size_t stride, size_t count)
{
    const size_t k = (size_t)blockIdx.x * kThreads1d + threadIdx.x;
    if (k < count)
        dst[k * stride] = src[k];
}

template <typename Real> __global__ void zero_column_kernel(Real *dst, size_t stride, size_t count)
{
    const size_t k = (size_t)blockIdx.x * kThreads1d + threadIdx.x;
    if (k < count)
        dst[k * stride] = Real(0);
}

/* Launches a column kernel over count cells (nothing for none): one thread
 * a cell, kThreads1d a block. */
template <typename Kernel, typename... Args>
cudaError_t launch_column(Kernel kernel, size_t count, cudaStream_t stream, Args... args)
{
    if (count == 0)
        return cudaSuccess;
    const size_t blocks = (count + kThreads1d - 1) / kThreads1d;
    if (blocks > (size_t)INT_MAX)
        return cudaErrorInvalidConfiguration;
    kernel<<<(unsigned)blocks, kThreads1d, 0, stream>>>(args...);
    return cudaGetLastError();
}

/* Calls launch(Real()) with Real the cell type of precision. */
template <typename Launch> cudaError_t by_precision(heat2d_precision precision, Launch launch)
{
    return precision == HEAT2D_F32 ? launch(float()) : launch(double());
}

} // namespace

extern "C" cudaError_t heat2d_mpi_cuda_update(heat2d_precision precision, const void *u, void *v,
                                              size_t stride, size_t i0, size_t i1, size_t j0,
                                              size_t j1, double alpha, cudaStream_t stream)
{
    if (i0 >= i1 || j0 >= j1)
        return cudaSuccess;
    const size_t grid_x = (i1 - i0 + kBlockX - 1) / kBlockX;
    size_t grid_y = (j1 - j0 + kBlockY - 1) / kBlockY;
    if (grid_x > (size_t)INT_MAX)
        return cudaErrorInvalidConfiguration;
    if (grid_y > kMaxGridY)
        grid_y = kMaxGridY;
    const dim3 grid((unsigned)grid_x, (unsigned)grid_y), block(kBlockX, kBlockY);
    return by_precision(precision, [&](auto zero) {
        using Real = decltype(zero);
        update_kernel<<<grid, block, 0, stream>>>(static_cast<const Real *>(u),
                                                  static_cast<Real *>(v), stride, i0, i1, j0, j1,
                                                  static_cast<Real>(alpha));
        return cudaGetLastError();
    });
}

extern "C" cudaError_t heat2d_mpi_cuda_pack_column(heat2d_precision precision, const void *src,
                                                   size_t stride, size_t count, void *dst,
                                                   cudaStream_t stream)
{
    return by_precision(precision, [&](auto zero) {
        using Real = decltype(zero);
        return launch_column(pack_column_kernel<Real>, count, stream,
                             static_cast<const Real *>(src), stride, count,
                             static_cast<Real *>(dst));
    });
}

extern "C" cudaError_t heat2d_mpi_cuda_unpack_column(heat2d_precision precision, const void *src,
                                                     void *dst, size_t stride, size_t count,
                                                     cudaStream_t stream)
{
    return by_precision(precision, [&](auto zero) {
        using Real = decltype(zero);
        return launch_column(unpack_column_kernel<Real>, count, stream,
                             static_cast<const Real *>(src), static_cast<Real *>(dst), stride,
                             count);
    });
}

extern "C" cudaError_t heat2d_mpi_cuda_zero_column(heat2d_precision precision, void *dst,
                                                   size_t stride, size_t count, cudaStream_t stream)
{
    return by_precision(precision, [&](auto zero) {
        using Real = decltype(zero);
        return launch_column(zero_column_kernel<Real>, count, stream, static_cast<Real *>(dst),
                             stride, count);
    });
}

template <typename Real> cudaError_t load()
{
    cudaFuncAttributes attributes;
    cudaError_t rc = cudaFuncGetAttributes(&attributes, update_kernel<Real>);
    if (rc == cudaSuccess)
        rc = cudaFuncGetAttributes(&attributes, pack_column_kernel<Real>);
    if (rc == cudaSuccess)
        rc = cudaFuncGetAttributes(&attributes, unpack_column_kernel<Real>);
    if (rc == cudaSuccess)
        rc = cudaFuncGetAttributes(&attributes, zero_column_kernel<Real>);
    return rc;
}

extern "C" cudaError_t heat2d_mpi_cuda_load_kernels(void)
{
    const cudaError_t rc = load<double>();
    return rc != cudaSuccess ? rc : load<float>();
}
