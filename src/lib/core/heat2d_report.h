/* What a run reports: where its kernels ran, what crossed to the device, and
 * its phases. */
#ifndef HEAT2D_REPORT_H
#define HEAT2D_REPORT_H

#include "heat2d_config.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    /* True when they are the transfer model's instead, where nothing could
     * count them and the model is certain: a directive model's regions on
     * the host device, where mapping makes no copy (OpenMP without OMPT). */
    bool transfers_modelled;
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
    /* The bytes the snapshots' files hold at the end (a writer's, or
     * --save-every's), set by the program that wrote them: what one record
     * costs the file system. */
    uint64_t snapshot_bytes_written;
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

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_REPORT_H */
