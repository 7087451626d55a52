/* The host's memory bandwidth on all cores: the limit that bounds the cpu
 * and omp methods, measured the way they use memory (read one array, write
 * another, each thread on the part of the arrays it touched first).
 * Measurements: docs/performance.md, "Limits and probes". */
#include "host_bandwidth.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The CPU time this process has used, user and system, in seconds. */
static double cpu_seconds(void)
{
    struct rusage use;
    if (getrusage(RUSAGE_SELF, &use) != 0)
        return 0.0;
    return (double)use.ru_utime.tv_sec + (double)use.ru_utime.tv_usec * 1e-6 +
           (double)use.ru_stime.tv_sec + (double)use.ru_stime.tv_usec * 1e-6;
}

int heat2d_host_bandwidth(heat2d_host_probe *probe, heat2d_error *err)
{
    /* 256 MiB per array: far beyond any last-level cache. */
    const size_t n = (size_t)32 << 20;
    double *src = malloc(n * sizeof(double));
    double *dst = malloc(n * sizeof(double));
    if (src == NULL || dst == NULL) {
        free(src);
        free(dst);
        return heat2d_fail(err, "host bandwidth: cannot allocate 2 x %zu bytes",
                           n * sizeof(double));
    }
    /* First touch in the same partition as the copy, so pages land on the
     * NUMA node of the thread that streams them. */
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (size_t k = 0; k < n; ++k) {
        src[k] = (double)k;
        dst[k] = 0.0;
    }
    enum { REPEATS = 7 };
    double rates[REPEATS];
    /* A thread waiting for memory is on its CPU; one that other work keeps
     * off it is not: the CPU time over the wall time of every thread says
     * how much of the machine the copies had. */
    const double cpu_start = cpu_seconds(), wall_start = heat2d_now();
    for (int r = 0; r < REPEATS; ++r) {
        double t0 = heat2d_now();
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
        for (size_t k = 0; k < n; ++k)
            dst[k] = src[k];
        double seconds = heat2d_now() - t0;
        /* Bytes read plus bytes written, as the stencil's 16 bytes a cell. */
        rates[r] = 2.0 * (double)(n * sizeof(double)) / seconds / 1e9;
    }
    /* Keep the copy observable so it is not optimised away. */
    if (dst[n / 2] != src[n / 2]) {
        free(src);
        free(dst);
        return heat2d_fail(err, "host bandwidth: copy check failed");
    }
    const double wall = heat2d_now() - wall_start, cpu = cpu_seconds() - cpu_start;
    qsort(rates, REPEATS, sizeof rates[0], compare_doubles);
    probe->copy_gbs = rates[REPEATS / 2];
#ifdef _OPENMP
    probe->threads = omp_get_max_threads();
#else
    probe->threads = 1;
#endif
    probe->cpu_share = wall > 0.0 ? cpu / (wall * probe->threads) : 1.0;
    probe->cpu_share = probe->cpu_share < 1.0 ? probe->cpu_share : 1.0;
    free(src);
    free(dst);
    return 0;
}

size_t heat2d_host_llc_bytes(void)
{
    enum { MAX_CACHES = 256 };
    static char seen[MAX_CACHES][64];
    size_t n_seen = 0;
    size_t total = 0;
    for (int cpu = 0; cpu < 4096; ++cpu) {
        char path[128], level[16] = "", size[32] = "", shared[64] = "";
        const char *names[] = {"level", "size", "shared_cpu_list"};
        char *values[] = {level, size, shared};
        int sizes[] = {sizeof level, sizeof size, sizeof shared};
        bool ok = true;
        for (int f = 0; f < 3 && ok; ++f) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index3/%s", cpu,
                     names[f]);
            FILE *file = fopen(path, "r");
            ok = file != NULL && fgets(values[f], sizes[f], file) != NULL;
            if (file != NULL)
                fclose(file);
        }
        if (!ok) {
            if (cpu == 0)
                return 0;
            continue; /* offline or absent: numbering may have gaps */
        }
        if (atoi(level) != 3)
            return 0;
        bool known = false;
        for (size_t k = 0; k < n_seen && !known; ++k)
            known = strcmp(seen[k], shared) == 0;
        if (known)
            continue;
        if (n_seen < MAX_CACHES)
            snprintf(seen[n_seen++], sizeof seen[0], "%s", shared);
        char *unit = NULL;
        size_t bytes = strtoull(size, &unit, 10);
        if (unit != NULL && *unit == 'K')
            bytes <<= 10;
        else if (unit != NULL && *unit == 'M')
            bytes <<= 20;
        total += bytes;
    }
    return total;
}
