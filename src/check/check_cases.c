/* heat2d check's cases: the original's full-field check of every method
 * against cpu, plus invariants that any correct solver satisfies and that
 * a comparison between two of our own methods cannot catch. */
#include "check.h"
#include "file_replace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far a target's field may be from the exact or f64 one: 0 in f64 (the
 * tolerances stay the f64 ones), the stated f32 bound in f32 (every check
 * here starts from a state bounded by 1). */
static double f32_slack(const check_target *t, size_t steps)
{
    return heat2d_precision_slack(t->precision, steps);
}

/* The field file of one target's run: dir/label_NXxNY_STEPS.dat. */
static void field_path(const check_state *st, const char *label, size_t nx, size_t ny, size_t steps,
                       char *path, size_t path_size)
{
    snprintf(path, path_size, "%s/%s_%zux%zu_%zu.dat", st->dir, label, nx, ny, steps);
}

/* The original's cases, each run by every target and compared with cpu:
 * odd and even step counts catch a method that returns the wrong one of
 * its two buffers. The GPU check adds two shapes: the f32 GPU step picks
 * its kernel by nx, odd (25), a multiple of 4 (1024) and even but not
 * (130) each have their own. */
typedef struct field_case {
    size_t nx, ny, steps;
    bool gpu_only;
} field_case;

static const field_case field_cases[] = {
    {25, 21, 7, false},  {25, 21, 8, false},     {25, 21, 31, false},
    {25, 21, 32, false}, {1024, 768, 301, true}, {130, 98, 41, true},
};
#define N_FIELD_CASES (sizeof field_cases / sizeof field_cases[0])

/* Run one target from the standard initial state; write its field to
 * field_path's file. */
static int run_to_file(check_state *st, const check_target *t, size_t nx, size_t ny, size_t steps,
                       char *path, size_t path_size, heat2d_report *rep)
{
    heat2d_config cfg = check_target_config(t, nx, ny, steps);
    heat2d_outcome out;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    heat2d_error err = {{0}};
    field_path(st, t->label, nx, ny, steps, path, path_size);
    if (heat2d_run_method(t->method, &cfg, &out, storage, &field, &err) != 0) {
        check_fail(st, "%s %zux%zu/%zu: %s", t->label, nx, ny, steps, err.message);
        return -1;
    }
    int rc = heat2d_field_write(path, nx, ny, field, &err);
    heat2d_free_pair(storage[0], storage[1]);
    if (rc != 0) {
        check_fail(st, "%s", err.message);
        return -1;
    }
    *rep = out.report;
    return 0;
}

/* The original's check: every target's full field against cpu's (f64).
 * A target in f32 must be within the stated bound (max |u0| = 1, rtol 0)
 * and must differ from it somewhere: a field equal to f64's bit for bit
 * was not computed in float. */
