/* Running one method the same way for every program: allocation and the
 * initial state outside the clock, device set-up outside the clock, the time
 * loop inside it, then the original's summary check and KEY=VALUE output. */
#include "heat2d.h"

#include <stdlib.h>
#include <string.h>

#ifdef HEAT2D_NVTX
/* NVTX v3 is header-only: the ranges cost nothing unless a profiler
 * (Nsight Systems, Nsight Compute) is attached. */
#include <nvtx3/nvToolsExt.h>
#define RANGE_PUSH(name) nvtxRangePushA(name)
#define RANGE_POP()      nvtxRangePop()
#else
#define RANGE_PUSH(name) ((void)(name))
#define RANGE_POP()      ((void)0)
#endif

/* The test hook HEAT2D_FAULT_NAN_AT_STEP=K into run->fault_nan_step. A hook
 * that would not fire is an error, not a run that quietly proves nothing.
 * HEAT2D_FAULT_METHOD=NAME aims it at one method (others run normally), so
 * that a benchmark can be shown to survive one method failing. */
static int read_fault_hook(const heat2d_method *m, heat2d_config *run, heat2d_error *err)
{
    const char *text = getenv("HEAT2D_FAULT_NAN_AT_STEP");
    if (text == NULL)
        return 0;
    const char *target = getenv("HEAT2D_FAULT_METHOD");
    if (target != NULL && target[0] != '\0' && strcmp(target, m->name) != 0)
        return 0;
    size_t step = 0;
    if (heat2d_parse_size(text, "HEAT2D_FAULT_NAN_AT_STEP", &step, err) != 0)
        return -1;
    if (!m->checks_each_step) {
        /* Name the methods that do, from the table, so the message stays
         * true as methods are added. */
        char those[256] = "";
        size_t used = 0;
        for (size_t k = 0; k < heat2d_method_count(); ++k) {
            const heat2d_method *other = heat2d_method_at(k);
            if (other->checks_each_step && used < sizeof those)
                used += (size_t)snprintf(those + used, sizeof those - used, "%s%s",
                                         used ? ", " : "", other->name);
        }
        return heat2d_fail(err, "HEAT2D_FAULT_NAN_AT_STEP: %s does not check every step (%s do)",
                           m->name, those);
    }
    if (step > run->steps)
        return heat2d_fail(err, "HEAT2D_FAULT_NAN_AT_STEP=%zu is past the run's %zu steps", step,
                           run->steps);
    run->fault_nan_step = step;
    return 0;
}

/* A distributed method: it allocates its blocks itself and times its own
 * loop (from a barrier to the slowest rank), and rank 0 alone receives the
 * gathered field, which is summarised exactly as every other method's. */
static int run_distributed(const heat2d_method *m, const heat2d_config *cfg, heat2d_outcome *out,
                           double *storage[2], const double **field, heat2d_error *err)
{
    storage[0] = storage[1] = NULL;
    *field = NULL;
    RANGE_PUSH("heat2d prepare");
    int prepared = m->prepare != NULL ? m->prepare(cfg, &out->report, err) : 0;
    RANGE_POP();
    if (prepared != 0)
        return -1;
    double *result = NULL;
    RANGE_PUSH(m->name);
    int rc = m->solve_distributed(cfg, NULL, &result, &out->total_s, &out->report, err);
    RANGE_POP();
    if (rc != 0)
        return -1;
    if (result == NULL)
        return 0; /* not rank 0: nothing to summarise */
    if (heat2d_summarise_run(cfg, result, &out->summary, err) != 0) {
        free(result);
        return -1;
    }
    storage[0] = result;
    *field = result;
    return 0;
}

int heat2d_run_method(const heat2d_method *m, const heat2d_config *cfg_in, heat2d_outcome *out,
                      double *storage[2], const double **field, heat2d_error *err)
{
    double *u = NULL;
    double *v = NULL;
    memset(out, 0, sizeof *out);
    heat2d_report_init(&out->report);
    heat2d_config run = *cfg_in;
    const heat2d_config *cfg = &run;
    if (heat2d_config_check(cfg, err) != 0 || read_fault_hook(m, &run, err) != 0)
        return -1;
    if (m->distributed)
        return run_distributed(m, cfg, out, storage, field, err);
    if (heat2d_alloc_pair(cfg, &u, &v, err) != 0)
        return -1;
    heat2d_initial_state(cfg->nx, cfg->ny, u, v);

    RANGE_PUSH("heat2d prepare");
    int prepared = m->prepare != NULL ? m->prepare(cfg, &out->report, err) : 0;
    RANGE_POP();
    if (prepared != 0) {
        heat2d_free_pair(u, v);
        return -1;
    }

    double *result = NULL;
    RANGE_PUSH(m->name);
    int rc = heat2d_solve(m, cfg, u, v, &result, &out->total_s, &out->report, err);
    RANGE_POP();
    if (rc != 0) {
        heat2d_free_pair(u, v);
        return -1;
    }
    if (heat2d_summarise_run(cfg, result, &out->summary, err) != 0) {
        heat2d_free_pair(u, v);
        return -1;
    }
    storage[0] = u;
    storage[1] = v;
    *field = result;
    return 0;
}

