/* mpi-cuda's device: one GPU per rank (the rank's index among the ranks
 * of its node, modulo the node's GPUs), opened before the clock starts,
 * and whether MPI takes device pointers (CUDA-aware MPI). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_device.h"
#include "mpi_common.h"
#include "mpi_cuda_device.h"
#include "mpi_cuda_kernels.h"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_Query_cuda_support */
#endif

/* Whether MPI takes device pointers. The header's MPIX_CUDA_AWARE_SUPPORT
 * says what the headers were built with; the library found at run time may
 * differ, so it is asked. HEAT2D_MPI_CUDA_AWARE=0 stages the halos through
 * host memory anyway, to measure what CUDA-aware MPI buys. */
bool heat2d_mpi_cuda_aware(void)
{
    const char *force = getenv("HEAT2D_MPI_CUDA_AWARE");
    if (force != NULL && strcmp(force, "0") == 0)
        return false;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    return MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    int supported = 0;
    return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS &&
           supported != 0;
#else
    return false;
#endif
}

/* Opens the GPU of this node-local rank: device, context, kernels, all
 * before any clock. */
static int open_device(int local_rank, int local_ranks, int *node_gpus, heat2d_report *rep,
                       heat2d_error *err)
{
    const double t0 = heat2d_now();
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess)
        return heat2d_fail(err, WHO ": no CUDA device: %s", cudaGetErrorString(rc));
    if (count <= 0)
        return heat2d_fail(err, WHO ": no CUDA device: the runtime found none");
    const int device = local_rank % count;
    *node_gpus = local_ranks < count ? local_ranks : count;
    HEAT2D_CUDA_CHECK(err, cudaSetDevice(device));
    HEAT2D_CUDA_CHECK(err, cudaFree(NULL));
    char code[96];
    if (heat2d_cuda_code_for(WHO, device, code, sizeof code, err) != 0)
        return -1;
    HEAT2D_CUDA_CHECK(err, heat2d_mpi_cuda_load_kernels());
    rep->context_s = heat2d_now() - t0;
    struct cudaDeviceProp prop;
    HEAT2D_CUDA_CHECK(err, cudaGetDeviceProperties(&prop, device));
    snprintf(rep->device, sizeof rep->device, "%.60s", prop.name);
    rep->pass_steps = 1;
    rep->fp_ops_per_cell = 7;
    return 0;
}

int heat2d_mpi_cuda_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    /* 0 is the one setting; any other value would be ignored in silence. */
    const char *force = getenv("HEAT2D_MPI_CUDA_AWARE");
    if (force != NULL && force[0] != '\0' && strcmp(force, "0") != 0)
        return heat2d_fail(err,
                           "%s: HEAT2D_MPI_CUDA_AWARE=%s: 0 (halos staged through host memory) is "
                           "its only setting; unset, the MPI library is asked",
                           WHO, force);
    if (heat2d_mpi_start(WHO, err) != 0 || heat2d_mpi_settings_agree(WHO, cfg, err) != 0)
        return -1;
    MPI_Comm node = MPI_COMM_NULL;
    int local_rank = 0;
    HEAT2D_MPI_CHECK(
        err, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int local_ranks = 1;
    int rc = MPI_Comm_rank(node, &local_rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(node, &local_ranks);
    MPI_Comm_free(&node);
    if (rc != MPI_SUCCESS)
        return heat2d_mpi_fail(err, __FILE__, __LINE__, "MPI_Comm_rank(node)", rc);
    /* A rank without a GPU must not leave the others waiting in the solve's
     * first collective: agree, and let rank 0 say which rank failed. */
    int node_gpus = 0;
    if (heat2d_mpi_agree_comm(MPI_COMM_WORLD,
                              open_device(local_rank, local_ranks, &node_gpus, rep, err), err) != 0)
        return -1;
    /* The GPUs in use over all nodes (ranks beyond a node's GPUs share
     * them), for the device column and the bench's bound: P ranks on P
     * GPUs have P times one GPU's bandwidth. */
    int mine = local_rank == 0 ? node_gpus : 0, gpus = 0, ranks = 1;
    HEAT2D_MPI_CHECK(err, MPI_Allreduce(&mine, &gpus, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    HEAT2D_MPI_CHECK(err, MPI_Comm_size(MPI_COMM_WORLD, &ranks));
    char name[64];
    snprintf(name, sizeof name, "%.60s", rep->device);
    snprintf(rep->device, sizeof rep->device, "%s (%d rank%s on %d GPU%s, %s)", name, ranks,
             ranks == 1 ? "" : "s", gpus, gpus == 1 ? "" : "s",
             heat2d_mpi_cuda_aware() ? "CUDA-aware MPI" : "halos via pinned host");
    return 0;
}
