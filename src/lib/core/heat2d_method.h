/* The backend interface every method implements, and the transfer model it
 * is held to. */
#ifndef HEAT2D_METHOD_H
#define HEAT2D_METHOD_H

#include "heat2d_report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a method moves data, which decides the transfer model and the
 * article's speedup pairs (cpu/each, cpu/resident, each/resident). */
typedef enum heat2d_style {
    HEAT2D_STYLE_HOST,     /* no device: nothing crosses */
    HEAT2D_STYLE_EACH,     /* u up and v down every step */
    HEAT2D_STYLE_RESIDENT, /* one upload, one download */
} heat2d_style;

typedef struct heat2d_method {
    const char *name;      /* command-line name, e.g. "acc-resident" */
    const char *seed_name; /* METHOD= value, e.g. "ACC_PERSISTENT" */
    heat2d_style style;
    /* A GPU method: it needs a GPU to run, unless on_host_here says that
     * this build or this run puts its kernels on the host (OpenACC built
     * for the host, or ACC_DEVICE_TYPE=host). */
    bool gpu_only;
    bool (*on_host_here)(void);
    /* Honours heat2d_config.pinned (page-locked host buffers). */
    bool has_pinned_variant;
    /* Its arithmetic fuses operations (fused multiply-adds): its fields are
     * within the original's tolerance of cpu's, not bit for bit. */
    bool within_tolerance;
    /* Honours heat2d_config.output_every and snapshot (snapshots every K
     * steps); overlapped_snapshots: also HEAT2D_SNAPSHOT_OVERLAP. */
    bool has_snapshots;
    bool overlapped_snapshots;
    /* Hands each snapshot over with its invariants, found on the device
     * (heat2d_snapshot_fn's stats), so the host need not scan it. */
    bool device_snapshot_stats;
    /* Page-locked host memory for the arrays of a pinned run, allocated and
     * freed by the method's runtime (cudaMallocHost); NULL: malloc. */
    void *(*alloc_pinned)(size_t bytes);
    void (*free_pinned)(void *p);
    /* A per-step method whose uploads and downloads run at the same time,
     * from page-locked memory, under the compute: its floor per step is
     * max(S/H2D, S/D2H), not their sum. */
    bool overlaps_copies;
    /* Checks every step that the field is finite and fails with "non-finite
     * value at cell (i, j) after step K" at the first step that is not;
     * honours heat2d_config.fault_nan_step. Methods without it are caught by
     * the summary check at the end, which cannot say when. */
    bool checks_each_step;
    /* Untimed: create a device context, check that a device exists. May be
     * NULL. */
    int (*prepare)(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err);
    /* Timed: the whole time loop, including entering and leaving device
     * memory and the final read-back. u holds the initial state and v the
     * same; on return *result points at whichever of u and v holds the
     * final field on the host. */
    int (*solve)(const heat2d_config *cfg, double *u, double *v, double **result,
                 heat2d_report *rep, heat2d_error *err);
    /* The same contract in float (cfg->precision == HEAT2D_F32): u, v are
     * nx*ny floats. Reported transfer bytes count 4-byte cells. Callers go
     * through heat2d_solve, which converts. */
    int (*solve_f32)(const heat2d_config *cfg, float *u, float *v, float **result,
                     heat2d_report *rep, heat2d_error *err);
    /* Distributed methods (MPI domain decomposition) own their memory, so
     * that a rank holds its block and halos, never the whole grid: the
     * caller allocates nothing, and solve_distributed replaces solve
     * (prepare still runs first, untimed). Collective: every rank calls it.
     * initial: the full initial field on rank 0 (boundary included), or NULL
     * for the standard initial state, which each rank then builds for its
     * block itself. On success rank 0 gets in *field the final field
     * gathered from all ranks (malloc'd, nx*ny, release with free) and in
     * *total_s the method's TOTAL_S over all ranks, from a barrier to the
     * slowest rank's end; the other ranks get NULL and report only their
     * rank in rep. */
    bool distributed;
    /* Honours heat2d_config.halo_depth > 1 (deep halos); every other method
     * refuses it. */
    bool deep_halos;
    int (*solve_distributed)(const heat2d_config *cfg, const double *initial, double **field,
                             double *total_s, heat2d_report *rep, heat2d_error *err);
} heat2d_method;

