/* A program that speaks the original's protocol (`prog nx ny steps
 * field_path`, KEY=VALUE lines, the field in the original's text format),
 * built once a way to be right or wrong, for heat2d bench --program and
 * heat2d check --program. FAULT (a -D of the build) picks the way:
 *   0 right; 1 one cell off by 1e-3; 2 no CHECK=PASS; 3 exits 3;
 *   4 hangs; 5 floods stdout; 6 TOTAL_S not a number;
 * and the ways a program is hostile to what runs it:
 *   7 closes stdout and stderr and runs on (a child of its waited
 *   for, as a script's command); 8 leaves a FIFO at its
 *   field's name; 9 a link to a FIFO there; 10 prints keys that are
 *   heat2d's own (PRECISION=f32, RANKS=4, ...); 11 leaves a process that
 *   holds its stdout; 12 leaves a busy loop; 13 starts 300 processes;
 *   14 prints TOTAL_S=TOTAL_TEXT (a -D too); 15 leaves a FIFO named
 *   cpu.dat beside its field.
 * With PROTOCOL_LOG set, it appends its field's path to that file; with
 * PROTOCOL_GROUPS set, its process group (which holds what it starts). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FAULT
#define FAULT 0
#endif
#ifndef TOTAL_TEXT
#define TOTAL_TEXT "0"
#endif

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void append(const char *variable, const char *line)
{
    const char *name = getenv(variable);
    FILE *l = name != NULL ? fopen(name, "a") : NULL;
    if (l != NULL)
        fprintf(l, "%s\n", line), fclose(l);
}

/* What runs on after it: a process holding its stdout (11), a busy loop
 * writing nowhere (12), 300 processes that wait (13). */
static void leave_processes(void)
{
    if (FAULT == 11 && fork() == 0) {
        sleep(60);
        _exit(0);
    }
    if (FAULT == 12 && fork() == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        for (volatile unsigned long k = 0;; ++k)
            continue;
    }
    for (int k = 0; FAULT == 13 && k < 300; ++k) {
        const pid_t pid = fork();
        if (pid == 0) {
            pause();
            _exit(0);
        }
        if (pid < 0)
            break;
    }
    if (FAULT == 13)
        sleep(2);
}

/* Its field's name taken by a FIFO (8), a link to one (9); a FIFO at
 * cpu.dat beside it (15). Whether the field is still to be written. */
static int spoil_names(const char *field)
{
    char other[4200];
    if (FAULT == 8)
        return mkfifo(field, 0600), 0;
    if (FAULT == 9) {
        snprintf(other, sizeof other, "%s.fifo", field);
        mkfifo(other, 0600);
        return symlink(other, field), 0;
    }
    if (FAULT == 15) {
        snprintf(other, sizeof other, "%s", field);
        char *slash = strrchr(other, '/');
        snprintf(slash != NULL ? slash + 1 : other, sizeof other - 8, "cpu.dat");
        mkfifo(other, 0600);
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5)
        return 1;
    char group[32];
    snprintf(group, sizeof group, "%ld", (long)getpgrp());
    append("PROTOCOL_GROUPS", group);
    if (FAULT == 7) {
        close(1);
        close(2);
        /* As a script runs a command: in a process it waits for. */
        if (fork() == 0)
            for (;;)
                pause();
        wait(NULL);
        return 0;
    }
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
    leave_processes();
    double mass = 0.0;
    for (long k = 0; k < nx * ny; ++k)
        mass += u[k];
    printf("METHOD=PROTOCOL\nNX=%ld\nNY=%ld\nMASS=%24.16E\n", nx, ny, mass);
    if (FAULT == 6)
        printf("TOTAL_S=soon\n");
    else if (FAULT == 14)
        printf("TOTAL_S=%s\n", TOTAL_TEXT);
    else
        printf("TOTAL_S=%24.16E\n", total);
    if (FAULT != 2)
        printf("CHECK=PASS\n");
    printf("CPU_LOOP_S=%24.16E\n", total);
    if (FAULT == 10)
        printf("PRECISION=f32\nRANKS=4\nDECOMP=2x2\nHALO_DEPTH=2\nOUTPUT_EVERY=5\nSNAPSHOTS=3\n"
               "DEVICE=GPU\nTRANSFERS=measured\nH2D_COUNT=7\n");
    fflush(stdout);
    append("PROTOCOL_LOG", argv[4]);
    if (!spoil_names(argv[4]))
        return 0;
    FILE *f = fopen(argv[4], "w");
    if (f == NULL)
        return 1;
    fprintf(f, "%ld %ld\n", nx, ny);
    for (long k = 0; k < nx * ny; ++k)
        fprintf(f, "%24.16E\n", u[k]);
    return fclose(f) == 0 ? 0 : 1;
}
