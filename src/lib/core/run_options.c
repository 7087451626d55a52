/* The table of run options (run_options.h) as data, and what every user of
 * it shares: which options a set of values asks for, the configuration and
 * the label they make, and the synopsis of a usage text. */
#include "run_options.h"
#include "heat2d_args.h"

#include <getopt.h>
#include <string.h>

int heat2d_option_count(const heat2d_option_def *o, const char *text, size_t *v, heat2d_error *err)
{
    char what[48];
    snprintf(what, sizeof what, "--%s", o->name);
    return heat2d_parse_size(text, what, v, err);
}

/* The k-th of ARG's names ("f64|f32") into buf; false past the last. */
static bool choice_name(const char *arg, size_t k, char *buf, size_t size)
{
    const char *p = arg;
    for (size_t n = 0; n < k; ++n) {
        p = strchr(p, '|');
        if (p == NULL)
            return false;
        p++;
    }
    snprintf(buf, size, "%.*s", (int)strcspn(p, "|"), p);
    return true;
}

int heat2d_option_choice(const heat2d_option_def *o, const char *text, size_t *v, heat2d_error *err)
{
    char name[32], names[128] = "";
    size_t used = 0;
    for (size_t k = 0; choice_name(o->arg, k, name, sizeof name); ++k) {
        if (strcmp(text, name) == 0) {
            *v = k;
            return 0;
        }
        used += (size_t)snprintf(names + used, used < sizeof names ? sizeof names - used : 0,
                                 "%s%s", k ? ", " : "", name);
    }
    return heat2d_fail(err, "--%s '%s' is not one of %s", o->name, text, names);
}

void heat2d_option_count_text(const heat2d_option_def *o, size_t v, char *buf, size_t size)
{
    (void)o;
    snprintf(buf, size, "%zu", v);
}

void heat2d_option_choice_text(const heat2d_option_def *o, size_t v, char *buf, size_t size)
{
    if (!choice_name(o->arg, v, buf, size))
        snprintf(buf, size, "%zu", v);
}

/* Each row's TAKES as a predicate over a method. */
#define HEAT2D_OPTION_TAKES(id, name, arg, set, parse, text, takes, ...)                           \
    static bool option_takes_##id(const heat2d_method *m)                                          \
    {                                                                                              \
        (void)m;                                                                                   \
        return takes;                                                                              \
    }
HEAT2D_RUN_OPTIONS(HEAT2D_OPTION_TAKES)
#undef HEAT2D_OPTION_TAKES

const heat2d_option_def heat2d_run_options[HEAT2D_N_OPTIONS] = {
#define HEAT2D_OPTION_DEF(id, name_, arg_, set, parse_, text_, takes_expr, refusal_, plain_,       \
                          with_, needs_, label_, pass_, column_, run_help_, bench_)                \
    [HEAT2D_OPTION_##id] = {.name = name_,                                                         \
                            .arg = arg_,                                                           \
                            .parse = parse_,                                                       \
                            .text = text_,                                                         \
                            .takes = option_takes_##id,                                            \
                            .refusal = refusal_,                                                   \
                            .plain = plain_,                                                       \
                            .with = HEAT2D_OPTION_##with_,                                         \
                            .needs = HEAT2D_OPTION_##needs_,                                       \
                            .label = label_,                                                       \
                            .pass = HEAT2D_PASS_##pass_,                                           \
                            .column = HEAT2D_FIELD_##column_,                                      \
                            .run_help = run_help_,                                                 \
                            .bench = bench_},
    HEAT2D_RUN_OPTIONS(HEAT2D_OPTION_DEF)
#undef HEAT2D_OPTION_DEF
};

bool heat2d_option_asked(const size_t *values, heat2d_option_id id)
{
    return values[id] > heat2d_run_options[id].plain;
}

bool heat2d_option_shown(const size_t *values, heat2d_option_id id)
{
    const heat2d_option_id with = heat2d_run_options[id].with;
    return with != HEAT2D_OPTION_NONE ? heat2d_option_shown(values, with)
                                      : heat2d_option_asked(values, id);
}