static void print_real(FILE *stream, const char *key, double value)
{
    fprintf(stream, "%s=%24.16E\n", key, value);
}

void heat2d_print_outcome(FILE *stream, const heat2d_method *m, const heat2d_config *cfg,
                          const heat2d_outcome *out)
{
    const heat2d_report *rep = &out->report;
    /* The seed protocol, in the seed's order. */
    fprintf(stream, "METHOD=%s\n", m->seed_name);
    fprintf(stream, "NX=%zu\n", cfg->nx);
    fprintf(stream, "NY=%zu\n", cfg->ny);
    print_real(stream, "MASS", out->summary.mass);
    print_real(stream, "CENTRE", out->summary.centre);
    print_real(stream, "MIN", out->summary.min);
    print_real(stream, "MAX", out->summary.max);
    print_real(stream, "TOTAL_S", out->total_s);
    fprintf(stream, "CHECK=PASS\n");
    for (size_t k = 0; k < rep->n_phases; ++k)
        print_real(stream, rep->phases[k].key, rep->phases[k].seconds);

    /* heat2d's own keys; the seed's parser ignores keys it does not know. */
    fprintf(stream, "STEPS=%zu\n", cfg->steps);
    print_real(stream, "ALPHA", cfg->alpha);
    fprintf(stream, "PRECISION=%s\n", heat2d_precision_name(cfg->precision));
    fprintf(stream, "DEVICE=%s\n", rep->device);
    if (rep->ranks > 0) {
        fprintf(stream, "RANKS=%d\n", rep->ranks);
        fprintf(stream, "DECOMP=%dx%d\n", rep->dims[0], rep->dims[1]);
        fprintf(stream, "HALO_BYTES_PER_STEP=%llu\n", (unsigned long long)rep->halo_bytes_per_step);
    }
    if (rep->context_s >= 0.0)
        print_real(stream, "CONTEXT_S", rep->context_s);
    if (rep->device_loop_s >= 0.0)
        print_real(stream, "DEVICE_LOOP_S", rep->device_loop_s);
    fprintf(stream, "TRANSFERS=%s\n", rep->transfers_measured ? "measured" : "none");
    fprintf(stream, "H2D_COUNT=%llu\n", (unsigned long long)rep->h2d_count);
    fprintf(stream, "H2D_BYTES=%llu\n", (unsigned long long)rep->h2d_bytes);
    fprintf(stream, "D2H_COUNT=%llu\n", (unsigned long long)rep->d2h_count);
    fprintf(stream, "D2H_BYTES=%llu\n", (unsigned long long)rep->d2h_bytes);
    if (rep->h2d_other_count + rep->d2h_other_count > 0) {
        fprintf(stream, "H2D_OTHER_COUNT=%llu\n", (unsigned long long)rep->h2d_other_count);
        fprintf(stream, "H2D_OTHER_BYTES=%llu\n", (unsigned long long)rep->h2d_other_bytes);
        fprintf(stream, "D2H_OTHER_COUNT=%llu\n", (unsigned long long)rep->d2h_other_count);
        fprintf(stream, "D2H_OTHER_BYTES=%llu\n", (unsigned long long)rep->d2h_other_bytes);
    }
    if (rep->acc_events) {
        fprintf(stream, "ACC_EVENTS_H2D_COUNT=%llu\n", (unsigned long long)rep->acc_upload_events);
        fprintf(stream, "ACC_EVENTS_H2D_BYTES=%llu\n", (unsigned long long)rep->acc_upload_bytes);
        fprintf(stream, "ACC_EVENTS_D2H_COUNT=%llu\n",
                (unsigned long long)rep->acc_download_events);
        fprintf(stream, "ACC_EVENTS_D2H_BYTES=%llu\n", (unsigned long long)rep->acc_download_bytes);
    }
    if (rep->h2d_s >= 0.0)
        print_real(stream, "H2D_S", rep->h2d_s);
    if (rep->d2h_s >= 0.0)
        print_real(stream, "D2H_S", rep->d2h_s);
    double cell_steps = (double)cfg->nx * (double)cfg->ny * (double)cfg->steps;
    if (out->total_s > 0.0)
        print_real(stream, "GCELLS_PER_S", cell_steps / out->total_s / 1e9);
}

/* ---- processes ------------------------------------------------------------ */

#ifdef HEAT2D_HAVE_MPI
/* In src/backends/mpi, which holds every call into MPI. */
int heat2d_mpi_process_rank(void);
int heat2d_mpi_process_count(void);
void heat2d_mpi_finalize(void);
void heat2d_mpi_abort(int status);
#endif

int heat2d_process_rank(void)
{
#ifdef HEAT2D_HAVE_MPI
    return heat2d_mpi_process_rank();
#else
    return 0;
#endif
}

int heat2d_process_count(void)
{
#ifdef HEAT2D_HAVE_MPI
    return heat2d_mpi_process_count();
#else
    return 1;
#endif
}

void heat2d_finalize(void)
{
#ifdef HEAT2D_HAVE_MPI
    heat2d_mpi_finalize();
#endif
}

void heat2d_abort(int status)
{
#ifdef HEAT2D_HAVE_MPI
    heat2d_mpi_abort(status);
#else
    (void)status;
#endif
}
