/* mpi-cuda's column moves of the halo exchange: packing a column of a rank's
 * block into a contiguous buffer, unpacking one into a halo column, and
 * zeroing a column of the global boundary. The update itself is the
 * single-GPU step kernel over a rectangle (heat2d_cuda_step_rectangle in
 * cuda_kernels.cu), so that one kernel serves both methods.
 */
#include <climits>

#include "mpi_cuda_kernels.h"

namespace
{

constexpr unsigned kThreads1d = 256;

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
    cudaError_t rc = cudaFuncGetAttributes(&attributes, pack_column_kernel<Real>);
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
