/* The table of methods this build contains. Each backend exports one
 * heat2d_method per method; the driver finds them only through this table. */
#include "heat2d.h"

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

const heat2d_method *heat2d_method_find(const char *name)
{
    for (size_t k = 0; k < heat2d_method_count(); ++k)
        if (strcmp(method_table[k]->name, name) == 0)
            return method_table[k];
    return NULL;
}

void heat2d_transfer_model(const heat2d_method *m, const heat2d_config *cfg, uint64_t *h2d_count,
                           uint64_t *h2d_bytes, uint64_t *d2h_count, uint64_t *d2h_bytes)
{
    uint64_t array_bytes =
        (uint64_t)cfg->nx * (uint64_t)cfg->ny * heat2d_precision_bytes(cfg->precision);
    uint64_t copies = 0;
    switch (m->style) {
    case HEAT2D_STYLE_HOST:
        copies = 0;
        break;
    case HEAT2D_STYLE_EACH:
        copies = cfg->steps;
        break;
    case HEAT2D_STYLE_RESIDENT:
        copies = 1;
        break;
    }
    *h2d_count = copies;
    *d2h_count = copies;
    *h2d_bytes = copies * array_bytes;
    *d2h_bytes = copies * array_bytes;
}
