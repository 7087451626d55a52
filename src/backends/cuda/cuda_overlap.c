/* cuda-overlap: the per-step model of cuda-each, with the copies hidden
 * behind each other.
 *
 * For a user whose host must see every step. The data flow is cuda-each's:
 * every step, the host's u goes up (S bytes) and the new v comes down (S
 * bytes) into the other host array, which is the next step's u; the device
 * computes only from what was uploaded. What changes is that a step is cut
 * into C chunks of whole rows, and uploads, kernels and downloads run on
 * three streams (so on the two copy engines and the SMs at once), ordered
 * only by what each chunk really needs. cuda-each serialises
 * S/H2D + kernel + S/D2H per step; here the engines run side by side, and the
 * floor per step is max(S/H2D, S/D2H) on a full-duplex link.
 *
 * Buffers: the caller's u and v, page-locked in place (PIN_S, inside the
 * timed region as for cuda-each --pinned; asynchronous copies need pinned
 * memory, so this method is always pinned), and two device arrays: dev_u
 * always receives the uploads, dev_v always holds the kernel's output.
 * Computing the next step from dev_v, which already holds the previous
 * step's output, would give the same numbers and make the upload pointless:
 * a missing or late upload would go unnoticed. Here the field makes the
 * round trip through host memory every step, as the model says, and the
 * comparison with cpu proves that every upload landed before it was used.
 *
 * Chunk k of step s, for rows row[k]..row[k+1]-1 (each chunk at least one
 * row, so a chunk's halo rows lie in its two neighbours):
 *
 *   up(s,k)    host_in rows k -> dev_u rows k          (upload stream)
 *              after down(s-1,k): that host chunk is what it brought back
 *              after comp(s-1,k+1): the last reader of dev_u rows k
 *   comp(s,k)  dev_u rows k-1..k+1 -> dev_v rows k     (compute stream)
 *              after up(s,k+1), so after up(s,0..k+1) by stream order
 *   down(s,k)  dev_v rows k -> host_out rows k         (download stream)
 *              after comp(s,k)
 *
 * (k+1 is k for the last chunk.) Everything else follows from stream order:
 * comp(s,k) overwrites dev_v rows k after down(s-1,k) read them (it waits
 * for up(s,k+1), which came after up(s,k), which waited for down(s-1,k));
 * down(s,k) overwrites host rows k after up(s-1,k) read them (comp(s,k) came
 * after comp(s-1,k), which waited for up(s-1,k+1)).
 *
 * In time, the steady state is two copy engines busy at once:
 *
 *   download engine  | d(s,0) d(s,1) d(s,2) ... d(s,C-1) | d(s+1,0) ...
 *   upload engine          | u(s+1,0) u(s+1,1) ... u(s+1,C-1) | u(s+2,0)
 *   SMs                            c(s+1,0) c(s+1,1) ...
 *
 * u(s+1,k) trails d(s,k) by one chunk, c(s+1,k) follows u(s+1,k+1), and
 * d(s+1,0) needs c(s+1,0), about 3 chunks into the step, so with C >= 4 the
 * download engine never waits: a step costs C chunk copies on the slower
 * engine, S/min(H2D, D2H), plus the fill and drain of about 3 chunks once per
 * run.
 *
 * The host queues the work of one step at a time, in the order the device
 * needs it, then waits until the previous step has fully landed in host
 * memory. At that point step s-1's field is complete in host_in and stays
 * unchanged until the host queues step s+1 (only step s+1's downloads write
 * there): this is where a program that looks at every step would look, while
 * the device works on step s. The wait also bounds the queue to two steps.
 *
 * Transfers are counted at the copy calls: one logical upload and one
 * download per step (H2D_COUNT = D2H_COUNT = N, the model's count), their
 * bytes the sum of the chunks' bytes, N*S exactly. CHUNKS_PER_STEP says how
 * many copies of each direction a step is cut into.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_common.h"
#include "cuda_kernels.h"

/* Chunks per step. Enough to keep both engines busy (the pipeline above needs
 * about 4); each about 8 MiB, so that the fixed cost of a copy and of the
 * event waits around it stays small against its transfer; at most 16, past
 * which fill and drain are already a small part of a run; and not below
 * 1 MiB per chunk just to reach 4, where those fixed costs would eat what
 * the overlap saves.
 * HEAT2D_OVERLAP_CHUNKS overrides the choice. Either way a grid gets at most
 * ny chunks.
 * Measurements: docs/performance.md, "cuda-overlap". */
