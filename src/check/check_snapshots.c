/* heat2d check: snapshots. Every method that takes them, in every way it
 * copies them, runs with a snapshot every K steps (K = 1, 7, one that does
 * not divide the steps, and the whole run) on an odd and an uneven grid;
 * every snapshot must arrive at its step and equal cpu's field after that
 * step (bit for bit, or within the original's tolerance for a method that
 * fuses its arithmetic), and the run's transfers must be the model's: one
 * upload, one download a snapshot. A method that finds each snapshot's
 * invariants on the device must hand them with every snapshot, and they
 * must be what a scan of the same field here finds: the same verdict, the
 * same least and greatest value and non-finite cells, and a sum within the
 * rounding of its different order. */
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the snapshots of one run are held to, and what they were. */
typedef struct snapshot_probe {
    const heat2d_config *cfg;
    const double *reference; /* cpu's field after step s at (s-1)*cells; NULL: record */
    double *record;          /* cpu's own run: every step stored here */
    heat2d_tolerance tol;
    size_t cells;
    size_t count;     /* snapshots seen */
    size_t bad_steps; /* snapshots at a step other than the expected one */
    size_t failures;  /* cells off the reference, over all snapshots */
    double max_abs_diff;
    size_t with_stats;     /* snapshots handed with the device's invariants */
    size_t stats_mismatch; /* of those, invariants a scan here disagrees with */
} snapshot_probe;

static double value_at(const heat2d_config *cfg, const void *field, size_t k)
{
    return heat2d_cells_of(cfg->precision)->get(field, k);
}

/* The step the n-th snapshot (from 1) must come at: every K, then the last. */
static size_t expected_step(const heat2d_config *cfg, size_t n)
{
    const size_t step = n * cfg->output_every;
    return step < cfg->steps ? step : cfg->steps;
}

/* Whether the device's invariants of field are a scan's here: the same
 * verdict and line, lo, hi and non-finite cells exactly, the sum within
 * the rounding of n additions in another order. */
static bool stats_agree(const heat2d_config *cfg, size_t step, const void *field,
                        const heat2d_field_stats *device)
{
    const size_t n = cfg->nx * cfg->ny;
    heat2d_field_stats host = heat2d_field_stats_empty();
    heat2d_field_stats_add(&host, field, cfg->precision == HEAT2D_F32, 0, n);
    double magnitude = 0.0;
    for (size_t k = 0; k < n; ++k)
        magnitude += fabs(value_at(cfg, field, k));
    heat2d_error from_device = {{0}}, from_host = {{0}};
    const int verdict_device = heat2d_snapshot_verdict(cfg, step, device, &from_device);
    const int verdict_host = heat2d_snapshot_verdict(cfg, step, &host, &from_host);
    const bool sums_agree =
        host.nonfinite > 0 || fabs(device->sum - host.sum) <= (double)n * DBL_EPSILON * magnitude;
    return verdict_device == verdict_host && strcmp(from_device.message, from_host.message) == 0 &&
           device->lo == host.lo && device->hi == host.hi && device->nonfinite == host.nonfinite &&
           device->first_nonfinite == host.first_nonfinite && sums_agree;
}

static int probe_snapshot(void *ctx, size_t step, const void *field,
                          const heat2d_field_stats *stats, heat2d_error *err)
{
    (void)err;
    snapshot_probe *p = ctx;
    p->count++;
    if (stats != NULL) {
        p->with_stats++;
        if (!stats_agree(p->cfg, step, field, stats))
            p->stats_mismatch++;
    }
    if (step != expected_step(p->cfg, p->count) || step == 0 || step > p->cfg->steps) {
        p->bad_steps++;
        return 0;
    }
    const size_t base = (step - 1) * p->cells;
    if (p->record != NULL) {
        for (size_t k = 0; k < p->cells; ++k)
            p->record[base + k] = value_at(p->cfg, field, k);
        return 0;
    }
    for (size_t k = 0; k < p->cells; ++k) {
        const double ref = p->reference[base + k], got = value_at(p->cfg, field, k);
        const double diff = fabs(got - ref);
        if (!(diff <= p->tol.atol + p->tol.rtol * fabs(ref)))
            p->failures++;
        if (diff > p->max_abs_diff || isnan(diff))
            p->max_abs_diff = diff;
    }
    return 0;
}

/* One run of t with snapshots into probe; 0 when it ran. */
static int run_probed(check_state *st, const check_target *t, heat2d_config *cfg,
                      snapshot_probe *probe, heat2d_report *rep)
{
    cfg->snapshot = probe_snapshot;
    cfg->snapshot_ctx = probe;
    probe->cfg = cfg;
    heat2d_outcome out;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    heat2d_error err = {{0}};
    if (heat2d_run_method(t->method, cfg, &out, storage, &field, &err) != 0) {
        check_fail(st, "%s with a snapshot every %zu steps: %s", t->label, cfg->output_every,
                   err.message);
        return -1;
    }
    heat2d_free_pair(storage[0], storage[1]);
    *rep = out.report;
    return 0;
}

