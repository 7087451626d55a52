/* A run's KEY=VALUE lines read back, field by field as the trial schema
 * lists them, and output that does not hold up refused (trial_read.h). */
#include "heat2d.h"
#include "trial_read.h"

#include <stdio.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void trim(const char **begin, const char **end)
{
    while (*begin < *end && (**begin == ' ' || **begin == '\t'))
        (*begin)++;
    while (*end > *begin && ((*end)[-1] == ' ' || (*end)[-1] == '\t' || (*end)[-1] == '\r'))
        (*end)--;
}

static void copy_value(char *slot, size_t slot_size, const char *begin, size_t len)
{
    if (len >= slot_size)
        len = slot_size - 1;
    memcpy(slot, begin, len);
    slot[len] = '\0';
}

static int check_size(const char *key, const char *value, size_t want, heat2d_error *err)
{
    size_t got = 0;
    if (value[0] == '\0')
        return 0; /* older children may not print it; nothing to compare */
    if (heat2d_parse_size(value, key, &got, NULL) != 0 || got != want)
        return heat2d_fail(err, "it reported %s=%s, asked for %zu", key, value, want);
    return 0;
}

/* A real as a program may print it: as C reads it, else in a form the
 * field reader takes (a Fortran original's "1.0-271" or 1.0D-3), then
 * rewritten in full precision as C prints it, so that every reader of the
 * value (trials.csv's) takes it. */
static bool program_real(char *v, size_t size, double *x)
{
    char *end = NULL;
    *x = strtod(v, &end);
    if (end != v && *end == '\0')
        return true;
    if (heat2d_parse_real(v, strlen(v), x) != 0)
        return false;
    snprintf(v, size, "%.17g", *x);
    return true;
}

/* A value well formed for its type; text is anything. */
static int check_type(const heat2d_field_def *def, char *v, size_t size, heat2d_trial_source source,
                      heat2d_error *err)
{
    char *end = NULL;
    errno = 0;
    switch (def->type) {
    case HEAT2D_COUNT:
        if (v[0] == '-' || (strtoull(v, &end, 10), errno != 0) || *end != '\0')
            return heat2d_fail(err, "%s=%s is not a count", def->key, v);
        return 0;
    case HEAT2D_REAL: {
        char shown[128];
        snprintf(shown, sizeof shown, "%s", v);
        double x = 0.0;
        const bool number = source == HEAT2D_FROM_PROGRAM
                                ? program_real(v, size, &x)
                                : (x = strtod(v, &end), end != v && *end == '\0');
        if (!number || !isfinite(x))
            return heat2d_fail(err, "%s=%s is not a finite number", def->key, shown);
        return 0;
    }
    case HEAT2D_TEXT:
    case HEAT2D_DIMS:
        return 0;
    }
    return 0;
}

/* The keys a program's output may set: the original's protocol (the seed
 * block and the phases). Whatever else it prints (PRECISION=, RANKS=,
 * DEVICE=, ...) is not its to say: the bench knows its own columns. */
static const heat2d_field_id protocol_keys[] = {
    HEAT2D_FIELD_NX,         HEAT2D_FIELD_NY,      HEAT2D_FIELD_TOTAL_S,
    HEAT2D_FIELD_MASS,       HEAT2D_FIELD_CENTRE,  HEAT2D_FIELD_MIN,
    HEAT2D_FIELD_MAX,        HEAT2D_FIELD_ENTER_S, HEAT2D_FIELD_GPU_LOOP_S,
    HEAT2D_FIELD_READBACK_S, HEAT2D_FIELD_EXIT_S,  HEAT2D_FIELD_STEP_REGIONS_S,
    HEAT2D_FIELD_CPU_LOOP_S,
};

/* Whether source's output sets field k. */
static bool takes(heat2d_trial_source source, size_t k)
{
    if (heat2d_trial_fields[k].key == NULL)
        return false;
    if (source == HEAT2D_FROM_RUN)
        return true;
    for (size_t p = 0; p < sizeof protocol_keys / sizeof protocol_keys[0]; ++p)
        if ((size_t)protocol_keys[p] == k)
            return true;
    return false;
}

int heat2d_trial_read(const char *text, size_t nx, size_t ny, size_t steps,
                      heat2d_trial_source source, heat2d_trial_values *res, heat2d_error *err)
{
    memset(res, 0, sizeof *res);
    char check[32] = "";
    const char *line = text;
    while (*line != '\0') {
        const char *eol = strchr(line, '\n');
        if (eol == NULL)
            eol = line + strlen(line);
        const char *eq = memchr(line, '=', (size_t)(eol - line));
        if (eq != NULL) {
            const char *kb = line, *ke = eq, *vb = eq + 1, *ve = eol;
            trim(&kb, &ke);
            trim(&vb, &ve);
            const size_t klen = (size_t)(ke - kb), vlen = (size_t)(ve - vb);
            if (klen == 5 && memcmp(kb, "CHECK", 5) == 0)
                copy_value(check, sizeof check, vb, vlen);
            for (size_t k = 0; k < HEAT2D_N_FIELDS; ++k) {
                const char *key = heat2d_trial_fields[k].key;
                if (takes(source, k) && strlen(key) == klen && memcmp(key, kb, klen) == 0)
                    copy_value(res->value[k], sizeof res->value[k], vb, vlen);
            }
        }
        line = *eol == '\n' ? eol + 1 : eol;
    }

    if (strcmp(check, "PASS") != 0)
        return heat2d_fail(err, "no CHECK=PASS in its output");
    if (check_size("NX", res->value[HEAT2D_FIELD_NX], nx, err) != 0 ||
        check_size("NY", res->value[HEAT2D_FIELD_NY], ny, err) != 0 ||
        check_size("STEPS", res->value[HEAT2D_FIELD_STEPS], steps, err) != 0)
        return -1;
    for (size_t k = 0; k < HEAT2D_N_FIELDS; ++k)
        if (res->value[k][0] != '\0' &&
            check_type(&heat2d_trial_fields[k], res->value[k], sizeof res->value[k], source, err))
            return -1;
    /* The original's protocol is double precision, and says nothing of
     * it. */
    if (source == HEAT2D_FROM_PROGRAM)
        snprintf(res->value[HEAT2D_FIELD_PRECISION], sizeof res->value[0], "%s",
                 heat2d_precision_name(HEAT2D_F64));
    if (res->value[HEAT2D_FIELD_TOTAL_S][0] == '\0')
        return heat2d_fail(err, "no TOTAL_S in its output");
    res->total_s = strtod(res->value[HEAT2D_FIELD_TOTAL_S], NULL);
    if (res->total_s < 0.0)
        return heat2d_fail(err, "negative TOTAL_S=%s", res->value[HEAT2D_FIELD_TOTAL_S]);
    return 0;
}
