/* A program of the user's that speaks the original's protocol (program.h):
 * its name, its run, its output and its field. */
#define _GNU_SOURCE
#include "program.h"
#include "child_process.h"
#include "heat2d.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool name_char(char c, bool first)
{
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    return alnum || (!first && (c == '.' || c == '_' || c == '-'));
}

/* NAME's words: a label in tables and file names. */
static int check_name(const char *option, const char *name, size_t len, heat2d_error *err)
{
    if (len == 0 || len > HEAT2D_PROGRAM_NAME_MAX)
        return heat2d_fail(err, "%s '%.*s': a NAME of 1 to %d characters before '='", option,
                           (int)len, name, HEAT2D_PROGRAM_NAME_MAX);
    for (size_t k = 0; k < len; ++k)
        if (!name_char(name[k], k == 0))
            return heat2d_fail(err,
                               "%s NAME '%.*s': letters, digits, '.', '_' and '-' (a letter or "
                               "digit first)",
                               option, (int)len, name);
    return 0;
}

int heat2d_program_parse(const char *option, const char *text, heat2d_program *p, heat2d_error *err)
{
    memset(p, 0, sizeof *p);
    const char *eq = strchr(text, '=');
    if (eq == NULL || eq[1] == '\0')
        return heat2d_fail(err, "%s '%s': expected NAME=PATH, e.g. f-cpu=./reference_cpu", option,
                           text);
    const size_t len = (size_t)(eq - text);
    if (check_name(option, text, len, err) != 0)
        return -1;
    memcpy(p->name, text, len);
    char found[4096];
    int rc = heat2d_find_program(eq + 1, found, sizeof found);
    struct stat st;
    if (rc == 0 && stat(found, &st) != 0)
        rc = errno;
    else if (rc == 0 && !S_ISREG(st.st_mode))
        rc = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
    else if (rc == 0 && access(found, X_OK) != 0)
        rc = errno;
    if (rc != 0)
        return heat2d_fail(err, "%s %s: cannot run %s: %s", option, p->name, eq + 1, strerror(rc));
    /* Absolute: the record names it, and no working directory matters. */
    if (realpath(found, p->path) == NULL)
        return heat2d_fail(err, "%s %s: cannot resolve %s: %s", option, p->name, eq + 1,
                           strerror(errno));
    return 0;
}

int heat2d_program_add(const char *option, const char *text, heat2d_program *list, size_t *n,
                       size_t max, heat2d_error *err)
{
    if (*n == max)
        return heat2d_fail(err, "%s: at most %zu programs", option, max);
    heat2d_program *p = &list[*n];
    if (heat2d_program_parse(option, text, p, err) != 0)
        return -1;
    for (size_t k = 0; k < *n; ++k)
        if (strcmp(list[k].name, p->name) == 0)
            return heat2d_fail(err, "%s %s is given twice", option, p->name);
    ++*n;
    return 0;
}

int heat2d_parse_timeout(const char *option, const char *text, double *seconds, heat2d_error *err)
{
    double s = 0.0;
    if (heat2d_parse_nonneg_real(text, option, &s, NULL) != 0 || s <= 0.0)
        return heat2d_fail(err, "%s must be a positive number of seconds, got '%s'", option, text);
    *seconds = s;
    return 0;
}

int heat2d_parse_tolerance(const char *option, const char *text, heat2d_tolerance *tol,
                           heat2d_error *err)
{
    const char *comma = strchr(text, ',');
    char atol[64];
    if (comma == NULL || (size_t)(comma - text) >= sizeof atol)
        return heat2d_fail(err, "%s '%s': expected ATOL,RTOL, e.g. 2e-12,2e-10", option, text);
    snprintf(atol, sizeof atol, "%.*s", (int)(comma - text), text);
    heat2d_tolerance t;
    if (heat2d_parse_nonneg_real(atol, "ATOL", &t.atol, NULL) != 0 ||
        heat2d_parse_nonneg_real(comma + 1, "RTOL", &t.rtol, NULL) != 0)
        return heat2d_fail(err, "%s '%s': ATOL and RTOL must be non-negative numbers", option,
                           text);
    *tol = t;
    return 0;
}

int heat2d_program_start(const heat2d_program *p, const heat2d_program_run *run,
                         heat2d_trial_values *values, heat2d_program_ended *ended,
                         heat2d_error *why)
{
    char nx[32], ny[32], steps[32];
    snprintf(nx, sizeof nx, "%zu", run->nx);
    snprintf(ny, sizeof ny, "%zu", run->ny);
    snprintf(steps, sizeof steps, "%zu", run->steps);
    char *argv[] = {(char *)p->path, nx, ny, steps, (char *)run->field_path, NULL};
    /* Its stdout is its report: more than is kept cannot be one. */
    const heat2d_child_spec spec = {.argv = argv,
                                    .envp = run->envp,
                                    .timeout_s = run->timeout_s,
                                    .stop = run->stop,
                                    .flood_stops = true,
                                    .max_processes = HEAT2D_PROGRAM_MAX_PROCESSES};
    heat2d_child_result res;
    *ended = (heat2d_program_ended){0};
    if (heat2d_child_run(&spec, &res, why) != 0)
        return -1;
    *ended = (heat2d_program_ended){.wall_s = res.wall_s, .left_running = res.left_running};
    int rc = 0;
    if (!heat2d_child_ok(&res)) {
        char how[HEAT2D_MESSAGE_ROOM];
        heat2d_child_why(&res, how, sizeof how);
        rc = heat2d_fail(why, "%s", how);
    } else {
        /* A NUL (a Fortran string's padding) ends its line, not the whole
         * output: the lines after it are read. */
        for (size_t k = 0; k < res.out_len; ++k)
            res.out[k] = res.out[k] == '\0' ? '\n' : res.out[k];
        rc = heat2d_trial_read(res.out, run->nx, run->ny, run->steps, HEAT2D_FROM_PROGRAM, values,
                               why);
    }
    heat2d_child_result_free(&res);
    return rc;
}

int heat2d_program_field_check(const char *path, size_t nx, size_t ny, const double *reference,
                               heat2d_tolerance tol, heat2d_comparison *cmp, heat2d_error *why)
{
    heat2d_field field;
    heat2d_error err = {{0}};
    if (heat2d_field_read_regular(path, &field, &err) != 0)
        return heat2d_fail(why, "its field: %s", err.message);
    if (field.nx != nx || field.ny != ny) {
        heat2d_fail(why, "its field is %zux%zu, not %zux%zu", field.nx, field.ny, nx, ny);
        heat2d_field_free(&field);
        return -1;
    }
    heat2d_comparison c;
    heat2d_compare_arrays(reference, field.values, nx * ny, tol, &c);
    heat2d_field_free(&field);
    if (cmp != NULL)
        *cmp = c;
    if (c.failures == 0)
        return 0;
    return heat2d_fail(why,
                       "its field differs from cpu's in %zu of %zu cells (atol %g, rtol %g): the "
                       "worst at i=%zu j=%zu (index %zu, from 0), |diff| %.6e",
                       c.failures, nx * ny, tol.atol, tol.rtol, c.worst_index % nx,
                       c.worst_index / nx, c.worst_index, c.max_abs_diff);
}
