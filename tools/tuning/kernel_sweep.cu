/* Single-step kernel designs against the copy bandwidth, fp64 and fp32.
 *
 * cuda-resident's kernel streams each thread down ROWS rows of one column,
 * keeping S, centre and N in registers; W and E come from L1. This probe
 * times that design and the changes that could move it closer to the copy
 * bandwidth: more rows per thread, W and E by warp shuffle instead of L1,
 * two cells per thread with vector loads, streaming (evict-first) stores.
 * Every variant's field is compared with the reference variant's.
 *
 *   nvcc -O3 -arch=sm_90 --fmad=false -o sweep tools/tuning/kernel_sweep.cu
 *   ./sweep [N [STEPS [dense|point]]]        (default 8192 200 dense)
 *
 * Prints COPY_GBS (cudaMemcpy device to device, read + write bytes, as
 * heat2d info --bandwidth measures it) and, per variant and precision,
 * Gcell/s and % of COPY_GBS / (2 x bytes per cell): medians of 5 runs.
 */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

/* With -DHEAT2D_SWEEP_LIBRARY_KERNEL and -Isrc/lib -Isrc/backends/cuda, the
 * kernel heat2d itself launches (heat2d_cuda_step) is timed next to the
 * variants, on the same data. */
#ifdef HEAT2D_SWEEP_LIBRARY_KERNEL
#include "cuda_kernels.cu"
#endif

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        const cudaError_t rc_ = (expr);                                                            \
        if (rc_ != cudaSuccess) {                                                                  \
            std::fprintf(stderr, "sweep: %s:%d: %s: %s\n", __FILE__, __LINE__, #expr,              \
                         cudaGetErrorString(rc_));                                                 \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

/* SHFL: W and E from neighbouring lanes (lanes 0 and 31 load their outer
 * neighbour); STCS: evict-first stores. */
template <typename T, unsigned BX, unsigned BY, unsigned ROWS, bool SHFL, bool STCS>
__global__ void __launch_bounds__(BX *BY)
    step(const T *__restrict__ u, T *__restrict__ v, size_t nx, size_t ny, T alpha)
{
    const size_t i = (size_t)blockIdx.x * BX + threadIdx.x;
    const bool active = i < nx;
    const size_t ic = active ? i : nx - 1;
    const unsigned lane = threadIdx.x & 31u;
    const bool edge_column = (i == 0 || i >= nx - 1);
    const size_t band = (size_t)gridDim.y * BY * ROWS;
    for (size_t j0 = ((size_t)blockIdx.y * BY + threadIdx.y) * ROWS; j0 < ny; j0 += band) {
        size_t c = j0 * nx + ic;
        T south = j0 > 0 ? __ldg(u + c - nx) : T(0);
        T centre = __ldg(u + c);
#pragma unroll
        for (unsigned r = 0; r < ROWS; ++r) {
            const size_t j = j0 + r;
            if (j >= ny)
                break;
            const T north = j + 1 < ny ? __ldg(u + c + nx) : T(0);
            T west, east;
            if (SHFL) {
                west = __shfl_up_sync(0xffffffffu, centre, 1);
                east = __shfl_down_sync(0xffffffffu, centre, 1);
                if (lane == 0 && ic > 0)
                    west = __ldg(u + c - 1);
                if (lane == 31 && ic + 1 < nx)
                    east = __ldg(u + c + 1);
            } else {
                west = ic > 0 ? __ldg(u + c - 1) : T(0);
                east = ic + 1 < nx ? __ldg(u + c + 1) : T(0);
            }
            T out = T(0);
            if (!edge_column && j != 0 && j != ny - 1)
                out = centre + alpha * (west + east + south + north - T(4) * centre);
            if (active) {
                if (STCS)
                    __stcs(v + c, out);
                else
                    v[c] = out;
            }
            south = centre;
            centre = north;
            c += nx;
        }
    }
}

template <typename T, unsigned BX, unsigned BY, unsigned ROWS, bool SHFL, bool STCS>
void launch(const T *u, T *v, size_t nx, size_t ny, T alpha)
{
    const size_t gy = std::min<size_t>((ny + BY * ROWS - 1) / (BY * ROWS), 65535);
    step<T, BX, BY, ROWS, SHFL, STCS>
        <<<dim3((unsigned)((nx + BX - 1) / BX), (unsigned)gy), dim3(BX, BY)>>>(u, v, nx, ny, alpha);
}

/* fp32, four cells per thread as float4 (nx a multiple of 4): 16-byte
 * loads and stores, half as many threads as two cells per thread. */
template <unsigned BX, unsigned BY, unsigned ROWS>
__global__ void __launch_bounds__(BX *BY)
    quad(const float *__restrict__ u, float *__restrict__ v, size_t nx, size_t ny, float alpha)
{
    const size_t i = 4 * ((size_t)blockIdx.x * BX + threadIdx.x);
    if (i >= nx)
        return;
    const bool west_edge = i == 0, east_edge = i + 4 == nx;
    const size_t band = (size_t)gridDim.y * BY * ROWS;
    for (size_t j0 = ((size_t)blockIdx.y * BY + threadIdx.y) * ROWS; j0 < ny; j0 += band) {
        size_t c = j0 * nx + i;
        float4 s = j0 > 0 ? __ldg(reinterpret_cast<const float4 *>(u + c - nx))
                          : make_float4(0.f, 0.f, 0.f, 0.f);
        float4 m = __ldg(reinterpret_cast<const float4 *>(u + c));
#pragma unroll
        for (unsigned r = 0; r < ROWS; ++r) {
            const size_t j = j0 + r;
            if (j >= ny)
                break;
            const float4 n = j + 1 < ny ? __ldg(reinterpret_cast<const float4 *>(u + c + nx))
                                        : make_float4(0.f, 0.f, 0.f, 0.f);
            const float w = west_edge ? 0.f : __ldg(u + c - 1);
            const float e = east_edge ? 0.f : __ldg(u + c + 4);
            float4 o = make_float4(0.f, 0.f, 0.f, 0.f);
            if (j != 0 && j != ny - 1) {
                if (!west_edge)
                    o.x = m.x + alpha * (w + m.y + s.x + n.x - 4.0f * m.x);
                o.y = m.y + alpha * (m.x + m.z + s.y + n.y - 4.0f * m.y);
                o.z = m.z + alpha * (m.y + m.w + s.z + n.z - 4.0f * m.z);
                if (!east_edge)
                    o.w = m.w + alpha * (m.z + e + s.w + n.w - 4.0f * m.w);
            }
            *reinterpret_cast<float4 *>(v + c) = o;
            s = m;
            m = n;
            c += nx;
        }
    }
}

template <typename T, unsigned BX, unsigned BY, unsigned ROWS>
void launch_quad(const T *u, T *v, size_t nx, size_t ny, T alpha)
{
    if constexpr (sizeof(T) == sizeof(float)) {
        const size_t gy = std::min<size_t>((ny + BY * ROWS - 1) / (BY * ROWS), 65535);
        quad<BX, BY, ROWS>
            <<<dim3((unsigned)((nx / 4 + BX - 1) / BX), (unsigned)gy), dim3(BX, BY)>>>(u, v, nx, ny,
                                                                                       alpha);
    } else {
        launch<T, 128, 2, 8, false, false>(u, v, nx, ny, alpha);
    }
}

#ifdef HEAT2D_SWEEP_LIBRARY_KERNEL
template <typename T> void library_step(const T *u, T *v, size_t nx, size_t ny, T alpha)
{
    (void)heat2d_cuda_step(sizeof(T) == sizeof(float) ? HEAT2D_F32 : HEAT2D_F64, u, v, nx, ny,
                           (double)alpha, true, 0);
}
#endif

template <typename T> struct Variant {
    const char *name;
    void (*fn)(const T *, T *, size_t, size_t, T);
};

template <typename T> std::vector<Variant<T>> variants()
{
    return {
#ifdef HEAT2D_SWEEP_LIBRARY_KERNEL
        {"heat2d_cuda_step", library_step<T>},
#endif
        {"quad 128x2r8", launch_quad<T, 128, 2, 8>},
        {"quad 64x4r8", launch_quad<T, 64, 4, 8>},
        {"quad 128x1r8", launch_quad<T, 128, 1, 8>},
        {"quad 64x2r8", launch_quad<T, 64, 2, 8>},
        {"quad 128x2r4", launch_quad<T, 128, 2, 4>},
        {"quad 32x4r8", launch_quad<T, 32, 4, 8>},
        {"128x2r4", launch<T, 128, 2, 4, false, false>},
        {"128x2r4 stcs", launch<T, 128, 2, 4, false, true>},
        {"128x2r4 shfl", launch<T, 128, 2, 4, true, false>},
        {"128x2r4 shfl stcs", launch<T, 128, 2, 4, true, true>},
        {"128x2r8", launch<T, 128, 2, 8, false, false>},
        {"128x2r8 shfl", launch<T, 128, 2, 8, true, false>},
        {"128x1r8", launch<T, 128, 1, 8, false, false>},
        {"256x1r4", launch<T, 256, 1, 4, false, false>},
        {"256x1r8 shfl", launch<T, 256, 1, 8, true, false>},
        {"64x4r4", launch<T, 64, 4, 4, false, false>},
        {"128x4r2", launch<T, 128, 4, 2, false, false>},
        {"128x2r16", launch<T, 128, 2, 16, false, false>},
        {"32x8r4", launch<T, 32, 8, 4, false, false>},
    };
}

double copy_gbs(size_t bytes)
{
    void *a, *b;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemset(a, 0, bytes));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<double> r;
    for (int k = 0; k < 11; ++k) {
        CHECK(cudaEventRecord(e0));
        CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (k > 0)
            r.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
    }
    std::sort(r.begin(), r.end());
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return r[r.size() / 2];
}

