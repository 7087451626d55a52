/* heat2d bench: the plan a command line asks for, and what of it can run
 * here. */
#ifndef HEAT2D_BENCH_PLAN_H
#define HEAT2D_BENCH_PLAN_H

#include "bench.h"
#include "options.h"

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
/* --NAME LIST for a bench list of run_options.h: every target that the
 * option multiplies (its method takes it, what it needs is set) becomes
 * one per value, in the order listed (with KEEPS, after itself); a value
 * above plain only where the method takes it. */
int bench_expand_option(heat2d_option_id id, const char *text, target_list *list);
/* The notes of bench_expand_lists (a value of a list the user gave that no
 * target takes, so that it adds no rows), added to info. */
void bench_expand_notes(bench_run_info *info);
/* --ranks: mpirun on PATH and its children's environment. */
int bench_find_mpirun(void);

/* Every bench list of o (run_options.h) in the table's order, each after
 * the one it needs (--halo-depth after --ranks), grows the targets: chosen
 * with --methods or for a NAMED list, else all; runnable gets room for
 * them. Returns 0, else the exit status, having said why. */
int bench_expand_lists(const bench_options *o, target_list *all, target_list *chosen,
                       target_list *runnable);
/* Room for n runnable targets. */
int bench_grow_runnable(target_list *runnable, size_t n);

/* Whether MPI starts, when the candidates hold a distributed method (one
 * probe, heat2d_mpi_probe_run): where it does not, those are taken out and
 * bench_choose_runnable's notes say so, with the reason and the fix.
 * Returns 0, else (asked for MPI methods alone: nothing left to measure)
 * the exit status, having said why. */
int bench_skip_mpi_if_down(target_list *candidates, bool asked);

/* Which candidates can run here (asked: every one of them, so that a
 * failure is reported), and whether any ran on a GPU; notes say what was
 * left out and why. */
void bench_choose_runnable(const target_list *candidates, bool asked, target_list *runnable,
                           bool *has_gpu, bench_run_info *info);

/* Every size before the first trial: one that overflows or cannot fit in
 * memory is refused (with --weak, its largest grid: NX times the most
 * ranks); and every distributed target's rank count against every size,
 * refused when it cannot split one, before mpirun starts. */
int bench_sizes_fit(const bench_size *sizes, size_t n, const bench_size *weak,
                    const target_list *targets, heat2d_error *err);
int bench_ranks_fit(const bench_size *sizes, size_t n, const target_list *targets,
                    heat2d_error *err);

/* What the plan holds for the whole run (mpirun's environment). */
void bench_plan_release(void);

#endif /* HEAT2D_BENCH_PLAN_H */