/* cpu's field after every step of the case, in the target's precision. */
static double *reference_fields(check_state *st, heat2d_precision precision, size_t nx, size_t ny,
                                size_t steps)
{
    check_target cpu = {.method = heat2d_method_find("cpu"), .precision = precision};
    heat2d_config cfg = check_target_config(&cpu, nx, ny, steps);
    cfg.output_every = 1;
    snapshot_probe probe = {.cells = nx * ny};
    probe.record = malloc(steps * nx * ny * sizeof(double));
    if (probe.record == NULL) {
        check_fail(st, "out of memory for the snapshots' reference");
        return NULL;
    }
    heat2d_report rep;
    snprintf(cpu.label, sizeof cpu.label, "cpu");
    if (run_probed(st, &cpu, &cfg, &probe, &rep) != 0 || probe.count != steps) {
        free(probe.record);
        return NULL;
    }
    return probe.record;
}

static void check_case(check_state *st, const check_target *t, heat2d_snapshot_copy copy, size_t nx,
                       size_t ny, size_t steps, size_t every, const double *reference)
{
    heat2d_config cfg = check_target_config(t, nx, ny, steps);
    cfg.output_every = every;
    cfg.snapshot_copy = copy;
    snapshot_probe probe = {.reference = reference, .cells = nx * ny};
    /* Bit for bit, unless the method fuses its arithmetic (f64: the
     * original's tolerance; f32: the stated f32 bound). */
    if (t->method->within_tolerance)
        probe.tol = t->precision == HEAT2D_F32
                        ? (heat2d_tolerance){heat2d_precision_slack(HEAT2D_F32, steps), 0.0}
                        : (heat2d_tolerance){HEAT2D_DEFAULT_ATOL, HEAT2D_DEFAULT_RTOL};
    heat2d_report rep;
    if (run_probed(st, t, &cfg, &probe, &rep) != 0)
        return;
    const size_t want = (steps + every - 1) / every;
    /* A method that finds the invariants where its field is hands them
     * with every snapshot (acc-resident also where OpenACC runs on the
     * host); the others hand none. */
    const size_t want_stats = t->method->device_snapshot_stats ? want : 0;
    const bool stats_ok = probe.with_stats == want_stats && probe.stats_mismatch == 0;
    const bool ok = probe.count == want && rep.snapshots == want && probe.bad_steps == 0 &&
                    probe.failures == 0 && stats_ok;
    printf("SNAPSHOTS method=%s copy=%s grid=%zux%zu steps=%zu K=%zu SNAPSHOTS=%zu/%zu "
           "MAX_ABS_DIFF=%.6e FAILURES=%zu DEVICE_STATS=%zu/%zu STATS_MISMATCH=%zu %s\n",
           t->label, heat2d_snapshot_copy_name(copy), nx, ny, steps, every, probe.count, want,
           probe.max_abs_diff, probe.failures, probe.with_stats, want_stats, probe.stats_mismatch,
           ok ? "PASS" : "FAIL");
    if (!ok)
        check_fail(st,
                   "%s: snapshots every %zu steps (%s) at %zux%zu/%zu: %zu of %zu, %zu off "
                   "their step, %zu cells off cpu, %zu of %zu with the device's invariants, %zu "
                   "of those off a scan here",
                   t->label, every, heat2d_snapshot_copy_name(copy), nx, ny, steps, probe.count,
                   want, probe.bad_steps, probe.failures, probe.with_stats, want_stats,
                   probe.stats_mismatch);
    if (!heat2d_device_is_host(rep.device) || t->method->style == HEAT2D_STYLE_HOST)
        check_transfers(st, t, &cfg, &rep);
}

void check_snapshots(check_state *st, const check_target *targets, size_t n_targets)
{
    /* Odd by odd, and even by odd; K=7 divides neither 31 nor 17, K=5 does
     * not divide 31, K=steps is one snapshot (the read-back). */
    static const struct {
        size_t nx, ny, steps, every[4];
    } cases[] = {{25, 21, 31, {1, 7, 5, 31}}, {40, 17, 17, {7, 17, 0, 0}}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        double *reference =
            reference_fields(st, st->precision, cases[c].nx, cases[c].ny, cases[c].steps);
        if (reference == NULL)
            return;
        for (size_t k = 0; k < n_targets; ++k) {
            const check_target *t = &targets[k];
            if (!t->method->has_snapshots || t->method->distributed)
                continue;
            for (int copy = 0; copy <= t->method->overlapped_snapshots; ++copy)
                for (size_t e = 0; e < 4 && cases[c].every[e] > 0; ++e)
                    check_case(st, t, (heat2d_snapshot_copy)copy, cases[c].nx, cases[c].ny,
                               cases[c].steps, cases[c].every[e], reference);
        }
        free(reference);
    }
}
