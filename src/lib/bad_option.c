/* The message for an option getopt_long refused, naming the argument the
 * user typed. */
#define _GNU_SOURCE /* getopt_long's optopt */

#include "heat2d.h"

#include <getopt.h>
#include <string.h>

int heat2d_report_bad_option(const char *command, int argc, char *const argv[], const char *hint)
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
    return heat2d_report_error(HEAT2D_EXIT_USAGE, "%s: unknown or incomplete option '%s'%s%s",
                               command, arg, sep, hint ? hint : "");
}
