/* The host's memory bandwidth, the bound of every method that computes on
 * the CPU. */
#ifndef HEAT2D_HOST_BANDWIDTH_H
#define HEAT2D_HOST_BANDWIDTH_H

#include "heat2d.h"

/* Median host copy bandwidth (bytes read + written per second / 1e9) on
 * all OpenMP threads, over arrays far larger than the caches. */
int heat2d_host_bandwidth(double *copy_gbs, int *threads, heat2d_error *err);

#endif /* HEAT2D_HOST_BANDWIDTH_H */
