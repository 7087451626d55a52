/* The message for an option getopt_long refused, naming the argument the
 * user typed and, where one is near, the option they meant. */
#define _GNU_SOURCE /* getopt_long's optopt */

#include "heat2d_progress.h"

#include <getopt.h>
#include <string.h>

size_t heat2d_typo_distance(size_t len)
{
    return len <= 3 ? 1 : len <= 8 ? 2 : 3;
}

size_t heat2d_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return SIZE_MAX;
    size_t row[64];
    for (size_t j = 0; j <= lb; ++j)
        row[j] = j;
    for (size_t i = 1; i <= la; ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; ++j) {
            size_t above = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            best = above + 1 < best ? above + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

/* " (did you mean --NAME?)" for the option nearest to the word typed (its
 * dashes and any =VALUE taken off), or the options it abbreviates when it
 * is ambiguous; "" when none is near. */
static void nearest_text(const char *arg, const struct option *options, char *buf, size_t size)
{
    buf[0] = '\0';
    if (options == NULL)
        return;
    while (*arg == '-')
        arg++;
    char word[64];
    size_t len = strcspn(arg, "=");
    if (len == 0 || len >= sizeof word)
        return;
    memcpy(word, arg, len);
    word[len] = '\0';

    size_t n_prefixed = 0, used = 0;
    for (const struct option *o = options; o->name != NULL; ++o)
        if (strncmp(o->name, word, len) == 0 && strlen(o->name) > len) {
            used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s--%s",
                                     n_prefixed ? ", " : " (it abbreviates ", o->name);
            n_prefixed++;
        }
    if (n_prefixed > 1) {
        if (used < size)
            snprintf(buf + used, size - used, ")");
        return;
    }
    buf[0] = '\0';
    const char *best = NULL;
    size_t best_distance = SIZE_MAX;
    for (const struct option *o = options; o->name != NULL; ++o) {
        size_t d = heat2d_edit_distance(word, o->name);
        if (d < best_distance) {
            best_distance = d;
            best = o->name;
        }
    }
    if (best != NULL && best_distance <= heat2d_typo_distance(len))
        snprintf(buf, size, " (did you mean --%s?)", best);
}

int heat2d_report_bad_option(const char *command, int argc, char *const argv[],
                             const struct option *options, const char *hint)
{
    /* getopt_long stays on an element while it walks a cluster of short
     * options ("-method" is -m -e -t ...): the culprit is then argv[optind],
     * not the element before it. */
    const char *arg = argv[optind - 1];
    if (optopt != 0 && optind < argc && argv[optind][0] == '-' && argv[optind][1] == optopt &&
        argv[optind][2] != '\0')
        arg = argv[optind];
    const char *sep = hint ? " " : "";
    if (arg[0] == '-' && arg[1] != '-' && arg[1] != '\0' && arg[2] != '\0')
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "%s: unknown option '%s' (options take two dashes: -%s)%s%s",
                                   command, arg, arg, sep, hint ? hint : "");
    /* A known option that needs a value and came last without one, or
     * one that takes none given one. */
    if (options != NULL && arg[0] == '-' && arg[1] == '-')
        for (const struct option *o = options; o->name != NULL; ++o) {
            size_t len = strlen(o->name);
            if (strncmp(arg + 2, o->name, len) != 0)
                continue;
            if (o->has_arg == required_argument && arg[2 + len] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "%s: option '%s' needs a value%s%s",
                                           command, arg, sep, hint ? hint : "");
            if (o->has_arg == no_argument && arg[2 + len] == '=')
                return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                           "%s: option '--%s' takes no value, got '%s'%s%s",
                                           command, o->name, arg, sep, hint ? hint : "");
        }
    /* A long option's near miss; a short one ("-x") is no typo of one. */
    char nearest[512] = "";
    if (arg[0] == '-' && arg[1] == '-')
        nearest_text(arg, options, nearest, sizeof nearest);
    return heat2d_report_error(HEAT2D_EXIT_USAGE, "%s: unknown option '%s'%s%s%s", command, arg,
                               nearest, sep, hint ? hint : "");
}