#define OVERLAP_TARGET_CHUNK_BYTES ((size_t)8 << 20)
#define OVERLAP_MIN_CHUNK_BYTES    ((size_t)1 << 20)
#define OVERLAP_PIPELINE_CHUNKS    4
#define OVERLAP_MAX_CHUNKS         16
#define OVERLAP_MAX_CHUNKS_ENV     4096

/* Steps whose completion the host tracks: the one it waits for and the one
 * just queued. */
#define OVERLAP_STEP_SLOTS 2

typedef struct overlap_state {
    /* Byte pointers: chunks are addressed as cell offsets times the cell's
     * size in cfg->precision. */
    char *dev_u;
    char *dev_v;
    /* The host arrays as registered; the loop swaps its own pointers. */
    void *pinned_u;
    void *pinned_v;
    cudaStream_t up;
    cudaStream_t compute;
    cudaStream_t down;
    /* up_done[C], comp_done[C], down_done[C], step_done[OVERLAP_STEP_SLOTS],
     * loop_start, loop_stop; n_events of them created so far. */
    cudaEvent_t *events;
    size_t n_events;
    cudaEvent_t *up_done, *comp_done, *down_done, *step_done;
    cudaEvent_t loop_start, loop_stop;
    /* chunks + 1 row boundaries */
    size_t chunks;
    size_t *row;
    size_t row_bytes; /* nx cells */
    double t_loop;    /* when the loop began */
} overlap_state;

static int overlap_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_cuda_prepare("cuda-overlap", cfg, rep, err);
}

static size_t default_chunks(size_t bytes)
{
    size_t chunks = bytes / OVERLAP_TARGET_CHUNK_BYTES;
    if (chunks < OVERLAP_PIPELINE_CHUNKS) {
        chunks = bytes / OVERLAP_MIN_CHUNK_BYTES;
        if (chunks > OVERLAP_PIPELINE_CHUNKS)
            chunks = OVERLAP_PIPELINE_CHUNKS;
    }
    if (chunks > OVERLAP_MAX_CHUNKS)
        chunks = OVERLAP_MAX_CHUNKS;
    return chunks < 1 ? 1 : chunks;
}

/* Chunks per step: HEAT2D_OVERLAP_CHUNKS (all digits, 1..4096) or the
 * default, then at most ny, so that every chunk has a row. */
static int choose_chunks(const heat2d_config *cfg, size_t bytes, size_t *chunks, heat2d_error *err)
{
    const char *text = getenv("HEAT2D_OVERLAP_CHUNKS");
    size_t value = default_chunks(bytes);
    if (text != NULL && text[0] != '\0') {
        bool ok = true;
        value = 0;
        for (const char *p = text; ok && *p != '\0'; ++p) {
            ok = *p >= '0' && *p <= '9';
            value = ok ? value * 10 + (size_t)(*p - '0') : value;
            ok = ok && value <= OVERLAP_MAX_CHUNKS_ENV; /* also stops any overflow */
        }
        if (!ok || value < 1)
            return heat2d_fail(err,
                               "cuda-overlap: HEAT2D_OVERLAP_CHUNKS=%s is not a chunk count "
                               "(1..%d)",
                               text, OVERLAP_MAX_CHUNKS_ENV);
    }
    *chunks = value < cfg->ny ? value : cfg->ny;
    return 0;
}

/* Waits for everything queued, then releases whatever st holds, trying every
 * release even after one fails; returns the first failure. The wait comes
 * first even on an error path: a copy still queued must not touch the host
 * arrays once their page locks are gone and the caller frees them. */
