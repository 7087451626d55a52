/* The OpenMP target methods' runtime side: the check that target regions
 * really run on the device, and the transfers the driver traced (CUPTI). */
#include "omp_target_runtime.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transfer_trace.h"
#ifdef HEAT2D_HAVE_CUDA
#include "cuda_device.h"
#endif

/* Set by heat2d_omp_target_prepare: whether target regions run on a
 * device. */
static bool on_device;
/* Whether this run reads the driver's copies (heat2d_trace_begin). */
static bool tracing;

/* How to ask for the host, said wherever no GPU takes the regions. */
#define HOST_HINT "; set OMP_TARGET_OFFLOAD=DISABLED to run the OpenMP target methods on the host"

/* Why the runtime may not have reached a GPU, named when it did not.
 * Clang's libomptarget opens the driver as libcuda.so, and the one of Clang
 * 19 refuses every cubin of CUDA 13's ptxas ("No images found compatible
 * with the installed hardware" under OMP_TARGET_OFFLOAD=MANDATORY): it
 * reads the GPU from a byte of the ELF header that CUDA 13 moved
 * (docs/building.md, "OpenMP target"). */
#if defined(__clang__)
#define OFFLOAD_RUNTIME                                                                            \
    "no device, libomptarget's CUDA plugin or libcuda.so not found, or no device image that "      \
    "libomptarget accepts: OMP_TARGET_OFFLOAD=MANDATORY says which"
#else
#define OFFLOAD_RUNTIME "no device, or libgomp-plugin-nvptx.so.1 / libcuda.so.1 not found"
#endif

/* The host, asked for by name (OpenMP's OMP_TARGET_OFFLOAD=DISABLED): the
 * regions then run on the host as the user said. A fallback nobody asked
 * for (the OpenMP default, OMP_TARGET_OFFLOAD=DEFAULT, where no device is
 * usable) is refused: MANDATORY's meaning, whatever the setting. */
bool heat2d_omp_target_on_host_here(void)
{
    const char *offload = getenv("OMP_TARGET_OFFLOAD");
    return offload != NULL && strcasecmp(offload, "disabled") == 0;
}

int heat2d_omp_target_transfers_start(size_t array_bytes, heat2d_error *err)
{
    tracing = false;
    return on_device ? heat2d_trace_begin(array_bytes, &tracing, err) : 0;
}

int heat2d_omp_target_transfers_stop(heat2d_report *rep, heat2d_error *err)
{
    if (!on_device) {
        /* The host device's data environment is the original: a map makes
         * no copy. GCC 12's libgomp has no OMPT to count with, so the
         * counts are the model's, 0, and TRANSFERS=model says so. */
        rep->transfers_modelled = true;
        rep->h2d_count = rep->h2d_bytes = rep->d2h_count = rep->d2h_bytes = 0;
        return 0;
    }
    return heat2d_trace_end(tracing, rep, err);
}

#define TEXT_OF(x)   #x
#define NUMBER_OF(x) TEXT_OF(x)
const char *heat2d_omp_target_compiler(void)
{
#if defined(__clang__)
    return "Clang " NUMBER_OF(__clang_major__) "." NUMBER_OF(__clang_minor__) "." NUMBER_OF(
        __clang_patchlevel__);
#elif defined(__GNUC__)
    return "GCC " NUMBER_OF(__GNUC__) "." NUMBER_OF(__GNUC_MINOR__) "." NUMBER_OF(
        __GNUC_PATCHLEVEL__);
#else
    return "an unknown compiler";
#endif
}

/* The GPU's multiprocessors, where CUDA says (0: not known). */
static int multiprocessors;

int heat2d_omp_target_multiprocessors(void)
{
    return multiprocessors;
}

/* Open the GPU, untimed: with CUDA, the CUDA runtime's primary context made
 * current first, so that the OpenMP and CUDA methods of one process share
 * it (libgomp adopts the context that is current when it starts, and
 * otherwise creates its own), and its name into name. Once a process. */
