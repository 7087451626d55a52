/* heat2d bench: the cores other work kept busy while a size ran (load.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

bool bench_load_parse(const char *stat_text, const cpu_set_t *set, double tick_s, double *busy_s,
                      unsigned *cores)
{
    *busy_s = 0.0;
    *cores = 0;
    for (const char *line = stat_text; line != NULL && *line != '\0';) {
        unsigned cpu;
        unsigned long long user, nice, system, idle, iowait, irq, softirq, steal = 0;
        /* "cpuN user nice system idle iowait irq softirq [steal ...]"; the
         * "cpu" line without N (the sum) does not match. */
        if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' && line[3] <= '9' &&
            sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &user, &nice,
                   &system, &idle, &iowait, &irq, &softirq, &steal) >= 8 &&
            (set == NULL || (cpu < CPU_SETSIZE && CPU_ISSET(cpu, set)))) {
            *busy_s += (double)(user + nice + system + irq + softirq + steal) * tick_s;
            ++*cores;
        }
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    return *cores > 0;
}

static double cpu_seconds(int who)
{
    struct rusage use;
    if (getrusage(who, &use) != 0)
        return 0.0;
    return (double)use.ru_utime.tv_sec + (double)use.ru_utime.tv_usec * 1e-6 +
           (double)use.ru_stime.tv_sec + (double)use.ru_stime.tv_usec * 1e-6;
}

void bench_load_sample_now(bench_load_sample *s)
{
    memset(s, 0, sizeof *s);
    s->wall_s = heat2d_now();
    s->own_s = cpu_seconds(RUSAGE_SELF) + cpu_seconds(RUSAGE_CHILDREN);
    FILE *f = fopen("/proc/stat", "re");
    if (f == NULL)
        return;
    /* A line per core and a few more: 64 KiB holds some 700 cores. */
    static char text[65536];
    const size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    cpu_set_t set;
    const bool have_set = sched_getaffinity(0, sizeof set, &set) == 0;
    const long ticks = sysconf(_SC_CLK_TCK);
    s->ok = ticks > 0 && bench_load_parse(text, have_set ? &set : NULL, 1.0 / (double)ticks,
                                          &s->busy_s, &s->cores);
}

double bench_load_other_cores(const bench_load_sample *a, const bench_load_sample *b)
{
    const double span = b->wall_s - a->wall_s;
    if (!a->ok || !b->ok || a->cores != b->cores || span < BENCH_LOAD_MIN_S)
        return -1.0;
    const double other = (b->busy_s - a->busy_s) - (b->own_s - a->own_s);
    return other > 0.0 ? other / span : 0.0;
}

void bench_load_judge(bench_run_info *info, const bench_size *s, const bench_load_sample *a,
                      const bench_load_sample *b)
{
    const double other = bench_load_other_cores(a, b);
    if (other < BENCH_BUSY_CORES || info->n_busy == BENCH_MAX_BUSY)
        return;
    info->busy[info->n_busy++] = (bench_busy){*s, other, b->cores};
}

const bench_busy *bench_load_busy_at(const bench_run_info *info, const bench_size *s)
{
    for (size_t k = 0; k < info->n_busy; ++k)
        if (info->busy[k].size.nx == s->nx && info->busy[k].size.ny == s->ny &&
            info->busy[k].size.steps == s->steps)
            return &info->busy[k];
    return NULL;
}