static void check_against_cpu(check_state *st, const check_target *targets, size_t n_targets,
                              size_t nx, size_t ny, size_t steps)
{
    check_target cpu = {.method = heat2d_method_find("cpu"), .label = "cpu"};
    char ref_path[4096];
    heat2d_report rep;
    if (run_to_file(st, &cpu, nx, ny, steps, ref_path, sizeof ref_path, &rep) != 0)
        return;
    heat2d_error err = {{0}};
    heat2d_field reference;
    if (heat2d_field_read(ref_path, &reference, &err) != 0) {
        check_fail(st, "%s", err.message);
        return;
    }
    size_t before = st->failures;
    for (size_t k = 0; k < n_targets; ++k) {
        const bool f32 = targets[k].precision == HEAT2D_F32;
        const double bound = f32_slack(&targets[k], steps);
        heat2d_tolerance tol = {HEAT2D_DEFAULT_ATOL, HEAT2D_DEFAULT_RTOL};
        if (f32)
            tol = (heat2d_tolerance){bound, 0.0};
        char path[4096];
        if (run_to_file(st, &targets[k], nx, ny, steps, path, sizeof path, &rep) != 0)
            continue;
        /* A GPU method on the host fails the GPU check unless this build
         * or this run put it there (its device says why). */
        if (st->gpu && heat2d_device_is_host(rep.device) &&
            !heat2d_method_on_host_here(targets[k].method))
            check_fail(st, "%s ran on the host, not a GPU", targets[k].label);
        heat2d_config cfg = {.nx = nx, .ny = ny, .steps = steps, .precision = targets[k].precision};
        check_transfers(st, &targets[k], &cfg, &rep);
        heat2d_field candidate;
        if (heat2d_field_read(path, &candidate, &err) != 0) {
            check_fail(st, "%s", err.message);
            continue;
        }
        heat2d_comparison cmp;
        heat2d_compare_arrays(reference.values, candidate.values, nx * ny, tol, &cmp);
        /* The path holds --keep's folder, a name of the user's. */
        fputs("FILE=", stdout);
        heat2d_put_escaped(stdout, path);
        fputs(" DEVICE=", stdout);
        heat2d_put_escaped(stdout, rep.device);
        if (f32)
            printf(" PRECISION=f32 BOUND=%.6e", bound);
        printf(" MAX_ABS_DIFF=%.6e WORST_INDEX=%zu FAILURES=%zu\n", cmp.max_abs_diff,
               cmp.worst_index, cmp.failures);
        if (cmp.failures > 0)
            check_fail(st, "%s differs from cpu at %zux%zu/%zu in %zu cells", targets[k].label, nx,
                       ny, steps, cmp.failures);
        if (f32 && !(cmp.max_abs_diff > 0.0))
            check_fail(st, "%s in f32 equals cpu's f64 field at %zux%zu/%zu bit for bit: not float",
                       targets[k].label, nx, ny, steps);
        heat2d_field_free(&candidate);
    }
    heat2d_field_free(&reference);
    if (st->failures == before)
        printf("COMPARE=PASS case=%zux%zu/%zu\n", nx, ny, steps);
}

/* Run a target from an arbitrary initial state u0 (boundary 0). */
static int run_from_state(check_state *st, const check_target *t, const heat2d_config *cfg,
                          const double *u0, double **storage, double **result)
{
    heat2d_error err = {{0}};
    double *u = NULL;
    double *v = NULL;
    if (t->method->distributed) {
        /* One process here (heat2d check refuses more): rank 0 takes u0
         * apart into its blocks and returns the gathered field. */
        heat2d_report rep;
        heat2d_report_init(&rep);
        double total_s = 0.0;
        if ((t->method->prepare != NULL && t->method->prepare(cfg, &rep, &err) != 0) ||
            t->method->solve_distributed(cfg, u0, result, &total_s, &rep, &err) != 0) {
            check_fail(st, "%s: %s", t->label, err.message);
            return -1;
        }
        storage[0] = *result;
        storage[1] = NULL;
        return 0;
    }
    if (heat2d_alloc_pair(cfg, &u, &v, &err) != 0) {
        check_fail(st, "%s", err.message);
        return -1;
    }
    size_t bytes = cfg->nx * cfg->ny * sizeof(double);
    memcpy(u, u0, bytes);
    memset(v, 0, bytes);
    heat2d_report rep;
    heat2d_report_init(&rep);
    double seconds = 0.0;
    if ((t->method->prepare != NULL && t->method->prepare(cfg, &rep, &err) != 0) ||
        heat2d_solve(t->method, cfg, u, v, result, &seconds, &rep, &err) != 0) {
        check_fail(st, "%s: %s", t->label, err.message);
        heat2d_free_pair(u, v);
        return -1;
    }
    storage[0] = u;
    storage[1] = v;
    return 0;
}

/* (a) sin(p*pi*i/(nx-1))*sin(q*pi*j/(ny-1)) is an eigenvector of the
 * discrete update with eigenvalue
 * 1 - 4*alpha*(sin^2(p*pi/(2(nx-1))) + sin^2(q*pi/(2(ny-1)))). */
