/* The bandwidth probe behind `heat2d info --bandwidth`: the hardware limits
 * against which the methods' rates are read (SPEC section 5).
 *
 * Device-to-device copies are timed with events (the host is not involved);
 * host transfers with the host clock after a synchronise, because what a
 * pageable copy costs includes the driver's staging on the host. Medians,
 * after one warm-up, so that one slow sample (a first touch, a clock ramp)
 * does not set the number.
 * Measurements: docs/performance.md, "Limits and probes".
 */
#include <cstdlib>
#include <cstring>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_device.h"
#include "gpu_info.h"

namespace
{

constexpr size_t kDeviceBytes = (size_t)1 << 30; /* well past the 60 MB L2 */
constexpr size_t kHostBytes = (size_t)256 << 20;
constexpr int kDeviceRepeats = 10;
constexpr int kHostRepeats = 5;
constexpr int kMaxRepeats = 10;

double median(double *values, int n)
{
    for (int a = 1; a < n; ++a) /* insertion sort: n <= 10 */
        for (int b = a; b > 0 && values[b - 1] > values[b]; --b) {
            const double t = values[b];
            values[b] = values[b - 1];
            values[b - 1] = t;
        }
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* Cleanup on every path: an event not created is nullptr. */
static void destroy_events(cudaEvent_t start, cudaEvent_t stop)
{
    if (start != nullptr)
        (void)cudaEventDestroy(start);
    if (stop != nullptr)
        (void)cudaEventDestroy(stop);
}

/* Read plus write bytes of a device-to-device cudaMemcpy, per second. */
int measure_d2d(double *gbs, heat2d_error *err)
{
    void *src = nullptr;
    void *dst = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    double rates[kMaxRepeats];
    int rc = -1;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&src, kDeviceBytes), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&dst, kDeviceBytes), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemset(src, 0, kDeviceBytes), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&start), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&stop), done);
    HEAT2D_CUDA_CHECK_GOTO(
        err, cudaMemcpyAsync(dst, src, kDeviceBytes, cudaMemcpyDeviceToDevice, 0), done);
    for (int r = 0; r < kDeviceRepeats; ++r) {
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(start, 0), done);
        HEAT2D_CUDA_CHECK_GOTO(
            err, cudaMemcpyAsync(dst, src, kDeviceBytes, cudaMemcpyDeviceToDevice, 0), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(stop, 0), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventSynchronize(stop), done);
        float ms = 0.0f;
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventElapsedTime(&ms, start, stop), done);
        rates[r] = 2.0 * (double)kDeviceBytes / ((double)ms * 1e-3) / 1e9;
    }
    *gbs = median(rates, kDeviceRepeats);
    rc = 0;
done:
    destroy_events(start, stop);
    (void)cudaFree(src);
    (void)cudaFree(dst);
    return rc;
}

/* FMA throughput: every thread runs kChains independent chains of fused
 * multiply-adds (enough in flight to cover the latency), over a grid of
 * many blocks per SM; the result is stored only if a condition the host
 * never sets holds, so the compiler keeps the work and no memory traffic
 * enters the timing. */
constexpr int kChains = 8;
constexpr int kFmaIterations = 8192;
constexpr int kFmaThreads = 256;
constexpr int kFmaRepeats = 5;

template <typename Real>
__global__ void __launch_bounds__(kFmaThreads)
    fma_kernel(Real a, Real b, int iterations, Real *sink)
{
    Real x[kChains];
#pragma unroll
    for (int k = 0; k < kChains; ++k)
        x[k] = (Real)(threadIdx.x + k);
    for (int i = 0; i < iterations; ++i)
#pragma unroll
        for (int k = 0; k < kChains; ++k)
            x[k] = fma(x[k], a, b);
    Real sum = 0;
#pragma unroll
    for (int k = 0; k < kChains; ++k)
        sum += x[k];
    if (sum == (Real)-1.5)
        sink[0] = sum;
}

/* FLOP/s of fused multiply-adds in Real (2 per FMA), median of kFmaRepeats
 * after a warm-up, in TFLOP/s. */
template <typename Real> int measure_fma(double *tflops, heat2d_error *err)
{
    int device = 0, sms = 0;
    HEAT2D_CUDA_CHECK(err, cudaGetDevice(&device));
    HEAT2D_CUDA_CHECK(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const unsigned blocks = (unsigned)(sms > 0 ? sms : 1) * 16;
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    Real *sink = nullptr;
    double rates[kFmaRepeats];
    int rc = -1;
    /* Values that stay finite over the chain: |a| < 1, and b small. */
    const Real a = (Real)0.999, b = (Real)0.001;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&sink, sizeof(Real)), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&start), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&stop), done);
    for (int r = -1; r < kFmaRepeats; ++r) {
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(start, 0), done);
        fma_kernel<Real><<<blocks, kFmaThreads>>>(a, b, kFmaIterations, sink);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaGetLastError(), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(stop, 0), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventSynchronize(stop), done);
        float ms = 0.0f;
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventElapsedTime(&ms, start, stop), done);
        const double fmas = (double)blocks * kFmaThreads * kChains * kFmaIterations;
        if (r >= 0)
            rates[r] = 2.0 * fmas / ((double)ms * 1e-3) / 1e12;
    }
    *tflops = median(rates, kFmaRepeats);
    rc = 0;
done:
    destroy_events(start, stop);
    (void)cudaFree(sink);
    return rc;
}

/* One direction of host<->device cudaMemcpy between host and device, bytes
 * per second, median of kHostRepeats after a warm-up. */