static cudaError_t release_state(overlap_state *st)
{
    cudaError_t first = cudaSuccess;
#define OVERLAP_KEEP_FIRST(expr)                                                                   \
    do {                                                                                           \
        const cudaError_t overlap_rc_ = (expr);                                                    \
        if (first == cudaSuccess)                                                                  \
            first = overlap_rc_;                                                                   \
    } while (0)
    cudaStream_t *streams[3] = {&st->up, &st->compute, &st->down};
    for (size_t k = 0; k < 3; ++k)
        if (*streams[k] != NULL)
            OVERLAP_KEEP_FIRST(cudaStreamSynchronize(*streams[k]));
    for (size_t k = 0; k < st->n_events; ++k)
        OVERLAP_KEEP_FIRST(cudaEventDestroy(st->events[k]));
    free(st->events);
    st->events = NULL;
    st->n_events = 0;
    for (size_t k = 0; k < 3; ++k)
        if (*streams[k] != NULL) {
            OVERLAP_KEEP_FIRST(cudaStreamDestroy(*streams[k]));
            *streams[k] = NULL;
        }
    if (st->dev_u != NULL)
        OVERLAP_KEEP_FIRST(cudaFree(st->dev_u));
    if (st->dev_v != NULL)
        OVERLAP_KEEP_FIRST(cudaFree(st->dev_v));
    st->dev_u = st->dev_v = NULL;
    if (st->pinned_u != NULL)
        OVERLAP_KEEP_FIRST(cudaHostUnregister(st->pinned_u));
    if (st->pinned_v != NULL)
        OVERLAP_KEEP_FIRST(cudaHostUnregister(st->pinned_v));
    st->pinned_u = st->pinned_v = NULL;
    free(st->row);
    st->row = NULL;
#undef OVERLAP_KEEP_FIRST
    return first;
}

/* PIN_S: u and v page-locked in place. Small arrays may share a page; the
 * runtime accepts registering both (cuda-each --pinned does the same).
 * ALLOC_S: device arrays, streams, events, the chunk table. */
static int overlap_setup(overlap_state *st, const heat2d_config *cfg, void *u, void *v,
                         size_t bytes, heat2d_report *rep, heat2d_error *err)
{
    const double t_start = heat2d_now();
    HEAT2D_CUDA_CHECK(err, cudaHostRegister(u, bytes, cudaHostRegisterDefault));
    st->pinned_u = u;
    HEAT2D_CUDA_CHECK(err, cudaHostRegister(v, bytes, cudaHostRegisterDefault));
    st->pinned_v = v;
    const double t_alloc = heat2d_now();
    heat2d_report_phase(rep, "PIN_S", t_alloc - t_start);

    HEAT2D_CUDA_CHECK(err, cudaMalloc((void **)&st->dev_u, bytes));
    HEAT2D_CUDA_CHECK(err, cudaMalloc((void **)&st->dev_v, bytes));
    /* Non-blocking: nothing on the legacy default stream (another library's
     * work) may serialise with the pipeline. */
    HEAT2D_CUDA_CHECK(err, cudaStreamCreateWithFlags(&st->up, cudaStreamNonBlocking));
    HEAT2D_CUDA_CHECK(err, cudaStreamCreateWithFlags(&st->compute, cudaStreamNonBlocking));
    HEAT2D_CUDA_CHECK(err, cudaStreamCreateWithFlags(&st->down, cudaStreamNonBlocking));
    const size_t chunks = st->chunks;
    const size_t n_events = 3 * chunks + OVERLAP_STEP_SLOTS + 2;
    st->events = calloc(n_events, sizeof *st->events);
    st->row = calloc(chunks + 1, sizeof *st->row);
    if (st->events == NULL || st->row == NULL)
        return heat2d_fail(err, "cuda-overlap: out of memory for %zu chunks", chunks);
    /* The ordering events take no timestamps, which makes them cheaper to
     * record and wait for; only the two that time the loop do. */
    for (size_t k = 0; k < n_events; ++k) {
        const unsigned flags = k + 2 < n_events ? cudaEventDisableTiming : cudaEventDefault;
        HEAT2D_CUDA_CHECK(err, cudaEventCreateWithFlags(&st->events[k], flags));
        st->n_events = k + 1;
    }
    /* Rows split as evenly as they go: sizes differ by one at most, none is
     * empty because chunks <= ny. */
    for (size_t k = 0; k <= chunks; ++k)
        st->row[k] = k * cfg->ny / chunks;
    st->up_done = st->events;
    st->comp_done = st->up_done + chunks;
    st->down_done = st->comp_done + chunks;
    st->step_done = st->down_done + chunks;
    st->loop_start = st->step_done[OVERLAP_STEP_SLOTS];
    st->loop_stop = st->step_done[OVERLAP_STEP_SLOTS + 1];
    st->t_loop = heat2d_now();
    heat2d_report_phase(rep, "ALLOC_S", st->t_loop - t_alloc);
    return 0;
}