static void check_sine_mode(check_state *st, const check_target *t, size_t nx, size_t ny,
                            unsigned p, unsigned q, size_t steps)
{
    heat2d_config cfg = check_target_config(t, nx, ny, steps);
    double *mode = malloc(nx * ny * sizeof(double));
    if (mode == NULL) {
        check_fail(st, "out of memory");
        return;
    }
    const double pi = 3.14159265358979323846;
    for (size_t j = 0; j < ny; ++j)
        for (size_t i = 0; i < nx; ++i) {
            bool edge = i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
            mode[j * nx + i] = edge ? 0.0
                                    : sin(p * pi * (double)i / (double)(nx - 1)) *
                                          sin(q * pi * (double)j / (double)(ny - 1));
        }
    double sp = sin(p * pi / (2.0 * (double)(nx - 1)));
    double sq = sin(q * pi / (2.0 * (double)(ny - 1)));
    double lambda = 1.0 - 4.0 * HEAT2D_ALPHA * (sp * sp + sq * sq);
    double decay = pow(lambda, (double)steps);

    double *storage[2] = {NULL, NULL};
    double *result = NULL;
    if (run_from_state(st, t, &cfg, mode, storage, &result) == 0) {
        double worst = 0.0;
        for (size_t k = 0; k < nx * ny; ++k) {
            double err = fabs(result[k] - decay * mode[k]);
            worst = (err > worst || isnan(err)) ? err : worst;
        }
        /* Relative to the mode's amplitude: rounding grows by a few ulp per
         * step, so 1e-12 leaves room for 1000s of steps and still catches
         * any wrong coefficient, neighbour or boundary. In f32 the stated
         * bound (|mode| <= 1) is added: still far below what a wrong
         * coefficient would cost. */
        double rel = worst / decay;
        bool ok = worst <= 1e-12 * decay + f32_slack(t, steps);
        printf("INVARIANT=sine-mode method=%s grid=%zux%zu p=%u q=%u steps=%zu "
               "DECAY=%.16e MAX_REL_ERR=%.3e %s\n",
               t->label, nx, ny, p, q, steps, decay, rel, ok ? "PASS" : "FAIL");
        if (!ok)
            check_fail(st, "%s does not decay the (%u,%u) sine mode by lambda^n", t->label, p, q);
        heat2d_free_pair(storage[0], storage[1]);
    }
    free(mode);
}

static int run_standard(check_state *st, const check_target *t, size_t nx, size_t ny, size_t steps,
                        heat2d_summary *sum, double **storage, const double **field)
{
    heat2d_config cfg = check_target_config(t, nx, ny, steps);
    heat2d_outcome out;
    heat2d_error err = {{0}};
    if (heat2d_run_method(t->method, &cfg, &out, storage, field, &err) != 0) {
        check_fail(st, "%s: %s", t->label, err.message);
        return -1;
    }
    *sum = out.summary;
    return 0;
}

/* (b) No mass leaves until the front (Manhattan distance = steps from the
 * centre) touches a cell next to the boundary; afterwards mass drains. */
static void check_mass(check_state *st, const check_target *t, size_t nx, size_t ny)
{
    size_t i0 = (nx + 1) / 2 - 1;
    size_t j0 = (ny + 1) / 2 - 1;
    size_t reach = i0 - 1;
    reach = (nx - 2 - i0) < reach ? nx - 2 - i0 : reach;
    reach = (j0 - 1) < reach ? j0 - 1 : reach;
    reach = (ny - 2 - j0) < reach ? ny - 2 - j0 : reach;

    heat2d_summary before, after;
    double *storage[2];
    const double *field;
    if (run_standard(st, t, nx, ny, reach, &before, storage, &field) != 0)
        return;
    heat2d_free_pair(storage[0], storage[1]);
    size_t long_run = 40 * reach;
    if (run_standard(st, t, nx, ny, long_run, &after, storage, &field) != 0)
        return;
    heat2d_free_pair(storage[0], storage[1]);
    /* In f32 every cell may be off by the stated bound. */
    bool kept = fabs(before.mass - 1.0) <= 1e-13 + (double)(nx * ny) * f32_slack(t, reach);
    bool drained = after.mass < 1.0 - 1e-3;
    printf("INVARIANT=mass method=%s grid=%zux%zu steps=%zu MASS=%.16e steps=%zu MASS=%.16e %s\n",
           t->label, nx, ny, reach, before.mass, long_run, after.mass,
           kept && drained ? "PASS" : "FAIL");
    if (!kept)
        check_fail(st, "%s loses mass before the front reaches the boundary", t->label);
    if (!drained)
        check_fail(st, "%s keeps its mass after the front reached the boundary", t->label);
}

