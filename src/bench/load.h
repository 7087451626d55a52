/* heat2d bench: whether other work competed for the cores while a size
 * ran. The kernel counts every core's busy time (/proc/stat); the bench's
 * own CPU time and its finished children's (getrusage) are subtracted, and
 * what is left, over the size's wall time, is how many cores other work
 * kept busy. A busy machine is said at the top of the summary, and in the
 * rows of the methods that spread over several cores, which it slows most
 * (an omp loop waits for its slowest thread at every step). */
#ifndef HEAT2D_BENCH_LOAD_H
#define HEAT2D_BENCH_LOAD_H

#include "bench.h"

#include <sched.h>

/* Other work on at least this many cores, on average over a size, makes
 * the machine busy: half a core slows an all-core loop by about a half,
 * where a quiet machine's daemons take a few hundredths. */
#define BENCH_BUSY_CORES 0.5
/* A size shorter than this is not judged: the kernel counts busy time in
 * ticks (10 ms), which over a short span is noise. */
#define BENCH_LOAD_MIN_S 0.5

typedef struct bench_load_sample {
    bool ok;        /* false: /proc/stat could not be read */
    double wall_s;  /* heat2d_now() */
    double busy_s;  /* busy seconds of the cores this process may use, all processes */
    double own_s;   /* CPU seconds of this process and its reaped children */
    unsigned cores; /* how many cores those are */
} bench_load_sample;

/* The busy seconds of the cores in set (all of them when set is NULL) from
 * the text of /proc/stat (its cpuN lines: user, nice, system, irq,
 * softirq and steal, in ticks of tick_s seconds) into *busy_s, and how
 * many cores into *cores. false when no core of the set is there. */
bool bench_load_parse(const char *stat_text, const cpu_set_t *set, double tick_s, double *busy_s,
                      unsigned *cores);

/* The load now: the kernel's counts and this process's own. */
void bench_load_sample_now(bench_load_sample *s);

/* How many cores other work kept busy between a and b, on average; a
 * negative value when it cannot be told (a sample missing, a span shorter
 * than BENCH_LOAD_MIN_S). */
double bench_load_other_cores(const bench_load_sample *a, const bench_load_sample *b);

/* Records size s as busy in info when other work kept BENCH_BUSY_CORES or
 * more busy between a and b. */
void bench_load_judge(bench_run_info *info, const bench_size *s, const bench_load_sample *a,
                      const bench_load_sample *b);

/* The busy record of size s in info, or NULL: the machine was quiet then
 * (or it was not judged). */
const bench_busy *bench_load_busy_at(const bench_run_info *info, const bench_size *s);

#endif /* HEAT2D_BENCH_LOAD_H */
