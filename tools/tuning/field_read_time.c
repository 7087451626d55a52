/* field_read_time: what heat2d_field_load costs for each FILE, timed inside
 * one process, so that a read is the read alone: no process start or exit,
 * no comparison pass. Built by tools/tuning/field_format_speed.sh against a
 * build's libheat2d.a.
 *
 *   field_read_time REPEATS PAUSE_S FILE...
 *
 * Each FILE is read once untimed (its pages into the page cache, the code
 * warm), then REPEATS times, the files in turn, each into memory allocated
 * by the read and freed after it, as a command's one read would. PAUSE_S
 * seconds before each timed read let a VM that returns free memory to its
 * host (free page reporting) do so, so that the read's memory is new to the
 * host too; 0 reuses what the last read freed. Prints, a line a FILE:
 *   FILE median_s min_s max_s */
#define _POSIX_C_SOURCE 200809L
#include "field_netcdf.h"
#include "heat2d_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int load(const char *path, double *seconds)
{
    heat2d_field field;
    heat2d_error err = {{0}};
    const double t0 = heat2d_now();
    if (heat2d_field_load(path, &field, &err) != 0) {
        fprintf(stderr, "field_read_time: %s\n", err.message);
        return -1;
    }
    *seconds = heat2d_now() - t0;
    heat2d_field_free(&field);
    return 0;
}

int main(int argc, char **argv)
{
    char *end;
    const long repeats = argc > 3 ? strtol(argv[1], &end, 10) : 0;
    if (argc < 4 || *end != '\0' || repeats < 1 || repeats > 1000) {
        fprintf(stderr, "usage: field_read_time REPEATS PAUSE_S FILE...\n");
        return 2;
    }
    const double pause = strtod(argv[2], &end);
    if (*end != '\0' || !(pause >= 0 && pause <= 60)) {
        fprintf(stderr, "field_read_time: PAUSE_S '%s' is not 0 to 60 seconds\n", argv[2]);
        return 2;
    }
    const int files = argc - 3;
    double *t = malloc((size_t)files * (size_t)repeats * sizeof *t);
    if (t == NULL) {
        fprintf(stderr, "field_read_time: cannot allocate %ld timings\n", repeats * files);
        return 1;
    }
    double untimed;
    for (int f = 0; f < files; ++f)
        if (load(argv[3 + f], &untimed) != 0)
            return 1;
    const struct timespec nap = {(time_t)pause, (long)((pause - (double)(time_t)pause) * 1e9)};
    for (long r = 0; r < repeats; ++r)
        for (int f = 0; f < files; ++f) {
            if (pause > 0)
                nanosleep(&nap, NULL);
            if (load(argv[3 + f], &t[(size_t)f * (size_t)repeats + (size_t)r]) != 0)
                return 1;
        }
    for (int f = 0; f < files; ++f) {
        double *mine = t + (size_t)f * (size_t)repeats;
        qsort(mine, (size_t)repeats, sizeof *mine, by_value);
        const double median =
            repeats % 2 ? mine[repeats / 2] : (mine[repeats / 2 - 1] + mine[repeats / 2]) / 2;
        printf("%s %.6f %.6f %.6f\n", argv[3 + f], median, mine[0], mine[repeats - 1]);
    }
    free(t);
    return 0;
}