/* A method's solve and solve_f32 (static, named SOLVE and SOLVE_F32) from
 * one solver ANY that works on cells of cfg->precision through void
 * pointers, for backends whose code only moves bytes or picks its kernels
 * by precision: int ANY(const heat2d_config *cfg, void *u, void *v,
 * void **result, heat2d_report *rep, heat2d_error *err). */
#define HEAT2D_PRECISION_SOLVERS(ANY, SOLVE, SOLVE_F32)                                            \
    static int SOLVE(const heat2d_config *cfg, double *u, double *v, double **result,              \
                     heat2d_report *rep, heat2d_error *err)                                        \
    {                                                                                              \
        void *out = NULL;                                                                          \
        const int rc = ANY(cfg, u, v, &out, rep, err);                                             \
        *result = (double *)out;                                                                   \
        return rc;                                                                                 \
    }                                                                                              \
    static int SOLVE_F32(const heat2d_config *cfg, float *u, float *v, float **result,             \
                         heat2d_report *rep, heat2d_error *err)                                    \
    {                                                                                              \
        void *out = NULL;                                                                          \
        const int rc = ANY(cfg, u, v, &out, rep, err);                                             \
        *result = (float *)out;                                                                    \
        return rc;                                                                                 \
    }

/* A method descriptor VAR (const heat2d_method) with SOLVE and SOLVE_F32 as
 * its solvers and the designated initializers that follow for the rest
 * (.name, .seed_name, .style, .prepare, the flags that are true); a field
 * not named is zero: NULL, or false. */
#define HEAT2D_METHOD(VAR, SOLVE, SOLVE_F32, ...)                                                  \
    const heat2d_method VAR = {.solve = SOLVE, .solve_f32 = SOLVE_F32, __VA_ARGS__}

/* The same with both solvers made by HEAT2D_PRECISION_SOLVERS from ANY
 * (named ANY_f64 and ANY_f32). */
#define HEAT2D_PRECISION_METHOD(VAR, ANY, ...)                                                     \
    HEAT2D_PRECISION_SOLVERS(ANY, ANY##_f64, ANY##_f32)                                            \
    HEAT2D_METHOD(VAR, ANY##_f64, ANY##_f32, __VA_ARGS__)

/* The two solvers that a precision-generic NAME_real.c defines as
 * FN(SOLVE) (heat2d_real.h): SOLVE in f64 and SOLVE##_f32 in f32, declared
 * for the file that holds the method, and for the NAME_real.c itself, so
 * that its definition is checked against them. */
#define HEAT2D_REAL_SOLVERS(SOLVE)                                                                 \
    int SOLVE(const heat2d_config *cfg, double *u, double *v, double **result, heat2d_report *rep, \
              heat2d_error *err);                                                                  \
    int SOLVE##_f32(const heat2d_config *cfg, float *u, float *v, float **result,                  \
                    heat2d_report *rep, heat2d_error *err)

/* A method descriptor VAR whose solvers are a NAME_real.c's FN(SOLVE). */
#define HEAT2D_REAL_METHOD(VAR, SOLVE, ...)                                                        \
    HEAT2D_REAL_SOLVERS(SOLVE);                                                                    \
    HEAT2D_METHOD(VAR, SOLVE, SOLVE##_f32, __VA_ARGS__)

/* A method's hand-over of a snapshot that is in host memory, with its
 * invariants where the method found them on the device (else NULL):
 * counted in rep->snapshots, cfg->snapshot called (if set), its time in
 * rep->snapshot_callback_s. */
int heat2d_hand_snapshot(const heat2d_config *cfg, size_t step, const void *field,
                         const heat2d_field_stats *stats, heat2d_report *rep, heat2d_error *err);

/* The transfer model of SPEC section 2 for a method: counts and bytes that
 * must cross for cfg. */
void heat2d_transfer_model(const heat2d_method *m, const heat2d_config *cfg, uint64_t *h2d_count,
                           uint64_t *h2d_bytes, uint64_t *d2h_count, uint64_t *d2h_bytes);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_METHOD_H */