/* dense: a value in [0, 1) in every cell; point: heat2d's initial state (all
 * 0 but the centre cell, 1), which stays almost all zeros. */
template <typename T>
void sweep(const char *precision, size_t n, int steps, double copy, bool dense)
{
    const size_t cells = n * n;
    std::vector<T> host(cells, T(0));
    if (dense)
        for (size_t k = 0; k < cells; ++k)
            host[k] = T((k * 2654435761u) % 1000) / T(1000);
    else
        host[(n / 2) * n + n / 2] = T(1);
    T *u, *v, *ref;
    CHECK(cudaMalloc(&u, cells * sizeof(T)));
    CHECK(cudaMalloc(&v, cells * sizeof(T)));
    CHECK(cudaMalloc(&ref, cells * sizeof(T)));
    std::vector<T> got(cells), want(cells);
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    const T alpha = T(0.1);
    auto vs = variants<T>();
    for (size_t k = 0; k < vs.size(); ++k) {
        /* Correctness: 3 steps from the same start. */
        CHECK(cudaMemcpy(u, host.data(), cells * sizeof(T), cudaMemcpyHostToDevice));
        for (int s = 0; s < 3; ++s) {
            vs[k].fn(s % 2 ? v : u, s % 2 ? u : v, n, n, alpha);
            CHECK(cudaGetLastError());
        }
        CHECK(cudaMemcpy(got.data(), v, cells * sizeof(T), cudaMemcpyDeviceToHost));
        if (k == 0)
            want = got;
        double diff = 0;
        for (size_t c = 0; c < cells; ++c)
            diff = std::max(diff, (double)std::fabs(got[c] - want[c]));
        std::vector<double> rates;
        for (int rep = 0; rep < 5; ++rep) {
            CHECK(cudaEventRecord(e0));
            for (int s = 0; s < steps; ++s)
                vs[k].fn(s % 2 ? v : u, s % 2 ? u : v, n, n, alpha);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            CHECK(cudaGetLastError());
            float ms;
            CHECK(cudaEventElapsedTime(&ms, e0, e1));
            rates.push_back((double)cells * steps / (ms * 1e-3) / 1e9);
        }
        std::sort(rates.begin(), rates.end());
        const double g = rates[2];
        const double limit = copy / (2.0 * sizeof(T));
        std::printf("SWEEP %s %s n=%zu %-20s %7.1f Gcell/s %5.1f%% of copy/%zuB "
                    "max_diff_vs_first=%g\n",
                    precision, dense ? "dense" : "point", n, vs[k].name, g, 100.0 * g / limit,
                    2 * sizeof(T), diff);
    }
    CHECK(cudaFree(u));
    CHECK(cudaFree(v));
    CHECK(cudaFree(ref));
}

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 8192;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
    const double copy = copy_gbs((size_t)1 << 30);
    std::printf("COPY_GBS=%.1f\n", copy);
    const bool dense = !(argc > 3 && std::strcmp(argv[3], "point") == 0);
    sweep<double>("f64", n, steps, copy, dense);
    sweep<float>("f32", n, steps, copy, dense);
    return 0;
}
