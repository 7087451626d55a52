/* What the OpenACC methods share: the device check, the transfer counters,
 * read from the runtime's own profiling events, and the solve that counts
 * them around a method's loop. */
#ifndef HEAT2D_ACC_RUNTIME_H
#define HEAT2D_ACC_RUNTIME_H

#include "heat2d.h"

/* Untimed: initialise the OpenACC device, run one compute region that asks
 * acc_on_device where it runs, and fill rep->device and rep->context_s.
 * In an offload build, kernels that ran on the host are an error, and so is
 * a grid whose two arrays do not fit in the device's free memory. */
/* Whether this build (OpenACC for the host) or this run (ACC_DEVICE_TYPE=
 * host in an offload build) puts the OpenACC kernels on the host. */
bool heat2d_acc_on_host_here(void);

int heat2d_acc_prepare(const char *method, const heat2d_config *cfg, heat2d_report *rep,
                       heat2d_error *err);

/* Zero the counters and start listening: to the OpenACC runtime's upload and
 * download events always, and to the driver's copy records (CUPTI) when the
 * kernels run on a GPU. Copies of array_bytes are the arrays; other copies
 * (the runtime's own, such as kernel arguments) are counted apart. */
int heat2d_acc_transfers_start(size_t array_bytes, heat2d_error *err);

/* Stop listening; write what crossed into rep: the driver's records on a
 * GPU, the runtime's events on the host, and the runtime's events always in
 * rep->acc_*. */
int heat2d_acc_transfers_stop(heat2d_report *rep, heat2d_error *err);

#endif
