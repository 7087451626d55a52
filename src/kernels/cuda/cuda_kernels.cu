/* The step kernel.
 *
 * Bandwidth is the whole game: a step reads u and writes v once, 16 bytes a
 * cell in fp64, so the best a single-step kernel can do is the device's copy
 * bandwidth over 16. Each thread walks kRows consecutive rows down one column,
 * keeping the S, centre and N values in registers as it goes, so a cell costs
 * three loads instead of five (the W and E loads hit L1, they belong to the
 * neighbouring threads of the same warp). The block shape and row count are
 * the fastest of the shapes swept; W and E by warp shuffle, more or fewer
 * rows and evict-first stores were slower or no better.
 * Measurements: docs/performance.md, "cuda-resident".
 *
 * Arithmetic: the build passes --fmad=false, and the expression below keeps
 * the SPEC's left-to-right order, ((((uW + uE) + uS) + uN) - 4u), so every
 * cell is bit-identical to the cpu method.
 */
#include <climits>

#include "cuda_kernels.h"

namespace
{

constexpr unsigned kBlockX = 128; /* threads along i: coalesced rows of 1 KiB */
constexpr unsigned kBlockY = 2;
constexpr unsigned kRows = 8;       /* rows each thread computes */
constexpr size_t kMaxGridY = 65535; /* CUDA's limit on gridDim.y */

/* Programmatic dependent launch (Hopper and later): launched with the
 * programmatic-serialisation attribute (launch_whole below), the next
 * step's kernel is scheduled while this one's last blocks still run, once
 * every block of this one has started, and waits here, before its first
 * load, until this one has finished and its stores are visible. So the gap
 * between two steps' kernels (launch, and the ramp of the first wave of
 * blocks) overlaps the tail of the previous step. Both instructions do
 * nothing in a kernel launched the ordinary way. */
__device__ __forceinline__ void wait_for_previous_step()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
#endif
}

/* Which cells a launch updates. kWhole: the whole grid, rows 0..ny-1 (the
 * range arguments are ignored, so the compiler drops them and this
 * instantiation is the kernel the sweep measured). kRows: rows
 * j_begin..j_end-1 of v, reading u rows j_begin-1..j_end (clipped to the
 * grid): cuda-overlap computes a step chunk by chunk while other chunks of u
 * are still being uploaded. kRectangle: cells [i_begin,i_end) x
 * [j_begin,j_end) of arrays of rows of stride cells, every one of them with
 * its four neighbours in the arrays and none on the boundary: mpi-cuda's
 * rank blocks, whose halos hold the neighbours' cells. The arithmetic is the
 * same expression in all three. */
enum class Region { kWhole, kRows, kRectangle };

template <typename Real, Region kRegion>
__global__ void __launch_bounds__(kBlockX *kBlockY)
    step_kernel(const Real *__restrict__ u, Real *__restrict__ v, size_t nx, size_t ny,
                size_t stride, size_t i_begin, size_t i_end, size_t j_begin, size_t j_end,
                Real alpha)
{
    constexpr bool kInside = kRegion == Region::kRectangle; /* no boundary, no array end */
    const size_t pitch = kInside ? stride : nx;
    const size_t i_first = kInside ? i_begin : 0;
    const size_t i_last = kInside ? i_end : nx; /* one past */
    /* Threads past the last column stay (clamped onto it, storing nothing)
     * rather than return: the same body after an early return measured
     * slower (docs/performance.md, "cuda-resident"). */
    const size_t i_thread = i_first + (size_t)blockIdx.x * kBlockX + threadIdx.x;
    const bool active = i_thread < i_last;
    const size_t i = active ? i_thread : i_last - 1;
    const size_t first = kRegion == Region::kWhole ? 0 : j_begin;
    const size_t last = kRegion == Region::kWhole ? ny : j_end; /* one past */
    const bool edge_column = !kInside && (i == 0 || i == nx - 1);
    wait_for_previous_step();
    /* Grid-stride over bands of rows: gridDim.y is capped at 65535, which
     * would otherwise limit ny to 65535 * kBlockY * kRows. */
    const size_t band = (size_t)gridDim.y * kBlockY * kRows;
    for (size_t j0 = first + ((size_t)blockIdx.y * kBlockY + threadIdx.y) * kRows; j0 < last;
         j0 += band) {
        size_t c = j0 * pitch + i; /* size_t throughout: 16384^2 and beyond exceed 2^31 */
        Real south = kInside || j0 > 0 ? __ldg(u + c - pitch) : Real(0);
        Real centre = __ldg(u + c);
#pragma unroll
        for (unsigned r = 0; r < kRows; ++r) {
            const size_t j = j0 + r;
            if (j >= last)
                break;
            const Real north = kInside || j + 1 < ny ? __ldg(u + c + pitch) : Real(0);
            /* W and E loaded whatever the row, predicated only on staying
             * inside the array: loads under the interior test cannot be
             * hoisted across the unrolled rows. */
            const Real west = kInside || i > 0 ? __ldg(u + c - 1) : Real(0);
            const Real east = kInside || i + 1 < nx ? __ldg(u + c + 1) : Real(0);
            Real out = Real(0);
            if (kInside || (!edge_column && j != 0 && j != ny - 1))
                out = centre + alpha * (west + east + south + north - Real(4) * centre);
            if (active)
                v[c] = out;
            south = centre;
            centre = north;
            c += pitch;
        }
    }
}

