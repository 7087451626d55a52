/* A run's KEY=VALUE output: the seed protocol in the original's order, then
 * heat2d's own keys as the trial schema lists them. */
#include "heat2d_run.h"
#include "trial_schema.h"

const heat2d_field_def heat2d_trial_fields[HEAT2D_N_FIELDS] = {
#define FIELD_DEF(id, key, column, type, shown, value) {key, column, HEAT2D_##type},
    HEAT2D_TRIAL_FIELDS(FIELD_DEF)
#undef FIELD_DEF
};

static void print_REAL(FILE *stream, const char *key, double value)
{
    fprintf(stream, "%s=%24.16E\n", key, value);
}

static void print_COUNT(FILE *stream, const char *key, unsigned long long value)
{
    fprintf(stream, "%s=%llu\n", key, value);
}

void heat2d_print_name(FILE *stream, const char *key, const char *text)
{
    fprintf(stream, "%s=", key);
    heat2d_put_escaped(stream, text);
    fputc('\n', stream);
}

/* A text value may come from outside (a GPU's name): escaped as names are. */
static void print_TEXT(FILE *stream, const char *key, const char *value)
{
    heat2d_print_name(stream, key, value);
}

static void print_DIMS(FILE *stream, const char *key, const int *dims)
{
    fprintf(stream, "%s=%dx%d\n", key, dims[0], dims[1]);
}

void heat2d_print_outcome(FILE *stream, const heat2d_method *m, const heat2d_config *cfg,
                          const heat2d_outcome *out)
{
    const heat2d_report *rep = &out->report;
    /* The seed protocol, in the seed's order. */
    fprintf(stream, "METHOD=%s\n", m->seed_name);
    fprintf(stream, "NX=%zu\n", cfg->nx);
    fprintf(stream, "NY=%zu\n", cfg->ny);
    print_REAL(stream, "MASS", out->summary.mass);
    print_REAL(stream, "CENTRE", out->summary.centre);
    print_REAL(stream, "MIN", out->summary.min);
    print_REAL(stream, "MAX", out->summary.max);
    print_REAL(stream, "TOTAL_S", out->total_s);
    fprintf(stream, "CHECK=PASS\n");
    for (size_t k = 0; k < rep->n_phases; ++k)
        print_REAL(stream, rep->phases[k].key, rep->phases[k].seconds);

        /* heat2d's own keys; the seed's parser ignores keys it does not know. */
#define PRINT_FIELD(id, key, column, type, shown, value)                                           \
    if (shown)                                                                                     \
        print_##type(stream, key, value);
    HEAT2D_TRIAL_FIELDS(PRINT_FIELD)
#undef PRINT_FIELD
}