/* (c) On an odd grid the centre is the middle cell, so the field is
 * symmetric under i -> nx-1-i (bit for bit: the mirrored update adds the
 * same two neighbours in swapped order, and addition commutes) and under
 * j -> ny-1-j (to rounding: the south and north terms are added in the
 * other order). */
static void check_symmetry(check_state *st, const check_target *t, size_t nx, size_t ny,
                           size_t steps)
{
    heat2d_summary sum;
    double *storage[2];
    const double *f;
    if (run_standard(st, t, nx, ny, steps, &sum, storage, &f) != 0)
        return;
    size_t i_breaks = 0;
    double j_worst = 0.0;
    for (size_t j = 0; j < ny; ++j)
        for (size_t i = 0; i < nx; ++i) {
            if (f[j * nx + i] != f[j * nx + (nx - 1 - i)])
                i_breaks++;
            double d = fabs(f[j * nx + i] - f[(ny - 1 - j) * nx + i]);
            j_worst = d > j_worst ? d : j_worst;
        }
    heat2d_free_pair(storage[0], storage[1]);
    /* In f32 each of the two mirrored cells may be off by the bound. */
    bool ok = i_breaks == 0 && j_worst <= 1e-15 * sum.max + 2.0 * f32_slack(t, steps);
    printf("INVARIANT=symmetry method=%s grid=%zux%zu steps=%zu I_MIRROR_BREAKS=%zu "
           "J_MIRROR_MAX_DIFF=%.3e %s\n",
           t->label, nx, ny, steps, i_breaks, j_worst, ok ? "PASS" : "FAIL");
    if (!ok)
        check_fail(st, "%s breaks the grid's mirror symmetry", t->label);
}

void check_run(check_state *st, const check_target *targets, size_t n)
{
    for (size_t c = 0; c < N_FIELD_CASES; ++c)
        if (st->gpu || !field_cases[c].gpu_only)
            check_against_cpu(st, targets, n, field_cases[c].nx, field_cases[c].ny,
                              field_cases[c].steps);

    check_target cpu = {.method = heat2d_method_find("cpu"), .label = "cpu"};
    /* The invariants hold for every method, the reference included (in f32
     * the reference's f64 run is skipped: cpu f32 is a target). */
    for (size_t k = 0; k <= n; ++k) {
        const check_target *t = k == 0 ? &cpu : &targets[k - 1];
        if (k == 0 && (st->gpu || st->precision == HEAT2D_F32))
            continue; /* checked by the CPU check */
        check_sine_mode(st, t, 33, 25, 1, 1, 50);
        check_sine_mode(st, t, 40, 29, 3, 2, 37);
        check_mass(st, t, 41, 37);
        check_symmetry(st, t, 41, 37, 31);
    }
    check_snapshots(st, targets, n);
}

int check_keep_ready(const check_state *st, const check_target *targets, size_t n,
                     heat2d_error *err)
{
    for (size_t c = 0; c < N_FIELD_CASES; ++c) {
        if (!st->gpu && field_cases[c].gpu_only)
            continue;
        for (size_t k = 0; k <= n; ++k) {
            char path[4096];
            field_path(st, k == 0 ? "cpu" : targets[k - 1].label, field_cases[c].nx,
                       field_cases[c].ny, field_cases[c].steps, path, sizeof path);
            if (heat2d_file_check_regular(path, err) != 0 ||
                heat2d_file_check_replaceable(path, "field file", err) != 0)
                return -1;
        }
    }
    return 0;
}
