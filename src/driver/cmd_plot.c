/* heat2d plot: a field, or every record of a series, as pictures, drawn by
 * the bench's own plotting script (plot_bench.py --auto), on the colour
 * scale asked for (--scale, --vmin, --vmax, --cmap) or chosen by it. */
#define _GNU_SOURCE
#include "child_process.h"
#include "commands.h"
#include "field_netcdf.h"
#include "plot_helper.h"
#include "plot_values.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
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

/* What heat2d plot was asked: the input, the pictures' name and the scale's
 * options as given (NULL when not). */
typedef struct plot_request {
    const char *spec;
    const char *out;
    const char *scale;
    const char *vmin;
    const char *vmax;
    const char *cmap;
} plot_request;

enum { PLOT_GO_ON = -1 };

/* The command line into *req: PLOT_GO_ON, or the exit status when it is
 * done (--help, --values, a refusal). */
static int parse_plot_options(int argc, char **argv, plot_request *req)
{
    static const struct option options[] = {
        HEAT2D_OPTION_ARG("out", 'o'),   HEAT2D_OPTION_ARG("values", 'v'),
        HEAT2D_OPTION_ARG("scale", 's'), HEAT2D_OPTION_ARG("vmin", 'l'),
        HEAT2D_OPTION_ARG("vmax", 'u'),  HEAT2D_OPTION_ARG("cmap", 'c'),
        HEAT2D_OPTION_FLAG("help", 'h'), {NULL, 0, NULL, 0},
    };
    heat2d_error err = {{0}};
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (opt) {
        case 'o':
            if (optarg[0] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "plot: --out needs a name");
            req->out = optarg;
            break;
        case 's':
            req->scale = optarg;
            break;
        case 'l':
            req->vmin = optarg;
            break;
        case 'u':
            req->vmax = optarg;
            break;
        case 'c':
            req->cmap = optarg;
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
    req->spec = argv[optind];
    return PLOT_GO_ON;
}

/* A scale limit's text as a finite number; *given false when absent. */
static int scale_limit(const char *option, const char *text, double *value, bool *given)
{
    *given = text != NULL;
    if (text != NULL && (heat2d_parse_real(text, strlen(text), value) != 0 || !isfinite(*value)))
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "plot: %s %s: not a finite number", option,
                                   text);
    return 0;
}

/* Limits matplotlib's colour bar can draw: beyond 1e200 in size (or a log
 * scale from below 1e-200) its ticks overflow or its norm refuses, which
 * would end the plotter in an exception. */
#define PLOT_LIMIT_MAX 1e200
#define PLOT_LOG_FLOOR 1e-200

/* A limit of the size the plotter can draw; *given false when absent. */
static int drawable_limit(const char *option, const char *text, double *value, bool *given)
{
    if (scale_limit(option, text, value, given) != 0)
        return -1;
    if (*given && fabs(*value) > PLOT_LIMIT_MAX)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "plot: %s %s: too large for a colour scale (at most %g in size)",
                                   option, text, PLOT_LIMIT_MAX);
    return 0;
}

/* The scale's options, refused in one line before anything is read: a
 * scale that is neither linear nor log, a limit that is not a finite
 * number, --vmin not below --vmax, a log scale from 0 or below, a colormap
 * name that cannot be one. Whether matplotlib knows the colormap, the
 * plotting script says (exit 2 as well). */
static int validate_scale(const plot_request *req)
{
    if (req->scale != NULL && strcmp(req->scale, "linear") != 0 && strcmp(req->scale, "log") != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "plot: --scale %s: linear or log",
                                   req->scale);
    double vmin = 0.0, vmax = 0.0;
    bool has_vmin, has_vmax;
    if (drawable_limit("--vmin", req->vmin, &vmin, &has_vmin) != 0 ||
        drawable_limit("--vmax", req->vmax, &vmax, &has_vmax) != 0)
        return HEAT2D_EXIT_USAGE;
    if (has_vmin && has_vmax && !(vmin < vmax))
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "plot: --vmin %s is not below --vmax %s",
                                   req->vmin, req->vmax);
    if (has_vmin && vmin <= 0.0 && req->scale != NULL && strcmp(req->scale, "log") == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "plot: --vmin %s: a log scale starts above 0",
                                   req->vmin);
    if (has_vmin && vmin < PLOT_LOG_FLOOR && req->scale != NULL && strcmp(req->scale, "log") == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "plot: --vmin %s: a log scale starts at %g or above", req->vmin,
                                   PLOT_LOG_FLOOR);
    for (const char *c = req->cmap; c != NULL && *c != '\0'; ++c)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '.' && *c != '-')
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "plot: --cmap: not a matplotlib colormap name");
    if (req->cmap != NULL && req->cmap[0] == '\0')
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "plot: --cmap needs a name");
    return 0;
}

