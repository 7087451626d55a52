/* One trial's record, in one table: the KEY=VALUE lines a run prints, what
 * the bench reads back from a run, and the columns of trials.csv. A new
 * counter is one entry here (and the code that measures it).
 *
 * X(ID, KEY, COLUMN, TYPE, SHOWN, VALUE), in the order of trials.csv:
 *   ID      HEAT2D_FIELD_<ID> names the entry;
 *   KEY     what `heat2d run` prints (NULL: the bench knows it itself);
 *   COLUMN  the column of trials.csv (NULL: printed only);
 *   TYPE    TEXT, COUNT (an unsigned integer), REAL or DIMS ("PXxPY");
 *   SHOWN   whether heat2d_print_outcome prints it after the seed block, an
 *           expression in cfg, out and rep (&out->report); false for the
 *           seed block's keys, the phases and the bench's own fields;
 *   VALUE   what it prints, an expression in the same names.
 * The seed block (METHOD .. CHECK=PASS) and the phases (rep->phases, which
 * a method names) are printed first, in the original's order; an entry of a
 * phase makes its key a column. Columns only ever grow at the end, so that
 * a reader may index the older ones by position. */
#ifndef HEAT2D_TRIAL_SCHEMA_H
#define HEAT2D_TRIAL_SCHEMA_H