/* fp32, kWidth cells a thread, read and written as one float2 or float4.
 *
 * Two cells (nx even): a warp moves 256 bytes a row as in fp64, where one
 * float a thread moves 128 and stays well under the copy bandwidth. Four
 * cells (nx a multiple of 4), each thread down kQuadRows rows: the fastest
 * of the vector widths, row counts and block shapes measured.
 * Measurements: docs/performance.md, "cuda-resident".
 *
 * W of the first cell and E of the last are the neighbouring vectors'
 * cells, loaded singly (L1 hits). Same order of operations as step_kernel,
 * so the same bits. nx a multiple of kWidth keeps every row's vectors
 * aligned; odd nx takes step_kernel<float>. */
constexpr unsigned kQuadRows = 4;

template <unsigned kWidth> struct FloatCells;
template <> struct FloatCells<2> {
    using Vector = float2;
};
template <> struct FloatCells<4> {
    using Vector = float4;
};

/* kWhole or kRows (a rank's block may start at any column, so it takes the
 * step kernel in float); the column range is ignored, taken only so that
 * every kernel here launches with one list of arguments. */
template <Region kRegion, unsigned kWidth, unsigned kRowsPerThread>
__global__ void __launch_bounds__(kBlockX *kBlockY)
    vector_kernel(const float *__restrict__ u, float *__restrict__ v, size_t nx, size_t ny, size_t,
                  size_t, size_t, size_t j_begin, size_t j_end, float alpha)
{
    static_assert(kRegion != Region::kRectangle, "a rectangle takes step_kernel<float>");
    using Vector = typename FloatCells<kWidth>::Vector;
    /* the first of the thread's cells */
    const size_t i = kWidth * ((size_t)blockIdx.x * kBlockX + threadIdx.x);
    if (i >= nx)
        return;
    wait_for_previous_step();
    const size_t first = kRegion == Region::kRows ? j_begin : 0;
    const size_t last = kRegion == Region::kRows ? j_end : ny;
    const bool west_edge = i == 0;           /* the first cell is boundary */
    const bool east_edge = i + kWidth == nx; /* the last cell is boundary */
    const Vector zero = {};
    const size_t band = (size_t)gridDim.y * kBlockY * kRowsPerThread;
    for (size_t j0 = first + ((size_t)blockIdx.y * kBlockY + threadIdx.y) * kRowsPerThread;
         j0 < last; j0 += band) {
        size_t c = j0 * nx + i;
        Vector south = j0 > 0 ? __ldg(reinterpret_cast<const Vector *>(u + c - nx)) : zero;
        Vector centre = __ldg(reinterpret_cast<const Vector *>(u + c));
#pragma unroll
        for (unsigned r = 0; r < kRowsPerThread; ++r) {
            const size_t j = j0 + r;
            if (j >= last)
                break;
            const Vector north =
                j + 1 < ny ? __ldg(reinterpret_cast<const Vector *>(u + c + nx)) : zero;
            /* Unconditional but for the array's ends, as in step_kernel. */
            const float west = west_edge ? 0.0f : __ldg(u + c - 1);
            const float east = east_edge ? 0.0f : __ldg(u + c + kWidth);
            /* The vectors' cells by index: the loop below is unrolled, so
             * they stay in registers (the PTX is that of a kernel written out
             * with .x, .y, .z, .w, but for the order of addends). */
            const float *s = reinterpret_cast<const float *>(&south);
            const float *m = reinterpret_cast<const float *>(&centre);
            const float *n = reinterpret_cast<const float *>(&north);
            Vector out = zero;
            float *o = reinterpret_cast<float *>(&out);
            if (j != 0 && j != ny - 1) {
#pragma unroll
                for (unsigned k = 0; k < kWidth; ++k) {
                    if ((k == 0 && west_edge) || (k + 1 == kWidth && east_edge))
                        continue;
                    const float w = k == 0 ? west : m[k - 1];
                    const float e = k + 1 == kWidth ? east : m[k + 1];
                    o[k] = m[k] + alpha * (w + e + s[k] + n[k] - 4.0f * m[k]);
                }
            }
            *reinterpret_cast<Vector *>(v + c) = out;
            south = centre;
            centre = north;
            c += nx;
        }
    }
}

