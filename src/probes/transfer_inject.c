/* The injection library: when CUDA_INJECTION64_PATH names it, the CUDA
 * driver loads it into any program at its first cuInit and calls
 * InitializeInjection (CUPTI's documented way in: no root, nothing
 * recompiled). It counts the program's host<->device copies with the code
 * heat2d's own trace runs (cupti_copies.c), singling out copies of
 * HEAT2D_TRANSFER_ARRAY_BYTES bytes, and appends them to the record file
 * HEAT2D_TRANSFER_FILE names (transfer_record.h): a marker as it loads,
 * the copies as the process exits, so that the bench sums every CUDA
 * process of a program and tells one that never recorded (_exit, a
 * signal) from one that never touched CUDA. heat2d bench sets both
 * variables for each trial of a program. Without HEAT2D_TRANSFER_FILE it
 * does nothing; a bad value of either is refused in one line on stderr and
 * nothing is traced. */
#define _POSIX_C_SOURCE 200809L
#include "cupti_copies.h"
#include "transfer_record.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    int fd;    /* the record file, open from load to exit; -1: none */
    pid_t pid; /* the process that loaded us: a fork's child is not it */
    uint64_t array_bytes;
    bool refused;            /* a bad variable: nothing traced */
    heat2d_transfer_end end; /* what the record will say */
} trace = {.fd = -1, .end = HEAT2D_TRANSFER_NO_CUDA};
static pthread_once_t written = PTHREAD_ONCE_INIT;
static CUpti_SubscriberHandle subscriber;

static void say(const char *call, CUptiResult rc)
{
    const char *text = NULL;
    cuptiGetResultString(rc, &text);
    fprintf(stderr, "heat2d transfer trace: %s: %s\n", call, text ? text : "unknown CUPTI error");
}

/* How this process ended, appended to the record file. */
static void write_record(void)
{
    if (trace.fd < 0 || getpid() != trace.pid)
        return;
    heat2d_copy_tally tally;
    if (trace.end == HEAT2D_TRANSFER_COPIES) {
        const char *call = "";
        const CUptiResult rc = heat2d_cupti_copies_stop(&tally, &call);
        if (rc != CUPTI_SUCCESS) {
            say(call, rc);
            trace.end = HEAT2D_TRANSFER_UNTRACED;
        }
    }
    char why[512];
    if (heat2d_transfer_record_end(trace.fd, trace.pid, trace.end, &tally, why, sizeof why) != 0)
        fprintf(stderr, "heat2d transfer trace: cannot write HEAT2D_TRANSFER_FILE: %s\n", why);
}

static void write_once(void)
{
    pthread_once(&written, write_record);
}

/* A context's records are gone with it: flush them into the tally first. */
static void CUPTIAPI on_resource(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 const void *info)
{
    (void)data;
    (void)info;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        heat2d_cupti_copies_flush();
}

/* At load: the file opened and the marker written, so that a process that
 * never reaches its exit handlers still counts; a bad array size is
 * recorded as untraced, never traced as another size. */
__attribute__((constructor)) static void at_load(void)
{
    const char *file = getenv("HEAT2D_TRANSFER_FILE");
    if (file == NULL || file[0] == '\0')
        return;
    char why[512];
    const int fd = heat2d_transfer_record_open(file, why, sizeof why);
    if (fd < 0) {
        fprintf(stderr, "heat2d transfer trace: HEAT2D_TRANSFER_FILE: %s; nothing traced\n", why);
        return;
    }
    trace.pid = getpid();
    if (heat2d_transfer_record_loaded(fd, trace.pid, why, sizeof why) != 0) {
        fprintf(stderr, "heat2d transfer trace: cannot write HEAT2D_TRANSFER_FILE: %s\n", why);
        close(fd);
        return;
    }
    trace.fd = fd;
    const char *size = getenv("HEAT2D_TRANSFER_ARRAY_BYTES");
    if (size != NULL && heat2d_transfer_array_bytes(size, &trace.array_bytes, why, sizeof why)) {
        fprintf(stderr, "heat2d transfer trace: HEAT2D_TRANSFER_ARRAY_BYTES=%s; nothing traced\n",
                why);
        trace.refused = true;
        trace.end = HEAT2D_TRANSFER_UNTRACED;
    }
    atexit(write_once);
}

/* Runs whichever of exit handlers and library destructors comes first. */
__attribute__((destructor)) static void at_unload(void)
{
    write_once();
}

/* The driver's entry point: 1 when the program may go on, whatever the
 * trace could do (a trace that cannot start says so, counts nothing and
 * records the process as untraced). */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    if (trace.fd < 0 || getpid() != trace.pid || trace.refused)
        return 1;
    trace.end = HEAT2D_TRANSFER_UNTRACED;
    const char *call = "";
    CUptiResult rc = heat2d_cupti_copies_start(trace.array_bytes, &call);
    if (rc == CUPTI_SUCCESS) {
        call = "cuptiSubscribe";
        rc = cuptiSubscribe(&subscriber, on_resource, NULL);
    }
    if (rc == CUPTI_SUCCESS) {
        call = "cuptiEnableCallback";
        rc = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    }
    if (rc != CUPTI_SUCCESS) {
        say(call, rc);
        return 1;
    }
    trace.end = HEAT2D_TRANSFER_COPIES;
    /* Registered again, as late as it can be: exit handlers run last
     * registered first, so this one before any the program added since
     * its load (the CUDA runtime's among them). */
    atexit(write_once);
    return 1;
}