/* clang-format off */
#define HEAT2D_TRIAL_FIELDS(X)                                                                     \
    /* The original benchmark's columns, in its order. */                                          \
    X(METHOD, NULL, "method", TEXT, false, 0)                                                      \
    X(TRIAL, NULL, "trial", COUNT, false, 0)                                                       \
    X(NX, "NX", "nx", COUNT, false, 0)                                                             \
    X(NY, "NY", "ny", COUNT, false, 0)                                                             \
    X(STEPS, "STEPS", "steps", COUNT, true, cfg->steps)                                            \
    X(TOTAL_S, "TOTAL_S", "total_s", REAL, false, 0)                                               \
    X(MASS, "MASS", "mass", REAL, false, 0)                                                        \
    X(CENTRE, "CENTRE", "centre", REAL, false, 0)                                                  \
    X(ENTER_S, "ENTER_S", "enter_s", REAL, false, 0)                                               \
    X(GPU_LOOP_S, "GPU_LOOP_S", "gpu_loop_s", REAL, false, 0)                                      \
    X(READBACK_S, "READBACK_S", "readback_s", REAL, false, 0)                                      \
    X(EXIT_S, "EXIT_S", "exit_s", REAL, false, 0)                                                  \
    X(STEP_REGIONS_S, "STEP_REGIONS_S", "step_regions_s", REAL, false, 0)                          \
    X(CPU_LOOP_S, "CPU_LOOP_S", "cpu_loop_s", REAL, false, 0)                                      \
    X(PROCESS_S, NULL, "process_s", REAL, false, 0)                                                \
    /* heat2d's own. */                                                                            \
    X(DEVICE, "DEVICE", "device", TEXT, true, rep->device)                                         \
    X(H2D_COUNT, "H2D_COUNT", "h2d_count", COUNT, true, rep->h2d_count)                            \
    X(H2D_BYTES, "H2D_BYTES", "h2d_bytes", COUNT, true, rep->h2d_bytes)                            \
    X(D2H_COUNT, "D2H_COUNT", "d2h_count", COUNT, true, rep->d2h_count)                            \
    X(D2H_BYTES, "D2H_BYTES", "d2h_bytes", COUNT, true, rep->d2h_bytes)                            \
    X(H2D_S, "H2D_S", "h2d_s", REAL, rep->h2d_s >= 0.0, rep->h2d_s)                                \
    X(D2H_S, "D2H_S", "d2h_s", REAL, rep->d2h_s >= 0.0, rep->d2h_s)                                \
    X(CONTEXT_S, "CONTEXT_S", "context_s", REAL, rep->context_s >= 0.0, rep->context_s)            \
    X(DEVICE_LOOP_S, "DEVICE_LOOP_S", "device_loop_s", REAL, rep->device_loop_s >= 0.0,            \
      rep->device_loop_s)                                                                          \
    X(GCELLS_PER_S, "GCELLS_PER_S", "gcells_per_s", REAL, out->total_s > 0.0,                      \
      (double)cfg->nx * (double)cfg->ny * (double)cfg->steps / out->total_s / 1e9)                 \
    X(TRANSFERS, "TRANSFERS", "transfers", TEXT, true,                                             \
      rep->transfers_measured   ? "measured"                                                       \
      : rep->transfers_modelled ? "model"                                                          \
                                : "none")                                                          \
    X(RUN, NULL, "run", TEXT, false, 0)                                                            \
    /* Distributed methods (MPI). */                                                               \
    X(RANKS, "RANKS", "ranks", COUNT, rep->ranks > 0, rep->ranks)                                  \
    X(DECOMP, "DECOMP", "decomp", DIMS, rep->ranks > 0, rep->dims)                                 \
    X(HALO_BYTES_PER_STEP, "HALO_BYTES_PER_STEP", "halo_bytes_per_step", COUNT, rep->ranks > 0,    \
      rep->halo_bytes_per_step)                                                                    \
    X(PRECISION, "PRECISION", "precision", TEXT, true, heat2d_precision_name(cfg->precision))      \
    /* Phases some methods report besides the original's. */                                      \
    X(PIN_S, "PIN_S", "pin_s", REAL, false, 0)                                                     \
    X(ALLOC_S, "ALLOC_S", "alloc_s", REAL, false, 0)                                               \
    X(HALO_WAIT_S, "HALO_WAIT_S", "halo_wait_s", REAL, false, 0)                                   \
    X(GATHER_S, "GATHER_S", "gather_s", REAL, false, 0)                                            \
    /* What bounds a GPU method: steps per pass, FP instructions a cell. */                        \
    X(PASS_STEPS, "PASS_STEPS", "pass_steps", COUNT, rep->pass_steps > 0, rep->pass_steps)         \
    X(FP_OPS_PER_CELL, "FP_OPS_PER_CELL", "fp_ops_per_cell", COUNT, rep->fp_ops_per_cell > 0,     \
      rep->fp_ops_per_cell)                                                                        \
    /* Snapshots: every OUTPUT_EVERY steps the field reaches the host. */                          \
    X(OUTPUT_EVERY, "OUTPUT_EVERY", "output_every", COUNT, cfg->output_every > 0,                 \
      cfg->output_every)                                                                           \
    X(SNAPSHOT_COPY, "SNAPSHOT_COPY", "snapshot_copy", TEXT, cfg->output_every > 0,               \
      heat2d_snapshot_copy_name(cfg->snapshot_copy))                                               \
    X(SNAPSHOTS, "SNAPSHOTS", "snapshots", COUNT, cfg->output_every > 0, rep->snapshots)           \
    X(SNAPSHOT_WAIT_S, "SNAPSHOT_WAIT_S", "snapshot_wait_s", REAL, cfg->output_every > 0,         \
      rep->snapshot_wait_s)                                                                        \
    X(SNAPSHOT_CALLBACK_S, "SNAPSHOT_CALLBACK_S", "snapshot_callback_s", REAL,                     \
      cfg->output_every > 0, rep->snapshot_callback_s)                                             \
    /* The row's name in every table and plot (bench_label). */                                   \
    X(LABEL, NULL, "label", TEXT, false, 0)                                                        \
    /* Printed, not recorded. */                                                                   \
    X(MIN, "MIN", NULL, REAL, false, 0)                                                            \
    X(MAX, "MAX", NULL, REAL, false, 0)                                                            \
    X(ALPHA, "ALPHA", NULL, REAL, true, cfg->alpha)                                                \
    /* Halos: the depth a distributed method ran with (1 but with mpi-cpu's                        \
     * --halo-depth), the rounds of exchange where counted (mpi-cpu); not                          \
     * recorded while the bench runs depth 1 alone. */                                             \
    X(HALO_DEPTH, "HALO_DEPTH", "halo_depth", COUNT, rep->ranks > 0, heat2d_halo_depth(cfg))               \
    X(HALO_EXCHANGES, "HALO_EXCHANGES", NULL, COUNT, rep->halo_exchanges > 0,                      \
      rep->halo_exchanges)                                                                         \
    X(H2D_OTHER_COUNT, "H2D_OTHER_COUNT", NULL, COUNT,                                             \
      rep->h2d_other_count + rep->d2h_other_count > 0, rep->h2d_other_count)                       \
    X(H2D_OTHER_BYTES, "H2D_OTHER_BYTES", NULL, COUNT,                                             \
      rep->h2d_other_count + rep->d2h_other_count > 0, rep->h2d_other_bytes)                       \
    X(D2H_OTHER_COUNT, "D2H_OTHER_COUNT", NULL, COUNT,                                             \
      rep->h2d_other_count + rep->d2h_other_count > 0, rep->d2h_other_count)                       \
    X(D2H_OTHER_BYTES, "D2H_OTHER_BYTES", NULL, COUNT,                                             \
      rep->h2d_other_count + rep->d2h_other_count > 0, rep->d2h_other_bytes)                       \
    X(ACC_EVENTS_H2D_COUNT, "ACC_EVENTS_H2D_COUNT", NULL, COUNT, rep->acc_events,                  \
      rep->acc_upload_events)                                                                      \
    X(ACC_EVENTS_H2D_BYTES, "ACC_EVENTS_H2D_BYTES", NULL, COUNT, rep->acc_events,                  \
      rep->acc_upload_bytes)                                                                       \
    X(ACC_EVENTS_D2H_COUNT, "ACC_EVENTS_D2H_COUNT", NULL, COUNT, rep->acc_events,                  \
      rep->acc_download_events)                                                                    \
    X(ACC_EVENTS_D2H_BYTES, "ACC_EVENTS_D2H_BYTES", NULL, COUNT, rep->acc_events,                  \
      rep->acc_download_bytes)                                                                     \
    /* What snapshots were written as (--snapshot-writer; with --save-every                        \
     * its format), and the bytes their files hold at the end. */                                  \
    X(SNAPSHOT_WRITER, "SNAPSHOT_WRITER", "snapshot_writer", TEXT, cfg->output_every > 0,          \
      heat2d_snapshot_writer_name((heat2d_snapshot_writer)cfg->snapshot_writer))                   \
    X(SNAPSHOT_BYTES_WRITTEN, "SNAPSHOT_BYTES_WRITTEN", "snapshot_bytes_written", COUNT,           \
      cfg->output_every > 0 && cfg->snapshot_writer > 0, rep->snapshot_bytes_written)             \
    /* Printed, not recorded: a run continued from a record's step, and its                        \
     * physical units where known (heat2d_physical.h: m, s, m^2/s). */                             \
    X(FIRST_STEP, "FIRST_STEP", NULL, COUNT, cfg->first_step > 0, cfg->first_step)                 \
    X(DX, "DX", NULL, REAL, cfg->dx > 0.0, cfg->dx)                                                \
    X(DT, "DT", NULL, REAL, cfg->dt > 0.0, cfg->dt)                                                \
    X(DIFFUSIVITY, "DIFFUSIVITY", NULL, REAL, cfg->diffusivity > 0.0, cfg->diffusivity)           \
    /* A program's row (bench --program): its path; empty for a method. */                         \
    X(PROGRAM, NULL, "program", TEXT, false, 0)
/* clang-format on */

typedef enum heat2d_field_type {
    HEAT2D_TEXT,
    HEAT2D_COUNT,
    HEAT2D_REAL,
    HEAT2D_DIMS,
} heat2d_field_type;

typedef enum heat2d_field_id {
#define HEAT2D_FIELD_ENUM(id, key, column, type, shown, value) HEAT2D_FIELD_##id,
    HEAT2D_TRIAL_FIELDS(HEAT2D_FIELD_ENUM)
#undef HEAT2D_FIELD_ENUM
        HEAT2D_N_FIELDS
} heat2d_field_id;

typedef struct heat2d_field_def {
    const char *key;    /* NULL: not printed by a run */
    const char *column; /* NULL: not in trials.csv */
    heat2d_field_type type;
} heat2d_field_def;

/* The table above as data, indexed by heat2d_field_id. */
extern const heat2d_field_def heat2d_trial_fields[HEAT2D_N_FIELDS];

#endif /* HEAT2D_TRIAL_SCHEMA_H */
