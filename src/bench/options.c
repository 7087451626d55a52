/* heat2d bench: the command line, into options that the plan reads. */
#define _GNU_SOURCE
#include "options.h"
#include "plan.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

void bench_usage(FILE *stream)
{
    static const char lead[] =
        "usage: heat2d bench [--methods LIST] [--sizes NXxNY:STEPS,...] [--warmups K]\n"
        "                    [--repeats K] [--out DIR] [--pinned-too] [--weak NXxNY:STEPS]\n"
        "                    [--budget S | --full] [--program NAME=PATH]...\n"
        "                    [--program-tolerance ATOL,RTOL] [--program-timeout S]";
    heat2d_options_usage_lead(stream, lead, true, 20);
    fputs("\n\n"
          "  --methods LIST  comma-separated; default: every method this build and machine\n"
          "                  can run, with a -pinned twin of each method that has one\n"
          "  --pinned-too    with --methods: add the -pinned twin of each listed method\n"
          "  --sizes LIST    default with a GPU: " BENCH_GPU_LADDER "\n"
          "                  without one: " BENCH_CPU_LADDER "\n"
          "  --warmups K     unrecorded runs per method and size (default 1)\n"
          "  --repeats K     recorded trials per method and size (default 5)\n"
          "  --budget S      seconds of runs a method may take at a size (default 20): one\n"
          "                  that would take longer gets fewer trials (at least one) and no\n"
          "                  warm-up, and the summary says so; 0 for no limit\n"
          "  --full          every warm-up and trial at every size (--budget 0)\n"
          "  --weak SIZE     with --ranks: weak scaling too, SIZE per rank: at P ranks the\n"
          "                  grid is (NX*P)xNY, STEPS steps\n"
          "  --program NAME=PATH  a program of yours in the rotation, as the row NAME: run as\n"
          "                  PATH NX NY STEPS FIELD_FILE, it prints CHECK=PASS and TOTAL_S=\n"
          "                  (the original's protocol); every run's field is held to cpu's\n"
          "  --program-tolerance ATOL,RTOL  per cell |cpu-it| <= ATOL + RTOL*|cpu|\n"
          "                  (default 2e-12,2e-10, the original's)\n"
          "  --program-timeout S  seconds one run of a program may take (default 600)\n",
          stream);
    heat2d_options_help(stream, true);
    fputs("  --out DIR       default results/HOST-YYYYMMDD-HHMMSS-PID-XXXX; an existing\n"
          "                  folder's trials.csv is appended to (by one bench at a time)\n"
          "\n"
          "Writes trials.csv, environment.txt, summary.md and PNG plots into DIR and prints\n"
          "the summary. Exits 1 when any trial failed, 2 for a bad command line.\n",
          stream);
}

/* The bench's own options, then its lists from the table of run options
 * (getopt's value: the option's id past kListBase). */
enum { kListBase = 256 };
static const struct option own_options[] = {
    HEAT2D_OPTION_ARG("methods", 'm'),
    HEAT2D_OPTION_ARG("sizes", 's'),
    HEAT2D_OPTION_ARG("warmups", 'w'),
    HEAT2D_OPTION_ARG("repeats", 'r'),
    HEAT2D_OPTION_ARG("budget", 'b'),
    HEAT2D_OPTION_FLAG("full", 'F'),
    HEAT2D_OPTION_ARG("out", 'o'),
    HEAT2D_OPTION_FLAG("pinned-too", 'p'),
    HEAT2D_OPTION_ARG("weak", 'k'),
    HEAT2D_OPTION_FLAG("help", 'h'),
    HEAT2D_OPTION_ARG("program", 'P'),
    HEAT2D_OPTION_ARG("program-tolerance", 'T'),
    HEAT2D_OPTION_ARG("program-timeout", 'L'),
};
#define N_OWN_OPTIONS (sizeof own_options / sizeof own_options[0])
#define N_OPTIONS     (N_OWN_OPTIONS + HEAT2D_N_OPTIONS + 1)

static void build_options(struct option options[N_OPTIONS])
{
    memcpy(options, own_options, sizeof own_options);
    size_t n = N_OWN_OPTIONS + heat2d_options_getopt(options + N_OWN_OPTIONS, true, kListBase);
    options[n] = (struct option){NULL, 0, NULL, 0};
}

/* One option getopt returned into o: 0, -1 with err, or -2 for one that is
 * not the bench's. */
static int take_option(int opt, const char *arg, bench_options *o, heat2d_error *err)
{
    switch (opt) {
    case 'm':
        o->methods = arg;
        return 0;
    case 's':
        o->sizes = arg;
        return 0;
    case 'w':
        /* No warm-up at all is a valid choice; no trial is not. */
        if (arg[0] != '\0' && strspn(arg, "0") == strlen(arg))
            o->warmups = 0;
        else if (heat2d_parse_size(arg, "--warmups", &o->warmups, NULL) != 0)
            return heat2d_fail(err, "--warmups must be a non-negative integer, got '%s'", arg);
        return 0;
    case 'b':
        return heat2d_parse_nonneg_real(arg, "--budget", &o->budget_s, err);
    case 'F':
        o->budget_s = 0.0;
        return 0;
    case 'r':
        return heat2d_parse_size(arg, "--repeats", &o->repeats, err);
    case 'o':
        o->out = arg;
        return arg[0] == '\0' ? heat2d_fail(err, "--out needs a folder name") : 0;
    case 'p':
        o->pinned_too = true;
        return 0;
    case 'k':
        o->weak = arg;
        return 0;
    case 'P':
        return heat2d_program_add("--program", arg, o->programs, &o->n_programs, BENCH_MAX_PROGRAMS,
                                  err);
    case 'T':
        return heat2d_parse_tolerance("--program-tolerance", arg, &o->program_tol, err);
    case 'L':
        return heat2d_parse_timeout("--program-timeout", arg, &o->program_timeout_s, err);
    default:
        if (opt < kListBase || opt >= kListBase + HEAT2D_N_OPTIONS)
            return -2;
        o->list[opt - kListBase] = arg;
        return 0;
    }
}

/* Returns -1 to go on, else the exit status. */
int bench_parse_options(int argc, char **argv, bench_options *o)
{
    struct option options[N_OPTIONS];
    build_options(options);
    *o = (bench_options){.warmups = 1,
                         .repeats = 5,
                         .budget_s = BENCH_DEFAULT_BUDGET_S,
                         .program_tol = {HEAT2D_DEFAULT_ATOL, HEAT2D_DEFAULT_RTOL},
                         .program_timeout_s = BENCH_PROGRAM_TIMEOUT_S};
    heat2d_error err = {{0}};
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (opt == 'h') {
            bench_usage(stdout);
            return EXIT_SUCCESS;
        }
        const int rc = take_option(opt, optarg, o, &err);
        if (rc == -2)
            return heat2d_report_bad_option("bench", argc, argv, options, "(heat2d bench --help)");
        if (rc != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
    }
    if (optind < argc)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: unexpected argument '%s'",
                                   argv[optind]);
    return -1;
}
