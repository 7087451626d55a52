/* heat2d: the library every heat2d program links.
 *
 * The problem (explicit 2-D diffusion, 5-point stencil, Jacobi double buffer),
 * the backend interface that every method implements, and the shared services
 * around it: sizes, initial state, summary checks, field files, comparison,
 * clocks and errors. Storage is i fastest: cell (i, j) lives at j*nx + i.
 */
#ifndef HEAT2D_H
#define HEAT2D_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define HEAT2D_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define HEAT2D_PRINTF(fmt, args)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Diffusion number D*dt/dx^2 of the original. The explicit 5-point update
 * is stable (and keeps every value between the field's min and max) only for
 * 0 < alpha <= 1/4; anything else grows without bound. */
#define HEAT2D_ALPHA     0.1
#define HEAT2D_MAX_ALPHA 0.25
#define HEAT2D_MIN_SIDE  5

/* ---- errors ------------------------------------------------------------ */

/* One line of text that says what failed; filled by the failing function and
 * printed once, by the program that gives up. */
typedef struct heat2d_error {
    char message[4096];
} heat2d_error;

/* Room for a message with a few words of context around it. */
#define HEAT2D_MESSAGE_ROOM (sizeof(heat2d_error) + 256)

/* Formats the message into err (if err is non-NULL) and returns -1, so that
 * callers can write `return heat2d_fail(err, ...);`. Control characters
 * (from file names or arguments echoed in the message) are written as \n,
 * \t, \xHH, so the message stays one line whatever the input was. */
int heat2d_fail(heat2d_error *err, const char *fmt, ...) HEAT2D_PRINTF(2, 3);
int heat2d_vfail(heat2d_error *err, const char *fmt, va_list args) HEAT2D_PRINTF(2, 0);

/* Exit statuses: 1 for a failed run or check, 2 for a command line that
 * cannot be understood. */
enum { HEAT2D_EXIT_FAILURE = 1, HEAT2D_EXIT_USAGE = 2 };

/* Prints "heat2d: <message>" on stderr (escaped as heat2d_fail escapes) and
 * returns status. */
int heat2d_report_error(int status, const char *fmt, ...) HEAT2D_PRINTF(2, 3);

/* Reports the option getopt_long just refused ('?') for command, with an
 * optional hint after it; returns HEAT2D_EXIT_USAGE. A single-dash word
 * ("-method") is named whole, with its two-dash spelling; a known option
 * without its value says so; an unknown one names the nearest of options
 * (getopt_long's table, may be NULL). */
struct option;
int heat2d_report_bad_option(const char *command, int argc, char *const argv[],
                             const struct option *options, const char *hint);

/* Under mpirun every rank parses the same arguments and reaches the same
 * verdict: a program tells the library once that this process is not rank
 * 0, and heat2d_report_error then stays silent, so that a job prints one
 * line, not one per rank. (A failure of one rank alone is printed by that
 * rank itself.) */
void heat2d_report_quiet(bool quiet);

/* ---- the problem --------------------------------------------------------- */

/* The floating-point type a method computes in. Fields outside a method
 * (initial state, result, files, summaries) are always double; an f32 run
 * rounds the initial state to float once, computes in float, and widens the
 * result, so that everything downstream is the same code. */
typedef enum heat2d_precision {
    HEAT2D_F64 = 0,
    HEAT2D_F32 = 1,
} heat2d_precision;

/* "f64" or "f32"; parsing refuses anything else. */
const char *heat2d_precision_name(heat2d_precision p);
int heat2d_parse_precision(const char *text, heat2d_precision *p, heat2d_error *err);
/* Bytes of one cell in p: 8 or 4. */
size_t heat2d_precision_bytes(heat2d_precision p);

/* What a method calls with the field after a step, every output_every
 * steps and after the last (a snapshot, as a model writes hourly output or
 * couples to another model): step is the steps done, field nx*ny cells of
 * the run's precision in host memory, valid during the call only. Returns 0,
 * or -1 with err to stop the run. */
typedef int (*heat2d_snapshot_fn)(void *ctx, size_t step, const void *field, heat2d_error *err);

/* How a snapshot reaches the host. */
typedef enum heat2d_snapshot_copy {
    /* The loop stops, the field is copied down, the loop goes on. */
    HEAT2D_SNAPSHOT_PLAIN = 0,
    /* Copied on a stream of its own, from a device buffer into page-locked
     * host memory, while the next steps run; the callback runs while the
     * GPU computes. */
    HEAT2D_SNAPSHOT_OVERLAP = 1,
} heat2d_snapshot_copy;

/* "plain" or "overlap"; parsing refuses anything else. */
const char *heat2d_snapshot_copy_name(heat2d_snapshot_copy c);
int heat2d_parse_snapshot_copy(const char *text, heat2d_snapshot_copy *c, heat2d_error *err);

typedef struct heat2d_config {
    size_t nx;
    size_t ny;
    size_t steps;
    double alpha;
    heat2d_precision precision;
    /* Page-locked host memory: cuda-each's staging buffers, the resident
     * methods' host arrays (allocated so before the clock; PIN_S says what
     * that cost). */
    bool pinned;
    /* Snapshots (methods with has_snapshots): every output_every steps and
     * after the last, the field reaches the host and snapshot() is called;
     * 0: only the final field, as the original. */
    size_t output_every;
    heat2d_snapshot_copy snapshot_copy;
    heat2d_snapshot_fn snapshot;
    void *snapshot_ctx;
    /* Distributed methods with deep_halos: halos this many cells deep,
     * exchanged once every halo_depth steps (fewer messages, some cells
     * computed twice); 0 or 1: one-cell halos exchanged every step. */
    size_t halo_depth;
    /* Test hook, set from HEAT2D_FAULT_NAN_AT_STEP by heat2d_run_method:
     * methods with checks_each_step write a NaN into cell (nx-2, ny-2) of the
     * field after this step, to prove that the run stops there. 0: never. */
    size_t fault_nan_step;
} heat2d_config;

/* cfg->halo_depth with 0 read as 1, the depth a run uses. */
static inline size_t heat2d_halo_depth(const heat2d_config *cfg)
{
    return cfg->halo_depth > 1 ? cfg->halo_depth : 1;
}

/* Refuses a configuration no method may run: alpha outside (0, 1/4] (or not
 * finite), sides below HEAT2D_MIN_SIDE, no steps. */
int heat2d_config_check(const heat2d_config *cfg, heat2d_error *err);

/* Cells and bytes of one array, refusing sizes whose byte count overflows
 * size_t or exceeds what the machine could ever hold. */
int heat2d_grid_bytes(size_t nx, size_t ny, size_t *bytes, heat2d_error *err);

/* The same for one array of cfg's grid in cfg->precision (4 or 8 bytes a
 * cell), refused as heat2d_grid_bytes refuses. */
int heat2d_array_bytes(const heat2d_config *cfg, size_t *bytes, heat2d_error *err);

/* Refuses, before the clock starts, a grid whose two arrays do not fit in
 * a device's free memory: "WHO: grid NXxNY needs 2 x G GB of device memory,
 * more than the F GB free on DEVICE". free_bytes 0 means not reported. */
int heat2d_check_device_memory(const char *who, const heat2d_config *cfg, size_t free_bytes,
                               const char *device, heat2d_error *err);

/* Refuses a grid whose two host arrays of doubles overflow or do not fit
 * in the memory there is (heat2d_memory_limit), naming the limit. */
int heat2d_check_host_memory(size_t nx, size_t ny, heat2d_error *err);

/* Two host arrays of nx*ny doubles, checked by heat2d_check_host_memory. */
int heat2d_alloc_pair(const heat2d_config *cfg, double **u, double **v, heat2d_error *err);
void heat2d_free_pair(double *u, double *v);

/* All zero but the centre cell (0-based ((nx+1)/2-1, (ny+1)/2-1)) = 1. */
void heat2d_initial_state(size_t nx, size_t ny, double *u, double *v);

size_t heat2d_centre_index(size_t nx, size_t ny);

/* ---- what a run reports ------------------------------------------------- */

#define HEAT2D_MAX_PHASES 6

typedef struct heat2d_phase {
    const char *key; /* e.g. "GPU_LOOP_S" */
    double seconds;
} heat2d_phase;

typedef struct heat2d_report {
    /* Where the kernels ran: the GPU's name, or "host", followed for a GPU
     * method on the host by why, e.g. "host (OpenACC built for the host)". */
    char device[128];
    /* True when the counters below come from the runtime or the copy calls. */
    bool transfers_measured;
    uint64_t h2d_count;
    uint64_t h2d_bytes;
    uint64_t d2h_count;
    uint64_t d2h_bytes;
    /* Copies that are not whole arrays, made by a runtime for its own needs
     * (GCC's libgomp uploads each launch's argument table); shown, never
     * hidden, and not part of the transfer model. */
    uint64_t h2d_other_count;
    uint64_t h2d_other_bytes;
    uint64_t d2h_other_count;
    uint64_t d2h_other_bytes;
    /* What the OpenACC profiling interface reported (upload and download
     * events with their byte counts), kept apart from the driver's trace
     * above because runtimes differ in which copies they report. */
    bool acc_events;
    uint64_t acc_upload_events;
    uint64_t acc_upload_bytes;
    uint64_t acc_download_events;
    uint64_t acc_download_bytes;
    /* Summed duration of the copies as the driver timed them; negative when
     * not traced. */
    double h2d_s;
    double d2h_s;
    /* Untimed set-up (device context creation), reported on its own line;
     * negative when the method has none. */
    double context_s;
    /* Loop time from device events, negative when not measured. */
    double device_loop_s;
    /* What bounds a GPU method's loop, for the limits table (0: not
     * reported): time steps per pass through device memory (temporal
     * blocking does several), and the floating-point instructions the
     * device issues per cell-update (7 as the reference writes it, fewer
     * with fused multiply-adds). */
    unsigned pass_steps;
    unsigned fp_ops_per_cell;
    /* Snapshots that reached the host, and the seconds the host waited for
     * their copies (the loop stopped, or blocked on one in flight) and spent
     * in the callback. */
    uint64_t snapshots;
    double snapshot_wait_s;
    double snapshot_callback_s;
    /* Distributed methods (MPI) only; ranks == 0 for every other method.
     * ranks: processes that computed; rank: this one (only rank 0 holds the
     * field and prints); dims: the decomposition, PX ranks along i times PY
     * along j; halo_bytes_per_step: bytes of halo sends all ranks posted per
     * step, counted as they were posted (all of the run's over its steps:
     * with deep halos a K-deep exchange's bytes count once per K steps). */
    int ranks;
    int rank;
    int dims[2];
    uint64_t halo_bytes_per_step;
    /* Rounds of halo exchange the run made, for methods that count them
     * (0: not counted, or none): with deep halos one every halo_depth steps
     * or fewer (a period shortened by a snapshot or the run's end). */
    uint64_t halo_exchanges;
    /* Set by a rank that failed inside the time loop, where its peers wait
     * for halos that will never come: the program prints this rank's line
     * and ends the whole job (heat2d_process_abort). Failures every rank knows of
     * (a refused decomposition, an allocation agreed on collectively) leave
     * it false and end normally. */
    bool abort_peers;
    size_t n_phases;
    heat2d_phase phases[HEAT2D_MAX_PHASES];
} heat2d_report;

void heat2d_report_init(heat2d_report *rep);

/* Whether a report's device is the host ("host", or "host (why)"). */
bool heat2d_device_is_host(const char *device);
void heat2d_report_phase(heat2d_report *rep, const char *key, double seconds);

/* ---- the backend interface ---------------------------------------------- */

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

/* A method's hand-over of a snapshot that is in host memory: counted in
 * rep->snapshots, cfg->snapshot called (if set), its time in
 * rep->snapshot_callback_s. */
int heat2d_hand_snapshot(const heat2d_config *cfg, size_t step, const void *field,
                         heat2d_report *rep, heat2d_error *err);

/* The transfer model of SPEC section 2 for a method: counts and bytes that
 * must cross for cfg. */
void heat2d_transfer_model(const heat2d_method *m, const heat2d_config *cfg, uint64_t *h2d_count,
                           uint64_t *h2d_bytes, uint64_t *d2h_count, uint64_t *d2h_bytes);

/* ---- running one method ------------------------------------------------- */

/* The timed part of a run of a non-distributed method in cfg->precision.
 * u holds the initial state and v the same (doubles, as for m->solve); on
 * success *result points at u or v, which holds the final field as doubles,
 * and *seconds is the time of m->solve or m->solve_f32 alone (an f32 run's
 * rounding to float and widening back happen outside it). Refuses, with the
 * method's name, a precision the method has no path for. */
int heat2d_solve(const heat2d_method *m, const heat2d_config *cfg, double *u, double *v,
                 double **result, double *seconds, heat2d_report *rep, heat2d_error *err);

/* How far an f32 run may be from the f64 run of the same configuration, in
 * any cell, when the initial state is bounded by max_abs: rounding the
 * initial state (2^-24 relative) plus, per step, the roundings of the
 * update's six operations and of alpha, which sum to less than 7 x 2^-24 x
 * max_abs, since every intermediate is bounded by 4 x max_abs and the exact
 * update is a convex combination (alpha <= 1/4): errors made in one step
 * are carried, never amplified, by the next. So
 *     |f32 - f64| <= (1 + 7 * steps) * 2^-24 * max_abs.
 * Valid without FMA contraction and with it (a fused multiply-add rounds
 * once where two roundings are counted). */
double heat2d_f32_error_bound(size_t steps, double max_abs);

/* How far a run in precision p of an initial state bounded by 1 may be from
 * the f64 run, per cell: 0 for f64, heat2d_f32_error_bound(steps, 1) for
 * f32. The summary check and heat2d check widen their bounds by it. */
double heat2d_precision_slack(heat2d_precision p, size_t steps);

typedef struct heat2d_summary {
    double mass;
    double centre;
    double min;
    double max;
} heat2d_summary;

/* Sum in storage order (the order of the original's SUM), min, max, centre,
 * and the original's sanity check: all finite, min >= -1e-12,
 * max <= 1 + 1e-12, -1e-12 <= mass <= 1 + 1e-10. */
int heat2d_summarise(size_t nx, size_t ny, const double *field, heat2d_summary *sum,
                     heat2d_error *err);
/* The same check with each bound widened by slack per cell (the mass's by
 * slack x nx x ny): an f32 run may overshoot 1 or undershoot 0 by its
 * rounding error. */
int heat2d_summarise_within(size_t nx, size_t ny, const double *field, double slack,
                            heat2d_summary *sum, heat2d_error *err);
/* The check of a run of the standard initial state in cfg->precision: no
 * slack for f64, heat2d_f32_error_bound(steps, 1) for f32. */
int heat2d_summarise_run(const heat2d_config *cfg, const double *field, heat2d_summary *sum,
                         heat2d_error *err);

typedef struct heat2d_outcome {
    heat2d_summary summary;
    heat2d_report report;
    double total_s;
} heat2d_outcome;

/* The first cell in storage order that is not finite; false if none. */
bool heat2d_find_nonfinite(size_t nx, size_t ny, const double *field, size_t *i, size_t *j);

/* The failure of a run whose field, after `step` steps, holds a non-finite
 * value: "non-finite value at cell (i, j) after step K". Returns -1. */
int heat2d_fail_nonfinite(size_t nx, size_t ny, const double *field, size_t step,
                          heat2d_error *err);

/* KEY=VALUE lines of the seed protocol, then heat2d's own keys. */
void heat2d_print_outcome(FILE *stream, const heat2d_method *m, const heat2d_config *cfg,
                          const heat2d_outcome *out);

/* ---- field files -------------------------------------------------------- */

/* First line "nx ny", then one "%24.16E" value per line, i fastest. Written
 * to a temporary name in the same directory, then renamed; any write or close
 * error is an error and leaves no file behind. */
int heat2d_field_write(const char *path, size_t nx, size_t ny, const double *field,
                       heat2d_error *err);

/* Fails early, before any computation, when path's directory does not exist
 * or cannot be written, so that a long run does not end in a lost result. */
int heat2d_field_check_writable(const char *path, heat2d_error *err);

typedef struct heat2d_field {
    size_t nx;
    size_t ny;
    double *values;
} heat2d_field;

/* The longest line a field file may have, its terminator not counted: far
 * more than any double written out in full (printf's %.1074f of -DBL_MAX
 * is 1385 characters) with blanks around it. So a header of nx*ny values
 * bounds the file: at most the header and nx*ny lines of this many bytes
 * and a \r\n, and anything longer (/dev/zero, a sparse file) is refused as
 * soon as that is known. */
#define HEAT2D_FIELD_MAX_LINE 4096

/* Reads a field file, checking header, shape (>= 5x5), line count and that
 * every value is a finite number. Accepts the original's three-digit exponent
 * form without 'E' (e.g. 8.8357301208401164-271) and 'D' exponents.
 * Reads with read() in chunks, in memory for the values alone (refused up
 * front, or as they come, when more than heat2d_memory_limit), from
 * anything that can be opened: a regular file is held to its size, and one
 * that shrinks, grows or is rewritten while read is an error; a pipe or
 * device is refused at the first value past the header's count. */
int heat2d_field_read(const char *path, heat2d_field *field, heat2d_error *err);
void heat2d_field_free(heat2d_field *field);

/* heat2d_field_read with its reads under a test's control: chunk_bytes per
 * read() (0: the default, 1 MiB), and after_read(ctx, bytes so far) called
 * after each, where a test cuts the file short or rewrites it. */
typedef struct heat2d_field_read_hook {
    size_t chunk_bytes;
    void (*after_read)(void *ctx, uint64_t bytes_read);
    void *ctx;
} heat2d_field_read_hook;
int heat2d_field_read_hooked(const char *path, const heat2d_field_read_hook *hook,
                             heat2d_field *field, heat2d_error *err);

/* The checks of heat2d_field_read on the size bytes at data (no terminating
 * NUL needed, none read), as on a regular file of that size, with messages
 * that name the file `name`. */
int heat2d_field_parse(const char *name, const char *data, size_t size, heat2d_field *field,
                       heat2d_error *err);

/* Parses one number as the field reader does; returns 0 and sets *value, or
 * -1 when text[0..len) is not a number. Exposed for tests and fuzzing. */
int heat2d_parse_real(const char *text, size_t len, double *value);

/* ---- comparison --------------------------------------------------------- */

typedef struct heat2d_tolerance {
    double atol;
    double rtol;
} heat2d_tolerance;

#define HEAT2D_DEFAULT_ATOL 2e-12
#define HEAT2D_DEFAULT_RTOL 2e-10

typedef struct heat2d_comparison {
    double max_abs_diff;
    size_t worst_index;
    size_t failures;
} heat2d_comparison;

/* Per cell |a-b| <= atol + rtol*|a| with a the reference, as the original. */
void heat2d_compare_arrays(const double *reference, const double *candidate, size_t n,
                           heat2d_tolerance tol, heat2d_comparison *result);

/* ---- clocks and small helpers ------------------------------------------- */

/* Monotonic wall time in seconds. */
double heat2d_now(void);

/* Strict positive integer: all of text, digits only, no sign, no overflow. */
int heat2d_parse_size(const char *text, const char *what, size_t *value, heat2d_error *err);

/* Non-negative finite real: all of text, no leading blanks. */
int heat2d_parse_nonneg_real(const char *text, const char *what, double *value, heat2d_error *err);

/* A diffusion number the explicit update is stable with: finite, > 0 and
 * <= HEAT2D_MAX_ALPHA, with the reason in the message when not. */
int heat2d_parse_alpha(const char *text, const char *what, double *value, heat2d_error *err);

/* The seed-compatible programs' arguments, `[nx [ny [steps [field_path]]]]`
 * after argv[0], into cfg (defaults 256 256 80, alpha HEAT2D_ALPHA) and
 * *field_path (NULL when absent). Only parses: touches no file. */
int heat2d_seed_args(int argc, char *const *argv, heat2d_config *cfg, const char **field_path,
                     heat2d_error *err);

/* Physical memory of this machine in bytes, 0 if unknown. */
uint64_t heat2d_physical_memory(void);

/* The sources heat2d_memory_limit names (compare them with strcmp). */
#define HEAT2D_MEMORY_PHYSICAL  "physical memory"
#define HEAT2D_MEMORY_CGROUP_V2 "cgroup memory limit (memory.max)"
#define HEAT2D_MEMORY_CGROUP_V1 "cgroup v1 memory limit"
#define HEAT2D_MEMORY_RLIMIT_AS "RLIMIT_AS (ulimit -v)"

/* The memory this process may use, in bytes: the least of physical memory,
 * its cgroup's limit and every ancestor's (v2 memory.max, v1
 * memory.limit_in_bytes; "max" is none) and RLIMIT_AS; 0 if none is known.
 * *source (when source is non-NULL) is set to the HEAT2D_MEMORY_* string of
 * the one that set it, NULL with 0. Reads /proc and /sys on every call. */
uint64_t heat2d_memory_limit(const char **source);

/* The same with /proc/self/cgroup and /sys/fs/cgroup read under root, a
 * fake tree for tests ("" reads the real ones). */
uint64_t heat2d_memory_limit_under(const char *root, const char **source);

/* What a refusal says after "more than ", with limit and source as
 * heat2d_memory_limit gives them: "this machine's 16 GB of memory" for
 * physical memory (or an unknown source), else "the 0.537 GB RLIMIT_AS
 * (ulimit -v) allows". Writes buf (size bytes) and returns it. */
const char *heat2d_memory_limit_text(char *buf, size_t size, uint64_t limit, const char *source);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_H */