/* The pictures' name: STEM.png must name a file, in full. what says where
 * the stem came from ("--out /", or the input's name). */
static int check_stem(const char *stem, const char *what, size_t wanted)
{
    const char *slash = strrchr(stem, '/');
    const char *base = slash != NULL ? slash + 1 : stem;
    if (wanted + sizeof ".png" > PATH_MAX)
        return heat2d_report_error(
            HEAT2D_EXIT_USAGE, "plot: %s: too long a name for a picture (%zu bytes)", what, wanted);
    if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        const char *sep = *base == '\0' ? "" : "/";
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "plot: %s names a folder, not a picture; give the picture's "
                                   "name, e.g. --out %s%sfield for %s%sfield.png",
                                   what, stem, sep, stem, sep);
    }
    return 0;
}

/* The input exists (a .nc input's file) before python starts, and a .nc
 * input goes through heat2d's own reader first, whose library runs in a
 * child process: a file that would crash the plotter's is refused in one
 * line before the plotter opens it. */
static int check_plot_input(const char *spec)
{
    heat2d_error err = {{0}};
    heat2d_netcdf_spec parsed;
    const int kind = heat2d_netcdf_spec_parse(spec, &parsed, &err);
    if (kind < 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    const char *input = kind == 1 ? parsed.file : spec;
    if (access(input, R_OK) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: cannot open '%s': %s", input,
                                   strerror(errno));
    if (kind == 1 && heat2d_netcdf_check(spec, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    if (bench_check_plot_env(&err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    return 0;
}

/* The plotting script into script and a python with matplotlib into
 * *python; the exit status of a refusal, else 0. */
static int find_plotter(char *script, size_t size, const char **python)
{
    char tried[256];
    const char *hung = NULL;
    double limit = 0.0;
    if (!bench_find_plot_script(script, size))
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "plot: plot_bench.py not found (set HEAT2D_PLOT_SCRIPT)");
    *python = bench_find_python(tried, sizeof tried, &hung, &limit);
    if (hung != NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "plot: %s -c 'import matplotlib' timed out after %g s", hung,
                                   limit);
    if (*python == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "plot: no python with matplotlib (tried %s): apt-get install "
                                   "python3-matplotlib",
                                   tried);
    return 0;
}

/* Runs the plotter on the request into *cap; the exit status of a failure
 * to start it, else 0. */
static int run_plotter(const char *python, const char *script, const plot_request *req,
                       const char *stem, heat2d_child_result *cap)
{
    /* The script reads a .nc input through this heat2d (--values). */
    char self[PATH_MAX];
    const ssize_t self_len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (self_len > 0) {
        self[self_len] = '\0';
        setenv("HEAT2D_READER", self, 1);
    }
    char *argv[16] = {(char *)python, (char *)script, "--auto", (char *)req->spec, (char *)stem};
    size_t n = 5;
    const char *const scale_options[][2] = {{"--scale", req->scale},
                                            {"--vmin", req->vmin},
                                            {"--vmax", req->vmax},
                                            {"--cmap", req->cmap}};
    for (size_t k = 0; k < sizeof scale_options / sizeof scale_options[0]; ++k)
        if (scale_options[k][1] != NULL) {
            argv[n++] = (char *)scale_options[k][0];
            argv[n++] = (char *)scale_options[k][1];
        }
    argv[n] = NULL;
    heat2d_error err = {{0}};
    const double limit = bench_plot_limit(BENCH_PLOT_TIMEOUT_S);
    if (heat2d_child_run(&(heat2d_child_spec){.argv = argv, .timeout_s = limit}, cap, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s", err.message);
    return 0;
}

/* The plotter's SCALE= line, passed on when it is one line of printable
 * ASCII (the scale it drew on, to draw another field the same way). */
static void print_scale_line(const char *out)
{
    for (const char *l = out; l != NULL && *l != '\0'; l = strchr(l, '\n'), l = l ? l + 1 : l) {
        const size_t len = strcspn(l, "\n");
        if (strncmp(l, "SCALE=", 6) != 0)
            continue;
        bool printable = true;
        for (size_t k = 0; k < len; ++k)
            printable = printable && l[k] >= 0x20 && l[k] < 0x7f;
        if (printable)
            printf("%.*s\n", (int)len, l);
        return;
    }
}

/* What the plotter made, checked: every picture it reported is one, and
 * STEM.png among them (a series also gets STEM.gif). Prints the scale and
 * the PLOT= lines; returns the exit status. */
static int check_plotter_output(const heat2d_child_result *cap, const char *python,
                                const char *script, const char *stem)
{
    if (cap->timed_out)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s %s timed out after %g s", python,
                                   script, cap->timeout_s);
    if (!heat2d_child_ok(cap)) {
        char why[HEAT2D_MESSAGE_ROOM];
        const bool said = script_line(cap->err, why, sizeof why);
        if (!said)
            heat2d_child_why(cap, why, sizeof why);
        /* The script refuses a request (a colormap matplotlib lacks, limits
         * the field's values leave empty) with exit status 2, as heat2d. */
        const bool refused = said && cap->term_signal == 0 && cap->exit_status == 2;
        return heat2d_report_error(refused ? HEAT2D_EXIT_USAGE : HEAT2D_EXIT_FAILURE, "plot: %s",
                                   why);
    }
    char bad[PATH_MAX], png[PATH_MAX + 8];
    char *lines = bench_plot_lines(cap->out, bad, sizeof bad);
    int status = EXIT_SUCCESS;
    snprintf(png, sizeof png, "%s.png", stem);
    if (lines == NULL)
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: out of memory");
    else if (bad[0] != '\0')
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                     "plot: %s was reported but is not an image", bad);
    else if (!bench_plot_reported(cap->out, png))
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "plot: %s %s exited 0 without making %s",
                                     python, script, png);
    else {
        print_scale_line(cap->out);
        fputs(lines, stdout);
    }
    free(lines);
    return status;
}

int heat2d_cmd_plot(int argc, char **argv)
{
    plot_request req = {0};
    int status = parse_plot_options(argc, argv, &req);
    if (status != PLOT_GO_ON)
        return status;
    if (validate_scale(&req) != 0)
        return HEAT2D_EXIT_USAGE;
    char stem[PATH_MAX], what[64];
    if (req.out != NULL) {
        snprintf(what, sizeof what, "--out %s", req.out);
        if (check_stem(req.out, strlen(what) < sizeof what - 1 ? what : "--out", strlen(req.out)))
            return HEAT2D_EXIT_USAGE;
        snprintf(stem, sizeof stem, "%s", req.out);
    }
    if (check_plot_input(req.spec) != 0)
        return HEAT2D_EXIT_FAILURE;
    if (req.out == NULL) {
        default_stem(req.spec, stem, sizeof stem);
        snprintf(what, sizeof what, "the input %s", req.spec);
        if (check_stem(stem, strlen(what) < sizeof what - 1 ? what : "the input", strlen(stem)))
            return HEAT2D_EXIT_USAGE;
    }
    char script[PATH_MAX + 64];
    const char *python = NULL;
    if (find_plotter(script, sizeof script, &python) != 0)
        return HEAT2D_EXIT_FAILURE;
    heat2d_child_result cap;
    if (run_plotter(python, script, &req, stem, &cap) != 0)
        return HEAT2D_EXIT_FAILURE;
    status = check_plotter_output(&cap, python, script, stem);
    heat2d_child_result_free(&cap);
    return status;
}
