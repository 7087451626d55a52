/* The CUPTI side of the transfer trace, shared by heat2d's own process
 * (transfer_trace.c) and the injection library that the CUDA driver loads
 * into any program (transfer_inject.c): the activity records of every
 * host<->device copy, into one heat2d_copy_tally. Nothing else of heat2d
 * here, so that the injection library carries it alone. */
#ifndef HEAT2D_CUPTI_COPIES_H
#define HEAT2D_CUPTI_COPIES_H

#include "copy_tally.h"

#include <cupti.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Zeroes the tally (singling out copies of array_size bytes) and starts
 * recording; the callbacks are registered once. On failure, *call names
 * the CUPTI function that failed. */
CUptiResult heat2d_cupti_copies_start(uint64_t array_size, const char **call);

/* Flushes every record, stops recording and copies the tally out. */
CUptiResult heat2d_cupti_copies_stop(heat2d_copy_tally *tally, const char **call);

/* Flushes the records completed so far into the tally (recording goes on). */
CUptiResult heat2d_cupti_copies_flush(void);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CUPTI_COPIES_H */
