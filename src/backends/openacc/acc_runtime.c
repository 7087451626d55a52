/* The OpenACC methods' runtime side: the check that compute regions really
 * run on the device, and the transfers the runtime reported (its profiling
 * events) and the driver traced (CUPTI). */
#include "acc_runtime.h"

#include <acc_prof.h>
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transfer_trace.h"
#ifdef HEAT2D_HAVE_CUDA
#include "cuda_device.h"
#endif

/* The runtime calls these for every host<->device copy it enqueues, with the
 * byte count; counting here measures what crossed instead of estimating it
 * from the data clauses. */
static uint64_t upload_count, upload_bytes, download_count, download_bytes;
static bool listening;
/* Set by heat2d_acc_prepare: whether compute regions run on a device. */
static bool on_device;

static void on_upload(acc_prof_info *prof, acc_event_info *event, acc_api_info *api)
{
    (void)prof;
    (void)api;
    upload_count++;
    upload_bytes += event->data_event.bytes;
}

static void on_download(acc_prof_info *prof, acc_event_info *event, acc_api_info *api)
{
    (void)prof;
    (void)api;
    download_count++;
    download_bytes += event->data_event.bytes;
}

/* Whether this run reads the driver's copies (heat2d_trace_begin). */
static bool tracing;

int heat2d_acc_transfers_start(size_t array_bytes, heat2d_error *err)
{
    upload_count = upload_bytes = download_count = download_bytes = 0;
    if (!listening) {
        acc_prof_register(acc_ev_enqueue_upload_start, on_upload, acc_reg);
        acc_prof_register(acc_ev_enqueue_download_start, on_download, acc_reg);
        listening = true;
    }
    tracing = false;
    return on_device ? heat2d_trace_begin(array_bytes, &tracing, err) : 0;
}

int heat2d_acc_transfers_stop(heat2d_report *rep, heat2d_error *err)
{
    if (listening) {
        acc_prof_unregister(acc_ev_enqueue_upload_start, on_upload, acc_reg);
        acc_prof_unregister(acc_ev_enqueue_download_start, on_download, acc_reg);
        listening = false;
    }
    rep->acc_events = true;
    rep->acc_upload_events = upload_count;
    rep->acc_upload_bytes = upload_bytes;
    rep->acc_download_events = download_count;
    rep->acc_download_bytes = download_bytes;
    if (!on_device) {
        /* On the host nothing crosses, and the runtime's events say so. */
        rep->transfers_measured = true;
        rep->h2d_count = upload_count;
        rep->h2d_bytes = upload_bytes;
        rep->d2h_count = download_count;
        rep->d2h_bytes = download_bytes;
        return 0;
    }
    /* GCC 12's libgomp reports only the kernel-argument uploads as events,
     * not the data-clause copies, so the counts come from the driver. */
    return heat2d_trace_end(tracing, rep, err);
}

/* How to ask for the host, said wherever an offload build finds no GPU. */
#define ACC_HOST_HINT "; set ACC_DEVICE_TYPE=host to run the OpenACC methods on the host"

/* The host, asked for by name (ACC_DEVICE_TYPE=host): an offload build then
 * runs its kernels on the host as the user said (DEVICE=host). A fallback
 * nobody asked for is still refused. */
static bool host_asked(void)
{
    const char *type = getenv("ACC_DEVICE_TYPE");
    return type != NULL && strcasecmp(type, "host") == 0;
}

bool heat2d_acc_on_host_here(void)
{
    return !HEAT2D_ACC_REQUIRE_DEVICE || host_asked();
}

int heat2d_acc_prepare(const char *method, const heat2d_config *cfg, heat2d_report *rep,
                       heat2d_error *err)
{
    /* libgomp treats a second acc_init as fatal, and a check runs many
     * methods in one process. */
    static bool initialised;
    double t0 = heat2d_now();
    if (!initialised) {
#ifdef HEAT2D_HAVE_CUDA
        /* libgomp adopts the CUDA context that is current when it starts
         * and otherwise creates its own. Make the CUDA runtime's primary
         * context current first, so that the OpenACC and CUDA methods of
         * one process share it; with two contexts, whichever ran last
         * leaves its context current and the other's launches fail. */
        if (HEAT2D_ACC_REQUIRE_DEVICE && !host_asked()) {
            char name[128];
            double ignored;
            if (heat2d_cuda_open_device(method, name, sizeof name, NULL, &ignored, err) != 0) {
                size_t used = strlen(err->message);
                snprintf(err->message + used, sizeof err->message - used, "%s", ACC_HOST_HINT);
                return -1;
            }
        }
#endif
        acc_init(acc_get_device_type());
        initialised = true;
    }
    /* Ask from inside a compute region: only code that runs on the device
     * knows whether it does. The runtime falls back to the host silently
     * when the offload plugin or the device is missing. */
    int on_host = 1;
#pragma acc parallel num_gangs(1) copyout(on_host)
    {
        on_host = acc_on_device(acc_device_host);
    }
    rep->context_s = heat2d_now() - t0;

    on_device = !on_host;
    if (on_host) {
        /* The device says why, so that no host number passes for a GPU's. */
        if (!HEAT2D_ACC_REQUIRE_DEVICE) {
            snprintf(rep->device, sizeof rep->device, "host (OpenACC built for the host)");
            return 0;
        }
        if (host_asked()) {
            snprintf(rep->device, sizeof rep->device, "host (ACC_DEVICE_TYPE=host)");
            return 0;
        }
        snprintf(rep->device, sizeof rep->device, "host");
        return heat2d_fail(err,
                           "%s: OpenACC kernels ran on the host, not a GPU (no device, or "
                           "libgomp-plugin-nvptx.so.1 / libcuda.so.1 not found)" ACC_HOST_HINT,
                           method);
    }
    /* The seed's arithmetic, alpha's product an fma with a -0 addend. */
    rep->pass_steps = 1;
    rep->fp_ops_per_cell = 7;
    acc_device_t type = acc_get_device_type();
    int number = acc_get_device_num(type);
    const char *name = acc_get_property_string(number, type, acc_property_name);
    snprintf(rep->device, sizeof rep->device, "%s", name ? name : "accelerator");
    /* Both arrays go to the device: refuse, before the clock starts, a grid
     * whose arrays do not fit in its free memory (0: not reported). */
    size_t free_bytes = acc_get_property(number, type, acc_property_free_memory);
    return heat2d_check_device_memory(method, cfg, free_bytes, rep->device, err);
}
