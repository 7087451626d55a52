/* The table of methods this build contains. Each backend exports one
 * heat2d_method per method; programs find them only through this table. */
#include "methods.h"

#include <string.h>

extern const heat2d_method heat2d_method_cpu;
#ifdef HEAT2D_HAVE_OMP
extern const heat2d_method heat2d_method_omp;
#endif
#ifdef HEAT2D_HAVE_OPENACC
extern const heat2d_method heat2d_method_acc_each;
extern const heat2d_method heat2d_method_acc_resident;
#endif
#ifdef HEAT2D_HAVE_CUDA
extern const heat2d_method heat2d_method_cuda_each;
extern const heat2d_method heat2d_method_cuda_resident;
extern const heat2d_method heat2d_method_cuda_graph;
extern const heat2d_method heat2d_method_cuda_tb;
extern const heat2d_method heat2d_method_cuda_overlap;
#endif
#ifdef HEAT2D_HAVE_MPI
extern const heat2d_method heat2d_method_mpi_cpu;
#endif
#ifdef HEAT2D_HAVE_MPI_CUDA
extern const heat2d_method heat2d_method_mpi_cuda;
#endif

static const heat2d_method *const method_table[] = {
    &heat2d_method_cpu,
#ifdef HEAT2D_HAVE_OMP
    &heat2d_method_omp,
#endif
#ifdef HEAT2D_HAVE_OPENACC
    &heat2d_method_acc_each,  &heat2d_method_acc_resident,
#endif
#ifdef HEAT2D_HAVE_CUDA
    &heat2d_method_cuda_each, &heat2d_method_cuda_resident, &heat2d_method_cuda_graph,
    &heat2d_method_cuda_tb,   &heat2d_method_cuda_overlap,
#endif
#ifdef HEAT2D_HAVE_MPI
    &heat2d_method_mpi_cpu,
#endif
#ifdef HEAT2D_HAVE_MPI_CUDA
    &heat2d_method_mpi_cuda,
#endif
};

size_t heat2d_method_count(void)
{
    return sizeof method_table / sizeof method_table[0];
}

const heat2d_method *heat2d_method_at(size_t index)
{
    return index < heat2d_method_count() ? method_table[index] : NULL;
}

bool heat2d_method_on_host_here(const heat2d_method *m)
{
    return m->gpu_only && m->on_host_here != NULL && m->on_host_here();
}

bool heat2d_method_needs_gpu(const heat2d_method *m)
{
    return m->gpu_only && !heat2d_method_on_host_here(m);
}

const heat2d_method *heat2d_method_find(const char *name)
{
    for (size_t k = 0; k < heat2d_method_count(); ++k)
        if (strcmp(method_table[k]->name, name) == 0)
            return method_table[k];
    return NULL;
}
