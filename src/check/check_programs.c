/* heat2d check --program: a program of the user's (program.h) on the
 * original's cases and on the shapes where a port goes wrong first, each
 * field against cpu's, one PASS or FAIL line a case. */
#include "check.h"
#include "file_replace.h"

#include <stdio.h>
#include <string.h>

/* The original's four (odd and even step counts: the wrong one of two
 * buffers), the smallest grid, odd by odd, even by odd, and a strip each
 * way (an index swapped, or a loop bound that assumes a square). */
static const struct {
    size_t nx, ny, steps;
} program_cases[] = {
    {25, 21, 7},  {25, 21, 8},  {25, 21, 31}, {25, 21, 32}, {5, 5, 3},
    {41, 37, 31}, {40, 17, 17}, {5, 64, 20},  {64, 5, 20},
};
#define N_PROGRAM_CASES (sizeof program_cases / sizeof program_cases[0])

/* cpu's field at the case's size, in this process. */
static int reference_field(size_t nx, size_t ny, size_t steps, double *storage[2],
                           const double **field, heat2d_error *err)
{
    const check_target cpu = {.method = heat2d_method_find("cpu"), .label = "cpu"};
    heat2d_config cfg = check_target_config(&cpu, nx, ny, steps);
    heat2d_outcome out;
    return heat2d_run_method(cpu.method, &cfg, &out, storage, field, err);
}

/* One program on one case; its line, and a failure counted. */
static void check_one(check_state *st, const check_programs_spec *spec, const heat2d_program *p,
                      size_t c, const double *reference)
{
    const size_t nx = program_cases[c].nx, ny = program_cases[c].ny, steps = program_cases[c].steps;
    char field[4200];
    snprintf(field, sizeof field, "%s/%s_%zux%zu_%zu.dat", st->dir, p->name, nx, ny, steps);
    const heat2d_program_run run = {
        .nx = nx, .ny = ny, .steps = steps, .field_path = field, .timeout_s = spec->timeout_s};
    heat2d_trial_values values;
    heat2d_comparison cmp = {0};
    heat2d_error why = {{0}};
    heat2d_program_ended ended;
    const bool ok =
        heat2d_program_start(p, &run, &values, &ended, &why) == 0 &&
        heat2d_program_field_check(field, nx, ny, reference, spec->tol, &cmp, &why) == 0;
    printf("PROGRAM=%s case=%zux%zu/%zu ", p->name, nx, ny, steps);
    if (ok) {
        printf("MAX_ABS_DIFF=%.6e WORST_INDEX=%zu FAILURES=0 PASS\n", cmp.max_abs_diff,
               cmp.worst_index);
    } else {
        fputs("FAIL: ", stdout);
        heat2d_put_escaped(stdout, why.message);
        fputc('\n', stdout);
        check_fail(st, "%s %zux%zu/%zu: %s", p->name, nx, ny, steps, why.message);
    }
    /* What it left would run on beside the next cases. */
    if (ended.left_running > 0)
        printf("NOTE: check: %s %zux%zu/%zu left %zu process(es) running when it exited; heat2d "
               "ended them\n",
               p->name, nx, ny, steps, ended.left_running);
}

void check_programs(check_state *st, const check_programs_spec *spec)
{
    for (size_t c = 0; c < N_PROGRAM_CASES; ++c) {
        double *storage[2] = {NULL, NULL};
        const double *reference = NULL;
        heat2d_error err = {{0}};
        if (reference_field(program_cases[c].nx, program_cases[c].ny, program_cases[c].steps,
                            storage, &reference, &err) != 0) {
            check_fail(st, "cpu: %s", err.message);
            continue;
        }
        for (size_t k = 0; k < spec->n; ++k)
            check_one(st, spec, &spec->programs[k], c, reference);
        heat2d_free_pair(storage[0], storage[1]);
    }
}

int check_programs_keep_ready(const check_state *st, const check_programs_spec *spec,
                              heat2d_error *err)
{
    for (size_t c = 0; c < N_PROGRAM_CASES; ++c)
        for (size_t k = 0; k < spec->n; ++k) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s_%zux%zu_%zu.dat", st->dir, spec->programs[k].name,
                     program_cases[c].nx, program_cases[c].ny, program_cases[c].steps);
            if (heat2d_file_check_regular(path, err) != 0 ||
                heat2d_file_check_replaceable(path, "field file", err) != 0)
                return -1;
        }
    return 0;
}
