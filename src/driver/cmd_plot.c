/* heat2d plot: a field, or every record of a series, as pictures, drawn by
 * the bench's own plotting script (plot_bench.py --auto). */
#define _GNU_SOURCE
#include "child_process.h"
#include "commands.h"
#include "field_netcdf.h"
#include "plot_helper.h"
#include "plot_values.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The script's one line, "plot_bench: WHY", as WHY; false when there is
 * none (then how it ended says why). */
static bool script_line(const char *err, char *why, size_t size)
{
    const char *line = NULL;
    for (const char *l = err; l != NULL && *l != '\0'; l = strchr(l, '\n'), l = l ? l + 1 : l)
        if (strncmp(l, "plot_bench: ", 12) == 0)
            line = l + 12;
    if (line == NULL)
        return false;
    snprintf(why, size, "%.*s", (int)strcspn(line, "\n"), line);
    return true;
}

/* The pictures' default name: the input's, its extension dropped and the
 * variable and step of a .nc input kept (FILE.nc:40 -> FILE_40,
 * FILE.nc:h:40 -> FILE_h_40), in the working directory. */
static void default_stem(const char *spec, char *stem, size_t size)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", spec);
    size_t n = strlen(copy);
    while (n > 1 && copy[n - 1] == '/')
        copy[--n] = '\0';
    char *name = basename(copy);
    char *colon = strchr(name, ':');
    char tail[PATH_MAX] = "";
    if (colon != NULL) {
        snprintf(tail, sizeof tail, "%s", colon);
        *colon = '\0';
        for (char *c = tail; *c != '\0'; ++c)
            *c = *c == ':' ? '_' : *c;
    }
    char *dot = strrchr(name, '.');
    if (dot != NULL && dot != name)
        *dot = '\0';
    snprintf(stem, size, "%s%s", name, tail);
}

int heat2d_cmd_plot(int argc, char **argv)
{
    static const struct option options[] = {
        {"out", required_argument, NULL, 'o'},
        {"values", required_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    heat2d_error err = {{0}};
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (opt) {
        case 'o':
            if (optarg[0] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "plot: --out needs a name");
            out = optarg;
            break;
        case 'h':
            heat2d_usage("plot", stdout);
            return EXIT_SUCCESS;
        case 'v':
            /* The plotting script's reader (plot_values.c). */
            if (heat2d_plot_values(optarg, &err) != 0)
                return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
            return EXIT_SUCCESS;
        default:
            return heat2d_report_bad_option("plot", argc, argv, options, NULL);
        }
    }
    if (optind + 1 != argc)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, optind == argc
                                                          ? "plot: a field or series is required"
                                                          : "plot: one field or series at a time");
    const char *spec = argv[optind];
    /* The input (a .nc input's file) exists before python starts. */
    heat2d_netcdf_spec parsed;
    const int kind = heat2d_netcdf_spec_parse(spec, &parsed, &err);
    if (kind < 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    const char *input = kind == 1 ? parsed.file : spec;
    if (access(input, R_OK) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: cannot open '%s': %s", input,
                                   strerror(errno));
    /* A .nc input goes through heat2d's own reader first, whose library runs
     * in a child process: a file that would crash the plotter's is refused
     * in one line before the plotter opens it. */
    if (kind == 1 && heat2d_netcdf_check(spec, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    if (bench_check_plot_env(&err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    char stem[PATH_MAX];
    if (out != NULL)
        snprintf(stem, sizeof stem, "%s", out);
    else
        default_stem(spec, stem, sizeof stem);

    char script[PATH_MAX + 64], tried[256];
    const char *hung = NULL;
    double limit = 0.0;
    if (!bench_find_plot_script(script, sizeof script))
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "plot: plot_bench.py not found (set HEAT2D_PLOT_SCRIPT)");
    const char *python = bench_find_python(tried, sizeof tried, &hung, &limit);
    if (hung != NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "plot: %s -c 'import matplotlib' timed out after %g s", hung,
                                   limit);
    if (python == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "plot: no python with matplotlib (tried %s): apt-get install "
                                   "python3-matplotlib",
                                   tried);
    /* The script reads a .nc input through this heat2d (--values). */
    char self[PATH_MAX];
    const ssize_t self_len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (self_len > 0) {
        self[self_len] = '\0';
        setenv("HEAT2D_READER", self, 1);
    }
    char *child[] = {(char *)python, script, "--auto", (char *)spec, stem, NULL};
    heat2d_child_result cap;
    limit = bench_plot_limit(BENCH_PLOT_TIMEOUT_S);
    if (heat2d_child_run(&(heat2d_child_spec){.argv = child, .timeout_s = limit}, &cap, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    int status = EXIT_SUCCESS;
    if (cap.timed_out) {
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s %s timed out after %g s",
                                     python, script, limit);
    } else if (!heat2d_child_ok(&cap)) {
        char why[HEAT2D_MESSAGE_ROOM];
        if (!script_line(cap.err, why, sizeof why))
            heat2d_child_why(&cap, why, sizeof why);
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", why);
    } else {
        char bad[PATH_MAX], png[PATH_MAX + 8];
        char *lines = bench_plot_lines(cap.out, bad, sizeof bad);
        /* Every picture heat2d plot asks for ends in NAME.png (a series
         * also gets NAME.gif): a plotter that exits 0 without it failed. */
        snprintf(png, sizeof png, "%s.png", stem);
        if (lines == NULL)
            status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: out of memory");
        else if (bad[0] != '\0')
            status = heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                         "plot: %s was reported but is not an image", bad);
        else if (!bench_plot_reported(cap.out, png))
            status = heat2d_report_error(
                HEAT2D_EXIT_FAILURE, "plot: %s %s exited 0 without making %s", python, script, png);
        else
            fputs(lines, stdout);
        free(lines);
    }
    heat2d_child_result_free(&cap);
    return status;
}