/* The grid of blocks for nx columns and rows rows, gridDim.y capped at
 * CUDA's limit (the kernel loops over the rest); false when gridDim.x would
 * overflow, which no grid that fits in memory reaches. */
/* Programmatic dependent launch exists from compute capability 9.0 on; an
 * older GPU gets ordinary launches (and the kernels' wait compiles to
 * nothing there). Asked once per device. */
bool device_launches_dependent()
{
    constexpr int kDevices = 64;
    static signed char known[kDevices]; /* 0 unknown, 1 yes, -1 no */
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kDevices)
        return false;
    if (known[device] == 0) {
        int major = 0;
        if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) !=
            cudaSuccess)
            return false;
        known[device] = major >= 9 ? 1 : -1;
    }
    return known[device] > 0;
}

bool launch_shape(size_t nx, size_t rows, unsigned rows_per_thread, dim3 *grid)
{
    const size_t grid_x = (nx + kBlockX - 1) / kBlockX;
    const size_t rows_per_block = (size_t)kBlockY * rows_per_thread;
    size_t grid_y = (rows + rows_per_block - 1) / rows_per_block;
    if (grid_x > (size_t)INT_MAX)
        return false;
    if (grid_y > kMaxGridY)
        grid_y = kMaxGridY;
    *grid = dim3((unsigned)grid_x, (unsigned)grid_y);
    return true;
}

/* The cells of one launch: the grid's shape, and the rows (and for a
 * rectangle the columns and the arrays' stride) it updates. */
struct Cells {
    size_t nx, ny, stride, i_begin, i_end, j_begin, j_end;
};

/* Launches kernel with columns threads along i (cells, pairs or quads)
 * over rows j_begin..j_end-1; alpha is rounded to Real here, once.
 * dependent: launched programmatically dependent on the kernel before it in
 * the stream (see wait_for_previous_step and heat2d_cuda_step). */
template <typename Real, typename Kernel>
cudaError_t launch(Kernel kernel, size_t columns, unsigned rows_per_thread, const void *u, void *v,
                   const Cells &cells, double alpha, bool dependent, cudaStream_t stream)
{
    dim3 grid;
    if (!launch_shape(columns, cells.j_end - cells.j_begin, rows_per_thread, &grid))
        return cudaErrorInvalidConfiguration;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = dim3(kBlockX, kBlockY);
    config.stream = stream;
    cudaLaunchAttribute attribute = {};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    if (dependent && device_launches_dependent()) {
        config.attrs = &attribute;
        config.numAttrs = 1;
    }
    const cudaError_t rc =
        cudaLaunchKernelEx(&config, kernel, static_cast<const Real *>(u), static_cast<Real *>(v),
                           cells.nx, cells.ny, cells.stride, cells.i_begin, cells.i_end,
                           cells.j_begin, cells.j_end, static_cast<Real>(alpha));
    return rc != cudaSuccess ? rc : cudaGetLastError();
}

/* The kernel of a precision: fp64 the step kernel; fp32 four cells a
 * thread where the rows allow it (nx a multiple of 4), else two (nx even),
 * else, and for every rectangle, the step kernel in float. */
