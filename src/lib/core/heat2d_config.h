/* The problem a run solves: its constants, precision, snapshots every K
 * steps, the configuration, its sizes and the initial state. */
#ifndef HEAT2D_CONFIG_H
#define HEAT2D_CONFIG_H

#include "heat2d_error.h"
#include "heat2d_field_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Diffusion number D*dt/dx^2 of the original. The explicit 5-point update
 * is stable (and keeps every value between the field's min and max) only for
 * 0 < alpha <= 1/4; anything else grows without bound. */
#define HEAT2D_ALPHA     0.1
#define HEAT2D_MAX_ALPHA 0.25
#define HEAT2D_MIN_SIDE  5

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
int heat2d_parse_precision(const char *text, const char *what, heat2d_precision *p,
                           heat2d_error *err);
/* Bytes of one cell in p: 8 or 4. */
size_t heat2d_precision_bytes(heat2d_precision p);

/* What a method calls with the field after a step, every output_every
 * steps and after the last (a snapshot, as a model writes hourly output or
 * couples to another model): step is the steps done, field nx*ny cells of
 * the run's precision in host memory, valid during the call only; stats the
 * field's invariants where the method found them on the device, else NULL
 * (the handler scans the field if it needs them). Returns 0, or -1 with err
 * to stop the run. */
typedef int (*heat2d_snapshot_fn)(void *ctx, size_t step, const void *field,
                                  const heat2d_field_stats *stats, heat2d_error *err);

/* How a snapshot reaches the host. */
typedef enum heat2d_snapshot_copy {
    /* The loop stops, the field is copied down, the loop goes on. */
    HEAT2D_SNAPSHOT_PLAIN = 0,
    /* Copied on a stream of its own, from a device buffer into page-locked
     * host memory, while the next steps run; the callback runs while the
     * GPU computes. */
    HEAT2D_SNAPSHOT_OVERLAP = 1,
} heat2d_snapshot_copy;

/* "plain" or "overlap" (--snapshot-copy parses them: run_options.h). */
const char *heat2d_snapshot_copy_name(heat2d_snapshot_copy c);

/* What a run writes each snapshot as when --save-every names no place: the
 * cost of writing, into a scratch folder removed at the end. */
typedef enum heat2d_snapshot_writer {
    HEAT2D_WRITER_NONE = 0,   /* checked only */
    HEAT2D_WRITER_TEXT = 1,   /* a step file each, the original's format */
    HEAT2D_WRITER_NETCDF = 2, /* a record each of one NetCDF series */
} heat2d_snapshot_writer;

/* "none", "text" or "netcdf" (--snapshot-writer parses them: run_options.h). */
const char *heat2d_snapshot_writer_name(heat2d_snapshot_writer w);

/* A state to start from instead of the unit heat at the centre (--initial),
 * and the bounds every later state keeps: the scheme (alpha <= 1/4, 0 on
 * the boundary) keeps each cell within [min(u0, 0), max(u0, 0)] and the
 * masses of the positive and of the negative part from growing. */
typedef struct heat2d_initial {
    const double *values;    /* nx*ny doubles, i fastest, 0 on the boundary */
    double lo, hi;           /* min(min u0, 0), max(max u0, 0) */
    double mass_lo, mass_hi; /* minus the negative cells' sum, the positive cells' sum */
    double scale;            /* max |u0|: what the rounding bounds scale with */
} heat2d_initial;

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
    /* A heat2d_snapshot_writer (--snapshot-writer): what each snapshot is
     * written as, into a scratch folder removed at the end, when
     * --save-every names no place. */
    size_t snapshot_writer;
    heat2d_snapshot_fn snapshot;
    void *snapshot_ctx;
    /* Progress (a terminal's line): heat2d_run_segments calls progress
     * with the steps done after each snapshot, and, with progress_pieces,
     * after pieces of a few tenths of a second between them (set by
     * heat2d_run_method for the methods whose steps run on the host, one
     * process: there a piece ends when its steps are done, and costs
     * nothing). NULL: none, and the loop is as without it. */
    void (*progress)(void *ctx, size_t done);
    void *progress_ctx;
    bool progress_pieces;
    /* Where the run writes, as its command line names it (--save FILE,
     * --save-every PLACE; NULL: not given). Rank 0 alone writes, so the
     * ranks of a distributed run must agree on them (mpi_settings.c). */
    const char *save_path;
    const char *save_every_path;
    /* --force: what is there replaced whatever it holds (rank 0's files,
     * so the ranks must agree on it too). */
    bool force;
    /* Distributed methods with deep_halos: halos this many cells deep,
     * exchanged once every halo_depth steps (fewer messages, some cells
     * computed twice); 0 or 1: one-cell halos exchanged every step. */
    size_t halo_depth;
    /* NULL: the standard initial state (heat2d_initial_state). */
    const heat2d_initial *initial;
    /* The step the initial state is at: 0, or STEP of a run started from
     * a series' record FILE.nc:STEP, whose clock it continues (its
     * snapshots are steps first_step + k). Only the run's files and its
     * output see it; a method counts its steps from 0. */
    size_t first_step;
    /* Physical units (heat2d_physical.h): cell size (m), time step (s),
     * diffusivity (m^2/s); 0 where unknown. alpha is what a method uses. */
    double dx, dt, diffusivity;
    /* Test hook, set from HEAT2D_FAULT_NAN_AT_STEP by heat2d_run_method:
     * methods with checks_each_step write a NaN into cell (nx-2, ny-2) of the
     * field after this step, to prove that the run stops there. 0: never. */
    size_t fault_nan_step;
} heat2d_config;

/* cfg->halo_depth with 0 read as 1, the depth a run uses. */
size_t heat2d_halo_depth(const heat2d_config *cfg);

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
/* u and v set to cfg's initial state: cfg->initial's, else the standard. */
void heat2d_initial_state_of(const heat2d_config *cfg, double *u, double *v);
/* values (nx x ny) as an initial state: refused with the first cell that
 * is not finite or, on the boundary, not 0; init->values is values. */
int heat2d_initial_from(heat2d_initial *init, size_t nx, size_t ny, const double *values,
                        heat2d_error *err);

size_t heat2d_centre_index(size_t nx, size_t ny);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_CONFIG_H */
