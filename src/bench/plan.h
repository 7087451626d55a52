/* heat2d bench: the plan a command line asks for, and what of it can run
 * here. */
#ifndef HEAT2D_BENCH_PLAN_H
#define HEAT2D_BENCH_PLAN_H

#include "bench.h"

/* The article's ladder; a GPU adds the size where the GPU's bandwidth, not
 * launch overhead, decides. */
#define BENCH_FULL_LADDER "128x128:50,512x512:200,1024x1024:300,2048x2048:500"
#define BENCH_GPU_LADDER  BENCH_FULL_LADDER ",8192x8192:500"
/* Without a GPU every method runs on the CPU: on a 2-core machine 2048x2048
 * at 500 steps alone takes about 90 s over 4 methods x 6 runs. 200 steps
 * keep the out-of-cache size in the picture and the whole ladder near a
 * minute. */
#define BENCH_CPU_LADDER   "128x128:50,512x512:200,1024x1024:300,2048x2048:200"
#define BENCH_CPU_CUT_TEXT "2048x2048 runs 200 steps, not the article's 500"

typedef struct target_list {
    bench_target *items;
    size_t n;
} target_list;

/* Every method of the build, each followed by its -pinned twin. */
int bench_all_targets(target_list *all);

/* --methods LIST of labels from all (with --pinned-too each one's -pinned
 * twin as well), listed twice runs once. These return 0, else the exit
 * status, having said why. */
int bench_parse_methods(const char *text, const target_list *all, bool pinned_too,
                        target_list *chosen);
/* NXxNY:STEPS,... into *sizes (release with free). */
int bench_parse_sizes(const char *text, bench_size **sizes, size_t *n);
/* --ranks LIST: every distributed target becomes one per rank count, run
 * under mpirun (found on PATH). */
int bench_expand_ranks(const char *text, target_list *chosen);
/* --halo-depth LIST, after --ranks: every distributed target of a method
 * with deep halos becomes one per depth. */
int bench_expand_halo_depths(const char *text, target_list *chosen);
/* --precision LIST: every target becomes one per precision. */
int bench_expand_precision(const char *text, target_list *targets);
/* --output-every LIST with --snapshot-copy LIST: each target of a method
 * that takes snapshots followed by one per K and copy. */
int bench_expand_snapshots(const char *everies, const char *copies, target_list *targets);
/* Room for n runnable targets. */
int bench_grow_runnable(target_list *runnable, size_t n);

/* Which candidates can run here (asked: every one of them, so that a
 * failure is reported), and whether any ran on a GPU; notes say what was
 * left out and why. */
void bench_choose_runnable(const target_list *candidates, bool asked, target_list *runnable,
                           bool *has_gpu, bench_run_info *info);

/* What the plan holds for the whole run (mpirun's environment). */
void bench_plan_release(void);

#endif /* HEAT2D_BENCH_PLAN_H */
