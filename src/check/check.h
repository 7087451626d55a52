/* heat2d check as a library (src/check): the targets, the cases, the
 * snapshot checks and the preflight, which the driver's command runs and
 * the unit tests reach. */
#ifndef HEAT2D_CHECK_H
#define HEAT2D_CHECK_H

#include "heat2d.h"
#include "methods.h"
#include "process.h"
#include "program.h"

/* One method as the check runs it: cuda-each counts twice, pageable and
 * pinned. */
typedef struct check_target {
    const heat2d_method *method;
    bool pinned;
    heat2d_precision precision;
    char label[48];
} check_target;

typedef struct check_state {
    const char *dir;
    bool gpu;
    /* --precision: the targets' precision; the reference is always cpu in
     * f64. */
    heat2d_precision precision;
    size_t failures;
} check_state;

/* One failure: a line on stderr, counted. */
void check_fail(check_state *st, const char *fmt, ...) HEAT2D_PRINTF(2, 3);

/* The configuration a target runs: the original's alpha, its pinning and
 * precision. */
heat2d_config check_target_config(const check_target *t, size_t nx, size_t ny, size_t steps);

/* The targets of a check: the CPU check (gpu false) takes every method
 * that runs without a GPU here, the GPU check every method that can use
 * one; each with its -pinned twin in the GPU check. At most capacity. */
size_t check_collect_targets(bool gpu, heat2d_precision precision, check_target *targets,
                             size_t capacity);

/* Whether any target needs a GPU (is not put on the host by this build or
 * run). */
bool check_any_needs_gpu(const check_target *targets, size_t n);

/* "NAME, NAME run on the host in this build" for the targets (their
 * -pinned twins left out), or that there are none. */
void check_host_targets_text(const check_target *targets, size_t n, char *buf, size_t size);

/* Every case of the check into st: each target against cpu on the
 * original's shapes (and the GPU check's), the invariants, the snapshots;
 * failures counted in st->failures, each a line on stderr. */
void check_run(check_state *st, const check_target *targets, size_t n);

/* check --keep DIR: every field file the check would write there (the
 * reference's and each target's, for each case of st) is one it may
 * replace, checked before anything runs: a FIFO, a device or a folder of
 * that name is refused ("F is not a regular file (a FIFO)": a FIFO would
 * hang the check, which reads the file back), and so is a read-only file.
 * 0, or -1 with err. */
int check_keep_ready(const check_state *st, const check_target *targets, size_t n,
                     heat2d_error *err);

/* Every snapshot of every method that takes them, against cpu's field at
 * the same step; the transfers of each run against the model
 * (check_snapshots.c). */
void check_snapshots(check_state *st, const check_target *targets, size_t n_targets);

/* What crossed for t's run of cfg, against the transfer model. */
void check_transfers(check_state *st, const check_target *t, const heat2d_config *cfg,
                     const heat2d_report *rep);

/* Before anything starts (check_preflight.c). The directory the scratch
 * directory goes under: TMPDIR when set and not empty, else /tmp; a TMPDIR
 * that is not a directory this process can write and search is refused
 * ("TMPDIR '...' is not a usable directory: REASON"), since MPI makes its
 * session directory there too. */
int check_tmpdir(const char **dir, heat2d_error *err);

/* Whether MPI starts, when the targets hold a distributed method
 * (heat2d_mpi_probe_run): where it does not, those targets are taken out
 * (*n shrinks) and note holds the line that says so, with the reason and
 * the fix (heat2d_mpi_skip_text); else note is "". */
void check_skip_mpi_if_down(check_target *targets, size_t *n, char *note, size_t size);

/* check --program: the programs, their fields' tolerance against cpu's
 * and the time one run may take. */
typedef struct check_programs_spec {
    const heat2d_program *programs;
    size_t n;
    heat2d_tolerance tol;
    double timeout_s;
} check_programs_spec;

/* Every program on the original's cases (25x21 at 7, 8, 31 and 32 steps)
 * and the odd and thin shapes, each field (written to st->dir) against
 * cpu's: a "PROGRAM=NAME case=NXxNY/STEPS ... PASS" or "... FAIL: WHY"
 * line a case, each failure counted (check_programs.c). */
void check_programs(check_state *st, const check_programs_spec *spec);

/* check --keep DIR with --program: every field file it would write there
 * one it may replace (as check_keep_ready). 0, or -1 with err. */
int check_programs_keep_ready(const check_state *st, const check_programs_spec *spec,
                              heat2d_error *err);

#endif /* HEAT2D_CHECK_H */
