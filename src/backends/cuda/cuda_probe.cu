/* The bandwidth probe behind `heat2d info --bandwidth`: the hardware limits
 * against which the methods' rates are read (SPEC section 5).
 *
 * Device-to-device copies are timed with events (the host is not involved);
 * host transfers with the host clock after a synchronise, because what a
 * pageable copy costs includes the driver's staging on the host. Medians,
 * after one warm-up, so that one slow sample (a first touch, a clock ramp)
 * does not set the number.
 */
#include <cstdlib>
#include <cstring>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_methods.h"

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
    if (start != nullptr)
        (void)cudaEventDestroy(start);
    if (stop != nullptr)
        (void)cudaEventDestroy(stop);
    (void)cudaFree(src);
    (void)cudaFree(dst);
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

int measure_host_pair(double *h2d_pageable_gbs, double *d2h_pageable_gbs, double *h2d_pinned_gbs,
                      double *d2h_pinned_gbs, heat2d_error *err)
{
    void *device = nullptr;
    void *pageable = nullptr;
    void *pinned = nullptr;
    int rc = -1;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaMalloc(&device, kHostBytes), done);
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
    if (measure_host(pageable, device, cudaMemcpyHostToDevice, h2d_pageable_gbs, err) != 0 ||
        measure_host(pageable, device, cudaMemcpyDeviceToHost, d2h_pageable_gbs, err) != 0 ||
        measure_host(pinned, device, cudaMemcpyHostToDevice, h2d_pinned_gbs, err) != 0 ||
        measure_host(pinned, device, cudaMemcpyDeviceToHost, d2h_pinned_gbs, err) != 0)
        goto done;
    rc = 0;
done:
    (void)cudaFreeHost(pinned);
    std::free(pageable);
    (void)cudaFree(device);
    return rc;
}

} // namespace

extern "C" int heat2d_cuda_bandwidth(double *d2d_gbs, double *h2d_pageable_gbs,
                                     double *d2h_pageable_gbs, double *h2d_pinned_gbs,
                                     double *d2h_pinned_gbs, heat2d_error *err)
{
    char name[256];
    double context_s = 0.0;
    if (heat2d_cuda_open("cuda bandwidth probe", name, sizeof name, &context_s, err) != 0)
        return -1;
    if (measure_d2d(d2d_gbs, err) != 0)
        return -1;
    return measure_host_pair(h2d_pageable_gbs, d2h_pageable_gbs, h2d_pinned_gbs, d2h_pinned_gbs,
                             err);
}