int measure_host(void *host, void *device, cudaMemcpyKind kind, double *gbs, heat2d_error *err)
{
    double rates[kMaxRepeats];
    void *dst = kind == cudaMemcpyHostToDevice ? device : host;
    const void *src = kind == cudaMemcpyHostToDevice ? host : device;
    HEAT2D_CUDA_CHECK(err, cudaMemcpy(dst, src, kHostBytes, kind));
    HEAT2D_CUDA_CHECK(err, cudaDeviceSynchronize());
    for (int r = 0; r < kHostRepeats; ++r) {
        const double t0 = heat2d_now();
        HEAT2D_CUDA_CHECK(err, cudaMemcpy(dst, src, kHostBytes, kind));
        HEAT2D_CUDA_CHECK(err, cudaDeviceSynchronize());
        rates[r] = (double)kHostBytes / (heat2d_now() - t0) / 1e9;
    }
    *gbs = median(rates, kHostRepeats);
    return 0;
}

/* Both directions at once between two pinned buffers and device memory:
 * kHostBytes each way in kBothChunks copies per direction, uploads on one
 * stream and downloads on another, as an overlapped method queues them;
 * each direction's rate is kHostBytes over the time until both are done.
 * Median of kHostRepeats after a warm-up. */
constexpr int kBothChunks = 16;

int measure_both(void *pinned_up, void *pinned_down, void *device_up, void *device_down,
                 double *gbs, heat2d_error *err)
{
    cudaStream_t up = nullptr;
    cudaStream_t down = nullptr;
    cudaEvent_t start = nullptr;
    cudaEvent_t up_done = nullptr;
    cudaEvent_t down_done = nullptr;
    double rates[kMaxRepeats];
    const size_t chunk = kHostBytes / kBothChunks;
    int rc = -1;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&start), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&up_done), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaEventCreate(&down_done), done);
    for (int r = -1; r < kHostRepeats; ++r) { /* r = -1: the warm-up */
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(start, up), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamWaitEvent(down, start, 0), done);
        for (int c = 0; c < kBothChunks; ++c) {
            const size_t at = (size_t)c * chunk;
            HEAT2D_CUDA_CHECK_GOTO(err,
                                   cudaMemcpyAsync((char *)device_up + at, (char *)pinned_up + at,
                                                   chunk, cudaMemcpyHostToDevice, up),
                                   done);
            HEAT2D_CUDA_CHECK_GOTO(err,
                                   cudaMemcpyAsync((char *)pinned_down + at,
                                                   (char *)device_down + at, chunk,
                                                   cudaMemcpyDeviceToHost, down),
                                   done);
        }
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(down_done, down), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamWaitEvent(up, down_done, 0), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(up_done, up), done);
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventSynchronize(up_done), done);
        float ms = 0.0f;
        HEAT2D_CUDA_CHECK_GOTO(err, cudaEventElapsedTime(&ms, start, up_done), done);
        if (r >= 0)
            rates[r] = (double)kHostBytes / ((double)ms * 1e-3) / 1e9;
    }
    *gbs = median(rates, kHostRepeats);
    rc = 0;
done:
    if (start != nullptr)
        (void)cudaEventDestroy(start);
    if (up_done != nullptr)
        (void)cudaEventDestroy(up_done);
    if (down_done != nullptr)
        (void)cudaEventDestroy(down_done);
    if (up != nullptr)
        (void)cudaStreamDestroy(up);
    if (down != nullptr)
        (void)cudaStreamDestroy(down);
    return rc;
}

int measure_host_limits(heat2d_gpu_limits *limits, heat2d_error *err)
{
    void *device = nullptr;
    void *device_down = nullptr;
    void *pageable = nullptr;
    void *pinned = nullptr;
    void *pinned_down = nullptr;
    int rc = -1;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&device, kHostBytes), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&device_down, kHostBytes), done);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMemset(device_down, 0, kHostBytes), done);
    pageable = std::malloc(kHostBytes);
    if (pageable == nullptr) {
        (void)heat2d_fail(err, "cuda bandwidth probe: cannot allocate %zu bytes of host memory",
                          kHostBytes);
        goto done;
    }
    /* Touch every page, or the first copy would time page faults. */
    std::memset(pageable, 1, kHostBytes);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMallocHost(&pinned, kHostBytes), done);
    std::memset(pinned, 1, kHostBytes);
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMallocHost(&pinned_down, kHostBytes), done);
    std::memset(pinned_down, 2, kHostBytes);
    if (measure_host(pageable, device, cudaMemcpyHostToDevice, &limits->h2d_pageable, err) != 0 ||
        measure_host(pageable, device, cudaMemcpyDeviceToHost, &limits->d2h_pageable, err) != 0 ||
        measure_host(pinned, device, cudaMemcpyHostToDevice, &limits->h2d_pinned, err) != 0 ||
        measure_host(pinned, device, cudaMemcpyDeviceToHost, &limits->d2h_pinned, err) != 0 ||
        measure_both(pinned, pinned_down, device, device_down, &limits->both_pinned, err) != 0)
        goto done;
    rc = 0;
done:
    (void)cudaFreeHost(pinned);
    (void)cudaFreeHost(pinned_down);
    std::free(pageable);
    (void)cudaFree(device);
    (void)cudaFree(device_down);
    return rc;
}

} // namespace

extern "C" int heat2d_cuda_bandwidth(heat2d_gpu_limits *limits, heat2d_error *err)
{
    char name[256];
    double context_s = 0.0;
    if (heat2d_cuda_open_device("cuda bandwidth probe", name, sizeof name, NULL, &context_s, err) !=
        0)
        return -1;
    if (measure_d2d(&limits->device_copy, err) != 0 ||
        measure_fma<double>(&limits->fp64_tflops, err) != 0 ||
        measure_fma<float>(&limits->fp32_tflops, err) != 0)
        return -1;
    return measure_host_limits(limits, err);
}
