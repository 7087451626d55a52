/* The host's memory bandwidth on all cores: the limit that bounds the cpu
 * and omp methods, measured the way they use memory (read one array, write
 * another, each thread on the part of the arrays it touched first).
 * Measurements: docs/performance.md, "Limits and probes". */
#include "host_bandwidth.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;
    return (x > y) - (x < y);
}

int heat2d_host_bandwidth(double *copy_gbs, int *threads, heat2d_error *err)
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
    qsort(rates, REPEATS, sizeof rates[0], compare_doubles);
    *copy_gbs = rates[REPEATS / 2];
#ifdef _OPENMP
    *threads = omp_get_max_threads();
#else
    *threads = 1;
#endif
    free(src);
    free(dst);
    return 0;
}