void heat2d_options_to_config(const size_t *values, heat2d_config *cfg)
{
#define HEAT2D_OPTION_SET(id, name, arg, field, ...) field = values[HEAT2D_OPTION_##id];
    HEAT2D_RUN_OPTIONS(HEAT2D_OPTION_SET)
#undef HEAT2D_OPTION_SET
}

void heat2d_options_from_config(const heat2d_config *cfg, size_t *values)
{
#define HEAT2D_OPTION_GET(id, name, arg, field, ...) values[HEAT2D_OPTION_##id] = (size_t)(field);
    HEAT2D_RUN_OPTIONS(HEAT2D_OPTION_GET)
#undef HEAT2D_OPTION_GET
}

void heat2d_option_refusal(heat2d_option_id id, const char *name, const char *those, char *buf,
                           size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *p = heat2d_run_options[id].refusal; *p != '\0' && used + 1 < size; ++p) {
        const char *put = NULL;
        if (p[0] == '%' && p[1] == 'M')
            put = name;
        else if (p[0] == '%' && p[1] == 'T')
            put = those[0] != '\0' ? those : "no method of this build";
        if (put == NULL) {
            buf[used++] = *p;
            buf[used] = '\0';
            continue;
        }
        used += (size_t)snprintf(buf + used, size - used, "%s", put);
        used = used < size ? used : size - 1;
        p++;
    }
}

void heat2d_method_label(char *buf, size_t size, const char *name, const size_t *values,
                         unsigned omit)
{
    heat2d_option_values kept;
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k)
        kept[k] = (omit >> k) & 1u ? 0 : values[k];
    int used = snprintf(buf, size, "%s", name);
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        if (o->label == NULL || !heat2d_option_shown(kept, (heat2d_option_id)k) || used < 0 ||
            (size_t)used >= size)
            continue;
        char text[32] = "";
        if (o->text != NULL)
            o->text(o, kept[k], text, sizeof text);
        used += snprintf(buf + used, size - (size_t)used, "%s%s", o->label, text);
    }
}

/* One synopsis item, on the line or after a break and the indent. */
static size_t put_item(FILE *f, const char *item, size_t col, size_t indent)
{
    const size_t len = strlen(item);
    if (col > indent && col + 1 + len > 80) {
        fprintf(f, "\n%*s", (int)indent, "");
        col = indent;
    } else if (col > indent) {
        fputc(' ', f);
        col++;
    }
    fputs(item, f);
    return col + len;
}

/* Whether o is one of run's options (bench: one of the bench's lists). */
static bool listed(const heat2d_option_def *o, bool bench)
{
    return bench ? o->bench.is_list : o->run_help != NULL;
}

size_t heat2d_options_synopsis(FILE *f, bool bench, size_t col, size_t indent)
{
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        if (!listed(o, bench))
            continue;
        const char *arg = bench ? "LIST" : o->arg;
        char item[96];
        snprintf(item, sizeof item, "[--%s%s%s]", o->name, arg != NULL ? " " : "",
                 arg != NULL ? arg : "");
        col = put_item(f, item, col, indent);
    }
    return col;
}

void heat2d_options_usage_lead(FILE *f, const char *lead, bool bench, size_t indent)
{
    fputs(lead, f);
    const char *last = strrchr(lead, '\n');
    heat2d_options_synopsis(f, bench, strlen(last != NULL ? last + 1 : lead), indent);
}

void heat2d_options_help(FILE *f, bool bench)
{
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        if (listed(o, bench))
            fputs(bench ? o->bench.help : o->run_help, f);
    }
}

size_t heat2d_options_getopt(struct option *out, bool bench, int base)
{
    size_t n = 0;
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        if (listed(o, bench))
            out[n++] =
                (struct option){o->name, bench || o->arg != NULL ? required_argument : no_argument,
                                NULL, base + (int)k};
    }
    return n;
}