/* up(step, k): host_in rows k -> dev_u rows k on the upload stream. */
static int queue_upload(overlap_state *st, size_t step, size_t k, const char *host_in,
                        heat2d_report *rep, heat2d_error *err)
{
    const size_t first = st->row[k] * st->row_bytes;
    const size_t count = (st->row[k + 1] - st->row[k]) * st->row_bytes;
    const size_t above = k + 1 < st->chunks ? k + 1 : k;
    if (step > 0) {
        /* The host chunk to upload is the one the previous step brought
         * down: it must have landed. */
        HEAT2D_CUDA_CHECK(err, cudaStreamWaitEvent(st->up, st->down_done[k], 0));
        /* The previous step's kernels read dev_u rows k last as the halo of
         * chunk k+1 (they run in order); they must be done before the rows
         * are overwritten. */
        HEAT2D_CUDA_CHECK(err, cudaStreamWaitEvent(st->up, st->comp_done[above], 0));
    }
    HEAT2D_CUDA_CHECK(err, cudaMemcpyAsync(st->dev_u + first, host_in + first, count,
                                           cudaMemcpyHostToDevice, st->up));
    rep->h2d_bytes += count;
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->up_done[k], st->up));
    return 0;
}

/* comp(step, c) once the upload of chunk `above` (its upper halo) is
 * queued, then down(step, c): dev_v rows c -> host_out rows c. */
static int queue_compute_download(overlap_state *st, const heat2d_config *cfg, size_t c,
                                  size_t above, char *host_out, heat2d_report *rep,
                                  heat2d_error *err)
{
    const size_t first = st->row[c] * st->row_bytes;
    const size_t count = (st->row[c + 1] - st->row[c]) * st->row_bytes;
    HEAT2D_CUDA_CHECK(err, cudaStreamWaitEvent(st->compute, st->up_done[above], 0));
    HEAT2D_CUDA_CHECK(err,
                      heat2d_cuda_step_rows(cfg->precision, st->dev_u, st->dev_v, cfg->nx, cfg->ny,
                                            st->row[c], st->row[c + 1], cfg->alpha, st->compute));
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->comp_done[c], st->compute));
    HEAT2D_CUDA_CHECK(err, cudaStreamWaitEvent(st->down, st->comp_done[c], 0));
    HEAT2D_CUDA_CHECK(err, cudaMemcpyAsync(host_out + first, st->dev_v + first, count,
                                           cudaMemcpyDeviceToHost, st->down));
    rep->d2h_bytes += count;
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->down_done[c], st->down));
    return 0;
}

/* One step queued, then a wait until the one before it has fully landed in
 * host memory. A wait on an event waits for the record made last before
 * the wait is queued, so the order of the calls is part of the schedule:
 * the step interleaves up(s,k) with comp(s,k-1) and down(s,k-1), so that
 * when up(s,k) is queued the previous step's comp_done[k+1] and
 * down_done[k] have not been recorded again yet, and comp(s,k-1) finds
 * up_done[k] of this step already recorded. */