static int open_device(const char *method, char *name, size_t size, heat2d_error *err)
{
#ifdef HEAT2D_HAVE_CUDA
    static char opened[128];
    if (opened[0] == '\0') {
        int device = 0;
        double ignored;
        if (heat2d_cuda_open_device(method, opened, sizeof opened, &device, &ignored, err) != 0 ||
            heat2d_cuda_multiprocessors(device, &multiprocessors, err) != 0) {
            size_t used = strlen(err->message);
            snprintf(err->message + used, sizeof err->message - used, "%s", HOST_HINT);
            opened[0] = '\0';
            return -1;
        }
        /* OpenMP numbers the same devices in the same order. */
        if (device < omp_get_num_devices())
            omp_set_default_device(device);
    }
    snprintf(name, size, "%s", opened);
#else
    (void)method;
    (void)err;
    snprintf(name, size, "GPU (OpenMP device %d)", omp_get_default_device());
#endif
    return 0;
}

/* The device's free memory, 0 when it cannot be known. Without CUDA,
 * OpenMP has no call that says; a trial allocation of both arrays answers
 * whether they fit (libgomp says why on stderr when they do not). */
static int check_device_memory(const char *method, const heat2d_config *cfg, const char *device,
                               heat2d_error *err)
{
    size_t free_bytes = 0;
#ifdef HEAT2D_HAVE_CUDA
    if (heat2d_cuda_free_memory(&free_bytes, err) != 0)
        return -1;
#else
    size_t bytes = 0;
    if (heat2d_array_bytes(cfg, &bytes, err) != 0)
        return -1;
    void *trial =
        bytes <= SIZE_MAX / 2 ? omp_target_alloc(2 * bytes, omp_get_default_device()) : NULL;
    if (trial == NULL)
        return heat2d_fail(err,
                           "%s: grid %zux%zu needs 2 x %.3g GB of device memory, more than the %s "
                           "could allocate",
                           method, cfg->nx, cfg->ny, (double)bytes / 1e9, device);
    omp_target_free(trial, omp_get_default_device());
#endif
    return heat2d_check_device_memory(method, cfg, free_bytes, device, err);
}

int heat2d_omp_target_prepare(const char *method, const heat2d_config *cfg, heat2d_report *rep,
                              heat2d_error *err)
{
    const bool host_asked = heat2d_omp_target_on_host_here();
    const double t0 = heat2d_now();
    char name[128] = "";
    if (!host_asked && open_device(method, name, sizeof name, err) != 0)
        return -1;
    /* Ask from inside a target region: only code that runs on the device
     * knows whether it does. OpenMP falls back to the host silently when
     * the offload plugin or the device is missing (OMP_TARGET_OFFLOAD's
     * default). The first region also loads the device code, which is
     * set-up, not loop. */
    int on_host = 1;
#pragma omp target map(from : on_host)
    {
        on_host = omp_is_initial_device();
    }
    rep->context_s = heat2d_now() - t0;

    on_device = !on_host;
    if (on_host) {
        /* The device says why, so that no host number passes for a GPU's. */
        if (host_asked) {
            snprintf(rep->device, sizeof rep->device, "host (OMP_TARGET_OFFLOAD=DISABLED)");
            return 0;
        }
        snprintf(rep->device, sizeof rep->device, "host");
        return heat2d_fail(err,
                           "%s: OpenMP target regions ran on the host, not a GPU (%s)" HOST_HINT,
                           method, OFFLOAD_RUNTIME);
    }
    /* The seed's arithmetic, alpha's product an fma with a -0 addend. */
    rep->pass_steps = 1;
    rep->fp_ops_per_cell = 7;
    /* Which compiler built the regions, beside the GPU (a bench row of
     * each compiler's build). */
    snprintf(rep->device, sizeof rep->device, "%s (%s)", name, heat2d_omp_target_compiler());
    /* Both arrays go to the device: refuse, before the clock starts, a grid
     * whose arrays do not fit in its free memory. */
    return check_device_memory(method, cfg, rep->device, err);
}
