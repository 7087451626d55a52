/* The host's memory bandwidth, the bound of every method that computes on
 * the CPU, and what says whether a figure is held to it: how much of the
 * machine the probe had, and the caches that can serve a grid faster. */
#ifndef HEAT2D_HOST_BANDWIDTH_H
#define HEAT2D_HOST_BANDWIDTH_H

#include "heat2d.h"

typedef struct heat2d_host_probe {
    double copy_gbs; /* median, bytes read + written per second / 1e9 */
    int threads;     /* the OpenMP threads that copied */
    /* The share of the threads' time that they were on a CPU while they
     * copied: near 1 on a quiet machine; well below it, other work held the
     * cores and copy_gbs is low. */
    double cpu_share;
} heat2d_host_probe;

/* The host copy bandwidth on all OpenMP threads, over arrays far larger
 * than the caches. */
int heat2d_host_bandwidth(heat2d_host_probe *probe, heat2d_error *err);

/* Last-level cache of the whole machine in bytes: the sum of its distinct
 * level-3 caches, as sysfs lists them; 0 when it does not. */
size_t heat2d_host_llc_bytes(void);

#endif /* HEAT2D_HOST_BANDWIDTH_H */
