/* mpi-cuda's device and MPI's view of it (mpi_cuda_device.c). */
#ifndef HEAT2D_MPI_CUDA_DEVICE_H
#define HEAT2D_MPI_CUDA_DEVICE_H

#include "heat2d.h"

#define WHO "mpi-cuda"

/* Whether MPI takes device pointers: asked of the library at run time;
 * HEAT2D_MPI_CUDA_AWARE=0 says no, to stage the halos through host memory
 * anyway. */
bool heat2d_mpi_cuda_aware(void);

/* mpi-cuda's prepare: every rank opens its GPU (collective), and rank 0
 * reports the device and how the halos travel. */
int heat2d_mpi_cuda_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err);

#endif /* HEAT2D_MPI_CUDA_DEVICE_H */
