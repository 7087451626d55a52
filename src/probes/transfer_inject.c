/* The injection library: when CUDA_INJECTION64_PATH names it, the CUDA
 * driver loads it into any program at its first cuInit and calls
 * InitializeInjection (CUPTI's documented way in: no root, nothing
 * recompiled). It counts the program's host<->device copies with the code
 * heat2d's own trace runs (cupti_copies.c) and, when the program ends,
 * writes them to the file HEAT2D_TRANSFER_FILE names, singling out copies
 * of HEAT2D_TRANSFER_ARRAY_BYTES bytes: heat2d bench sets both for each
 * trial of a program. Without HEAT2D_TRANSFER_FILE it does nothing. The
 * file appears whole or not at all (written beside, then renamed), so a
 * program that never touched CUDA, or died, leaves none. */
#define _POSIX_C_SOURCE 200809L
#include "cupti_copies.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char target[4096];
static pthread_once_t written = PTHREAD_ONCE_INIT;
static CUpti_SubscriberHandle subscriber;

static void say(const char *call, CUptiResult rc)
{
    const char *text = NULL;
    cuptiGetResultString(rc, &text);
    fprintf(stderr, "heat2d transfer trace: %s: %s\n", call, text ? text : "unknown CUPTI error");
}

/* The tally to target, through a file beside it. */
static void write_tally(void)
{
    heat2d_copy_tally tally;
    const char *call = "";
    const CUptiResult rc = heat2d_cupti_copies_stop(&tally, &call);
    if (rc != CUPTI_SUCCESS) {
        say(call, rc);
        return;
    }
    char text[1024];
    const size_t len = heat2d_copy_tally_format(&tally, text, sizeof text);
    char temporary[4096 + 32];
    snprintf(temporary, sizeof temporary, "%s.%ld", target, (long)getpid());
    const int fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    const bool ok = fd >= 0 && len < sizeof text && write(fd, text, len) == (ssize_t)len;
    const bool closed = fd >= 0 && close(fd) == 0;
    if (!ok || !closed || rename(temporary, target) != 0) {
        fprintf(stderr, "heat2d transfer trace: cannot write '%s': %s\n", target, strerror(errno));
        if (fd >= 0)
            unlink(temporary);
    }
}

static void write_once(void)
{
    pthread_once(&written, write_tally);
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

/* Runs whichever of exit handlers and library destructors comes first. */
__attribute__((destructor)) static void at_unload(void)
{
    if (target[0] != '\0')
        write_once();
}

/* The driver's entry point: 1 when the program may go on, whatever the
 * trace could do (a trace that cannot start says so and counts nothing). */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    const char *file = getenv("HEAT2D_TRANSFER_FILE");
    if (file == NULL || file[0] == '\0' || strlen(file) >= sizeof target)
        return 1;
    const char *size = getenv("HEAT2D_TRANSFER_ARRAY_BYTES");
    char *end = NULL;
    errno = 0;
    const unsigned long long array_bytes = size != NULL ? strtoull(size, &end, 10) : 0;
    const bool size_ok = size == NULL || (end != size && *end == '\0' && errno == 0);
    const char *call = "";
    CUptiResult rc = heat2d_cupti_copies_start(size_ok ? array_bytes : 0, &call);
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
    strcpy(target, file);
    atexit(write_once);
    return 1;
}
