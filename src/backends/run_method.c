/* Running one method the same way for every program: the test hook,
 * allocation and the initial state outside the clock, device set-up outside
 * the clock, the time loop inside it, then the original's summary check. */
#include "methods.h"

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

static bool checks_each_step(const heat2d_method *m)
{
    return m->checks_each_step;
}

/* The names of the methods with a property, from the table, so that a
 * message naming them stays true as methods are added. */
static void methods_with(bool (*property)(const heat2d_method *), char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < heat2d_method_count() && used < size; ++k) {
        const heat2d_method *other = heat2d_method_at(k);
        if (property(other))
            used +=
                (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", other->name);
    }
}

/* An option asked of a method that cannot take it is an error, not a run
 * that quietly ignores it; one whose NEEDS (an option of run) is not asked
 * is left to the caller's "needs" message. */
int heat2d_method_takes(const heat2d_method *m, const size_t *values, heat2d_error *err)
{
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        const bool needed = o->needs == HEAT2D_OPTION_NONE ||
                            heat2d_run_options[o->needs].run_help == NULL ||
                            heat2d_option_asked(values, o->needs);
        if (!heat2d_option_asked(values, (heat2d_option_id)k) || !needed || o->takes(m) ||
            o->refusal == NULL)
            continue;
        char those[256], why[HEAT2D_MESSAGE_ROOM];
        methods_with(o->takes, those, sizeof those);
        heat2d_option_refusal((heat2d_option_id)k, m->name, those, why, sizeof why);
        return heat2d_fail(err, "%s", why);
    }
    return 0;
}

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
    if (target != NULL && target[0] != '\0' && heat2d_method_find(target) == NULL)
        return heat2d_fail(err,
                           "HEAT2D_FAULT_METHOD=%s is not a method of this build (heat2d methods "
                           "lists them)",
                           target);
    if (target != NULL && target[0] != '\0' && strcmp(target, m->name) != 0)
        return 0;
    size_t step = 0;
    if (heat2d_parse_size(text, "HEAT2D_FAULT_NAN_AT_STEP", &step, err) != 0)
        return -1;
    if (!m->checks_each_step) {
        char those[256];
        methods_with(checks_each_step, those, sizeof those);
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
    /* Every rank read --initial's field; rank 0's is scattered. */
    int rc = m->solve_distributed(cfg, cfg->initial != NULL ? cfg->initial->values : NULL, &result,
                                  &out->total_s, &out->report, err);
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
    heat2d_option_values values;
    heat2d_options_from_config(cfg, values);
    if (heat2d_config_check(cfg, err) != 0 || heat2d_method_takes(m, values, err) != 0 ||
        read_fault_hook(m, &run, err) != 0)
        return -1;
    /* Steps on the host, in one process, end when advance returns: a
     * progress line may cut them into pieces. A GPU method's advance only
     * queues its steps, and a distributed method's ranks must cut alike:
     * theirs is called at snapshots only. */
    run.progress_pieces = m->style == HEAT2D_STYLE_HOST && !m->distributed;
    if (m->distributed)
        return run_distributed(m, cfg, out, storage, field, err);
    if (heat2d_alloc_pair(cfg, &u, &v, err) != 0)
        return -1;
    heat2d_initial_state_of(cfg, u, v);

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