template <Region kRegion>
cudaError_t launch_step(heat2d_precision precision, const void *u, void *v, const Cells &cells,
                        double alpha, bool dependent, cudaStream_t stream)
{
    const size_t columns = cells.i_end - cells.i_begin;
    if (precision != HEAT2D_F32)
        return launch<double>(step_kernel<double, kRegion>, columns, kRows, u, v, cells, alpha,
                              dependent, stream);
    if constexpr (kRegion != Region::kRectangle) {
        if (cells.nx % 4 == 0)
            return launch<float>(vector_kernel<kRegion, 4, kQuadRows>, columns / 4, kQuadRows, u, v,
                                 cells, alpha, dependent, stream);
        if (cells.nx % 2 == 0)
            return launch<float>(vector_kernel<kRegion, 2, kRows>, columns / 2, kRows, u, v, cells,
                                 alpha, dependent, stream);
    }
    return launch<float>(step_kernel<float, kRegion>, columns, kRows, u, v, cells, alpha, dependent,
                         stream);
}

template <typename Real> cudaError_t load()
{
    /* Querying a kernel's attributes needs its code resident, so this loads
     * it (CUDA loads each kernel lazily otherwise, at its first launch). */
    cudaFuncAttributes attributes;
    cudaError_t rc = cudaFuncGetAttributes(&attributes, step_kernel<Real, Region::kWhole>);
    if (rc == cudaSuccess)
        rc = cudaFuncGetAttributes(&attributes, step_kernel<Real, Region::kRows>);
    return rc != cudaSuccess
               ? rc
               : cudaFuncGetAttributes(&attributes, step_kernel<Real, Region::kRectangle>);
}

template <Region kRegion> cudaError_t load_vectors()
{
    cudaFuncAttributes attributes;
    const cudaError_t rc = cudaFuncGetAttributes(&attributes, vector_kernel<kRegion, 2, kRows>);
    return rc != cudaSuccess
               ? rc
               : cudaFuncGetAttributes(&attributes, vector_kernel<kRegion, 4, kQuadRows>);
}

} // namespace

extern "C" cudaError_t heat2d_cuda_step(heat2d_precision precision, const void *u, void *v,
                                        size_t nx, size_t ny, double alpha, bool dependent,
                                        cudaStream_t stream)
{
    if (nx == 0 || ny == 0)
        return cudaSuccess;
    const Cells cells = {nx, ny, nx, 0, nx, 0, ny};
    return launch_step<Region::kWhole>(precision, u, v, cells, alpha, dependent, stream);
}

extern "C" cudaError_t heat2d_cuda_step_rows(heat2d_precision precision, const void *u, void *v,
                                             size_t nx, size_t ny, size_t j_begin, size_t j_end,
                                             double alpha, cudaStream_t stream)
{
    if (j_end > ny || j_begin > j_end)
        return cudaErrorInvalidValue;
    if (nx == 0 || j_begin == j_end)
        return cudaSuccess;
    /* Not dependent: cuda-overlap orders its row ranges with events. */
    const Cells cells = {nx, ny, nx, 0, nx, j_begin, j_end};
    return launch_step<Region::kRows>(precision, u, v, cells, alpha, false, stream);
}

extern "C" cudaError_t heat2d_cuda_step_rectangle(heat2d_precision precision, const void *u,
                                                  void *v, size_t stride, size_t i_begin,
                                                  size_t i_end, size_t j_begin, size_t j_end,
                                                  double alpha, bool dependent, cudaStream_t stream)
{
    if (i_begin > i_end || j_begin > j_end || i_end > stride)
        return cudaErrorInvalidValue;
    if (i_begin == i_end || j_begin == j_end)
        return cudaSuccess;
    /* The rectangle's neighbours lie inside the arrays: it must not touch
     * their first or last column, nor their first row. */
    if (i_begin == 0 || i_end == stride || j_begin == 0)
        return cudaErrorInvalidValue;
    const Cells cells = {0, 0, stride, i_begin, i_end, j_begin, j_end};
    return launch_step<Region::kRectangle>(precision, u, v, cells, alpha, dependent, stream);
}

extern "C" cudaError_t heat2d_cuda_load_kernels(void)
{
    cudaError_t rc = load<double>();
    if (rc == cudaSuccess)
        rc = load<float>();
    if (rc == cudaSuccess)
        rc = load_vectors<Region::kWhole>();
    return rc != cudaSuccess ? rc : load_vectors<Region::kRows>();
}
