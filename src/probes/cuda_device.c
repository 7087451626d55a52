/* Choosing the GPU and creating its context, outside any timed region,
 * saying which of the build's code the GPU runs, and the one message of
 * a failed runtime call (cuda_check.h). */
#define _GNU_SOURCE /* dlopen */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_device.h"

int heat2d_cuda_fail(heat2d_error *err, const char *file, int line, const char *expr,
                     cudaError_t rc)
{
    const char *slash = strrchr(file, '/');
    return heat2d_fail(err, "%s:%d: %s: %s", slash != NULL ? slash + 1 : file, line, expr,
                       cudaGetErrorString(rc));
}

/* The device index from HEAT2D_CUDA_DEVICE: all digits, below count. */
static int select_device(const char *who, int count, int *device, heat2d_error *err)
{
    const char *text = getenv("HEAT2D_CUDA_DEVICE");
    *device = 0;
    if (text == NULL || text[0] == '\0')
        return 0;
    long value = 0;
    for (const char *p = text; *p != '\0'; ++p) {
        if (*p < '0' || *p > '9' || value >= count)
            return heat2d_fail(err, "%s: HEAT2D_CUDA_DEVICE=%s is not a device index (0..%d)", who,
                               text, count - 1);
        value = value * 10 + (*p - '0');
    }
    if (value >= count)
        return heat2d_fail(err, "%s: HEAT2D_CUDA_DEVICE=%s is not a device index (0..%d)", who,
                           text, count - 1);
    *device = (int)value;
    return 0;
}

/* The runtime reports a missing driver as one too old for it; the driver's
 * library itself tells the two apart. */
static bool driver_installed(void)
{
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (driver == NULL)
        return false;
    dlclose(driver);
    return true;
}

int heat2d_cuda_open_device(const char *who, char *name, size_t name_size, int *device_out,
                            double *context_s, heat2d_error *err)
{
    /* Everything up to a usable context counts: the driver's initialisation
     * in cudaGetDeviceCount and the context that cudaSetDevice creates (CUDA
     * 12 and later). */
    const double t0 = heat2d_now();
    int count = 0;
    /* A missing driver or device shows up here, as an error code; the user
     * asked for the GPU, so say so and stop, never fall back to the host. */
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess && !driver_installed())
        return heat2d_fail(err,
                           "%s: no CUDA device: this machine has no NVIDIA driver (libcuda.so.1 "
                           "not found)",
                           who);
    if (rc != cudaSuccess)
        return heat2d_fail(err, "%s: no CUDA device: %s", who, cudaGetErrorString(rc));
    if (count <= 0)
        return heat2d_fail(err, "%s: no CUDA device: the runtime found none", who);
    int device = 0;
    if (select_device(who, count, &device, err) != 0)
        return -1;
    HEAT2D_CUDA_CHECK(err, cudaSetDevice(device));
    /* Older runtimes create the context only at the first call that needs
     * one; make sure it exists before any timed region. */
    HEAT2D_CUDA_CHECK(err, cudaFree(NULL));
    *context_s = heat2d_now() - t0;
    struct cudaDeviceProp prop;
    HEAT2D_CUDA_CHECK(err, cudaGetDeviceProperties(&prop, device));
    if (name != NULL && name_size > 0)
        snprintf(name, name_size, "%s", prop.name);
    if (device_out != NULL)
        *device_out = device;
    return 0;
}

#ifndef HEAT2D_CUDA_SASS
#define HEAT2D_CUDA_SASS "unknown"
#endif
#ifndef HEAT2D_CUDA_PTX
#define HEAT2D_CUDA_PTX "unknown"
#endif

/* The best architecture in list (comma-separated numbers) that code for cc
 * can use, 0 if none: SASS runs on its own major version at a minor version
 * at least its own, PTX is JIT-compiled for any newer device. */
static int best_in(const char *list, int cc, bool sass)
{
    int best = 0;
    for (const char *p = list; *p != '\0';) {
        char *end = NULL;
        const long arch = strtol(p, &end, 10);
        if (end == p)
            break;
        const bool fits = sass ? arch / 10 == cc / 10 && arch <= cc : arch <= cc;
        if (fits && arch > best)
            best = (int)arch;
        p = *end == ',' ? end + 1 : end;
    }
    return best;
}

int heat2d_cuda_free_memory(size_t *free_bytes, heat2d_error *err)
{
    size_t total_bytes = 0;
    HEAT2D_CUDA_CHECK(err, cudaMemGetInfo(free_bytes, &total_bytes));
    return 0;
}

int heat2d_cuda_multiprocessors(int device, int *count, heat2d_error *err)
{
    HEAT2D_CUDA_CHECK(err, cudaDeviceGetAttribute(count, cudaDevAttrMultiProcessorCount, device));
    return 0;
}

int heat2d_cuda_capability(int device, int *major, int *minor, heat2d_error *err)
{
    HEAT2D_CUDA_CHECK(err,
                      cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, device));
    HEAT2D_CUDA_CHECK(err,
                      cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, device));
    return 0;
}

int heat2d_cuda_code_for(const char *who, int device, char *text, size_t size, heat2d_error *err)
{
    int major = 0, minor = 0;
    if (heat2d_cuda_capability(device, &major, &minor, err) != 0)
        return -1;
    const int cc = 10 * major + minor;
    if (strcmp(HEAT2D_CUDA_SASS, "unknown") == 0) {
        snprintf(text, size, "unknown (built for native or all architectures)");
        return 0;
    }
    const int sass = best_in(HEAT2D_CUDA_SASS, cc, true);
    const int ptx = best_in(HEAT2D_CUDA_PTX, cc, false);
    if (sass > 0) {
        snprintf(text, size, "SASS sm_%d", sass);
        return 0;
    }
    if (ptx > 0) {
        snprintf(text, size, "PTX compute_%d, JIT-compiled by the driver", ptx);
        return 0;
    }
    struct cudaDeviceProp prop;
    HEAT2D_CUDA_CHECK(err, cudaGetDeviceProperties(&prop, device));
    return heat2d_fail(err,
                       "%s: this build has no code for the %s (compute capability %d.%d): it "
                       "carries SASS for %s and PTX for %s; rebuild with "
                       "-DCMAKE_CUDA_ARCHITECTURES=%d",
                       who, prop.name, major, minor, HEAT2D_CUDA_SASS,
                       HEAT2D_CUDA_PTX[0] != '\0' ? HEAT2D_CUDA_PTX : "none", cc);
}
