/* Choosing the GPU and creating its context, outside any timed region. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_device.h"

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
