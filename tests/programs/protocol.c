/* A program that speaks the original's protocol (`prog nx ny steps
 * field_path`, KEY=VALUE lines, the field in the original's text format),
 * built once a way to be right or wrong, for heat2d bench --program and
 * heat2d check --program. FAULT (a -D of the build) picks the way:
 *   0 right; 1 one cell off by 1e-3; 2 no CHECK=PASS; 3 exits 3;
 *   4 hangs; 5 floods stdout; 6 TOTAL_S not a number.
 * With PROTOCOL_LOG set, it appends its field's path to that file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef FAULT
#define FAULT 0
#endif

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return 1;
    const long nx = atol(argv[1]), ny = atol(argv[2]), steps = atol(argv[3]);
    double *u = calloc((size_t)(nx * ny), sizeof *u), *v = calloc((size_t)(nx * ny), sizeof *v);
    if (u == NULL || v == NULL)
        return 1;
    u[((ny + 1) / 2 - 1) * nx + (nx + 1) / 2 - 1] = 1.0;
    const double t0 = seconds();
    for (long s = 0; s < steps; ++s) {
        for (long j = 1; j < ny - 1; ++j)
            for (long i = 1; i < nx - 1; ++i) {
                const double *c = &u[j * nx + i];
                v[j * nx + i] = c[0] + 0.1 * (c[-1] + c[1] + c[-nx] + c[nx] - 4.0 * c[0]);
            }
        double *w = u;
        u = v;
        v = w;
    }
    const double total = seconds() - t0;
    if (FAULT == 1)
        u[(ny / 2) * nx + nx / 2] += 1e-3;
    if (FAULT == 3) {
        fprintf(stderr, "protocol: exits 3 on purpose\n");
        return 3;
    }
    if (FAULT == 4)
        for (;;)
            pause();
    for (long k = 0; FAULT == 5 && k < 100000000; ++k)
        puts("flood flood flood flood flood flood flood flood flood flood flood flood");
    double mass = 0.0;
    for (long k = 0; k < nx * ny; ++k)
        mass += u[k];
    printf("METHOD=PROTOCOL\nNX=%ld\nNY=%ld\nMASS=%24.16E\n", nx, ny, mass);
    if (FAULT == 6)
        printf("TOTAL_S=soon\n");
    else
        printf("TOTAL_S=%24.16E\n", total);
    if (FAULT != 2)
        printf("CHECK=PASS\n");
    printf("CPU_LOOP_S=%24.16E\n", total);
    const char *log = getenv("PROTOCOL_LOG");
    FILE *l = log != NULL ? fopen(log, "a") : NULL;
    if (l != NULL)
        fprintf(l, "%s\n", argv[4]), fclose(l);
    FILE *f = fopen(argv[4], "w");
    if (f == NULL)
        return 1;
    fprintf(f, "%ld %ld\n", nx, ny);
    for (long k = 0; k < nx * ny; ++k)
        fprintf(f, "%24.16E\n", u[k]);
    return fclose(f) == 0 ? 0 : 1;
}