static int queue_step(overlap_state *st, const heat2d_config *cfg, size_t step, const char *host_in,
                      char *host_out, heat2d_report *rep, heat2d_error *err)
{
    for (size_t k = 0; k <= st->chunks; ++k) {
        if (k < st->chunks && queue_upload(st, step, k, host_in, rep, err) != 0)
            return -1;
        /* The chunk whose upper halo is now queued. */
        if (k > 0 && queue_compute_download(st, cfg, k - 1, k < st->chunks ? k : k - 1, host_out,
                                            rep, err) != 0)
            return -1;
    }
    /* One logical upload and download of the whole array per step. */
    rep->h2d_count += 1;
    rep->d2h_count += 1;
    /* The downloads of a step run in stream order, so the last one's
     * completion is the whole step's. */
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->step_done[step % OVERLAP_STEP_SLOTS], st->down));
    /* Step step-1 is now complete in host_in (see the top). */
    if (step > 0)
        HEAT2D_CUDA_CHECK(err,
                          cudaEventSynchronize(st->step_done[(step - 1) % OVERLAP_STEP_SLOTS]));
    return 0;
}

/* STEP_REGIONS_S: every step queued; on return *result is the host array
 * that holds the last (v after an odd number of steps, u after an even
 * number). The last download waited, through its events and stream order,
 * for every other operation; once it is done, the loop is. Kernel faults
 * surface here. */
static int overlap_loop(overlap_state *st, const heat2d_config *cfg, void *u, void *v,
                        void **result, heat2d_report *rep, heat2d_error *err)
{
    char *host_in = u;
    char *host_out = v;
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->loop_start, st->up));
    for (size_t step = 0; step < cfg->steps; ++step) {
        if (queue_step(st, cfg, step, host_in, host_out, rep, err) != 0)
            return -1;
        char *swap = host_in;
        host_in = host_out;
        host_out = swap;
    }
    HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->loop_stop, st->down));
    HEAT2D_CUDA_CHECK(err, cudaEventSynchronize(st->loop_stop));
    heat2d_report_phase(rep, "STEP_REGIONS_S", heat2d_now() - st->t_loop);
    float loop_ms = 0.0f;
    HEAT2D_CUDA_CHECK(err, cudaEventElapsedTime(&loop_ms, st->loop_start, st->loop_stop));
    rep->device_loop_s = (double)loop_ms / 1e3;
    *result = host_in;
    return 0;
}

static int overlap_solve_any(const heat2d_config *cfg, void *u, void *v, void **result,
                             heat2d_report *rep, heat2d_error *err)
{
    size_t bytes = 0;
    overlap_state st = {0};
    if (heat2d_array_bytes(cfg, &bytes, err) != 0 ||
        choose_chunks(cfg, bytes, &st.chunks, err) != 0)
        return -1;
    st.row_bytes = cfg->nx * heat2d_precision_bytes(cfg->precision);
    rep->transfers_measured = true;
    if (overlap_setup(&st, cfg, u, v, bytes, rep, err) != 0 ||
        overlap_loop(&st, cfg, u, v, result, rep, err) != 0) {
        /* err already holds the first failure; later ones are moot. */
        (void)release_state(&st);
        return -1;
    }
    /* EXIT_S: streams, events, device arrays, page locks. */
    const double t_exit = heat2d_now();
    const cudaError_t rc = release_state(&st);
    if (rc != cudaSuccess)
        return heat2d_cuda_fail(err, __FILE__, __LINE__, "release_state(&st)", rc);
    heat2d_report_phase(rep, "EXIT_S", heat2d_now() - t_exit);
    /* Not a time: how many copies of each direction made one step's upload
     * and download. */
    heat2d_report_phase(rep, "CHUNKS_PER_STEP", (double)st.chunks);
    return 0;
}

HEAT2D_PRECISION_METHOD(heat2d_method_cuda_overlap, overlap_solve_any, .name = "cuda-overlap",
                        .seed_name = "CUDA_OVERLAP", .style = HEAT2D_STYLE_EACH, .gpu_only = true,
                        .overlaps_copies = true, .prepare = overlap_prepare);
