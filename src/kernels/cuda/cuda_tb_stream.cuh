/* Temporal blocking: T Jacobi steps per pass through device memory. The
 * kernel template and its device functions; cuda_tb_kernels.cu, the only
 * file that includes this one, instantiates its variants and launches them.
 *
 * A single step reads u and writes v once, 16 bytes a cell in fp64, so no
 * single-step kernel beats copy bandwidth / 16. Here one pass does T steps,
 * and device memory sees each cell about once in and once out per pass; the
 * limit moves to the FP64 units (7 operations a cell-step, no FMA, 64 a
 * clock per SM on Hopper).
 *
 * Scheme (2.5-D streaming, one warp per work item, no block-wide barrier):
 *
 *  - A warp owns a strip of 128 consecutive columns, 4 per lane, and streams
 *    down a segment of rows. At each row it loads one new row of the input
 *    (time level 0) and advances every level by one row: level t+1 computes
 *    row r-t-1 from level t's rows r-t-2, r-t-1 and r-t, so level T's row
 *    r-T, T steps ahead of the input, is written out. Each level keeps two
 *    things per cell in registers: its latest "centre" row and the partial sum
 *    (W + E) + S of that row, so that the new north row completes the update
 *    in the reference's order: c + alpha*((((W + E) + S) + N) - 4c).
 *  - West and east neighbours are the lane's own registers, except at the
 *    lane's edges, which come from the neighbouring lanes by shuffle. The
 *    strip's outer columns have no neighbour outside the warp and go wrong by
 *    one column per level; the strip therefore overlaps its neighbours by T
 *    columns on each side and writes only its 128 - 2T inner columns.
 *  - Likewise a segment starts T rows above its first output row and runs T
 *    rows past its last. Levels skip rows that no output depends on.
 *  - Input rows arrive by cp.async into a per-warp ring of 4 rows in shared
 *    memory, three rows ahead of use, coalesced (element lane + 32q) and with
 *    zero fill outside the grid; each lane then reads its 4 cells as two
 *    double2, laid out so that the reads meet no bank twice. Output rows go
 *    back the same way through a shared-memory stage, so that the global
 *    stores are coalesced too.
 *  - Boundary cells (i = 0, nx-1, j = 0, ny-1) of every level above 0 are 0;
 *    rows outside the grid are 0 too. Only the few warps whose strip touches
 *    i = 0 or i = nx-1 pay for a per-cell column test (template EDGE).
 *
 * Arithmetic (enum Arith): the reference's order, bit-identical to cpu
 * (the build passes --fmad=false); the same with the last two operations
 * fused (__fma_rn: -4c + sum, then alpha * that + c), three roundings where
 * the reference has five; or the scaled form, one FMA and three adds. The
 * last two are within the original's tolerance of cpu, not bit-identical.
 *
 * Why fewer operations: the kernel is bound by its FP64 instructions and
 * their latency. Each row is a chain through all T levels, and the levels'
 * state in registers limits the warps that hide it; every operation taken
 * off a level shortens the chain T times.
 *
 * Rows in the middle of an item, where every level computes and every
 * output row is written, run without row tests or selects, two rows a loop
 * trip so that the centre rows alternate between two register sets without
 * moves; only the first and last 2T or so rows of an item carry the tests.
 * In strips inside the grid their input copies carry none either ("lean"),
 * and the f64 variant stores their output rows straight from registers when
 * the rows are 16-byte aligned ("direct": no stage, no wait for it). The f32
 * variant takes the two rows of a trip through one wait and one stage pass
 * ("pairs"), which lets the compiler interleave them. */
#ifndef HEAT2D_CUDA_TB_STREAM_CUH
#define HEAT2D_CUDA_TB_STREAM_CUH

#include <cuda_pipeline.h>

namespace heat2d_tb
{

constexpr int kCells = 4;               /* consecutive cells per lane along i */
constexpr int kStripCols = 32 * kCells; /* columns a warp loads */
constexpr int kRing = 4;                /* input rows in shared memory per warp (power of 2) */
constexpr int kWarpsPerBlock = 2;
constexpr int kThreads = 32 * kWarpsPerBlock;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr long long kMaxSegRows = 1LL << 30; /* stream indices stay ints */

static_assert(kCells == 4, "a lane's cells are read and written as two double2");
static_assert((kRing & (kRing - 1)) == 0, "the ring index is a mask");

/* The fused multiply-add of each precision, rounded once. */
template <typename Real> __device__ __forceinline__ Real fma_rn(Real a, Real b, Real c)
{
    if constexpr (sizeof(Real) == sizeof(float))
        return __fmaf_rn(a, b, c);
    else
        return __fma_rn(a, b, c);
}

/* Where a lane's cells sit in a ring or stage row. Element e of the strip
 * is at slot e, except in fp64: a lane reads its 4 cells as two double2,
 * and at slots 4l..4l+3 the 32 lanes' 16-byte reads would span 1 KB and
 * meet every bank twice; at double2 l and 32 + l (cells 4l, 4l+1 and 4l+2,
 * 4l+3) each read is 512 contiguous bytes. Element lane + 32q then lies at
 * slot_of(lane) + kQStep * q, so the copies keep constant offsets. */
template <typename Real> struct Layout {
    static constexpr bool kSplit = sizeof(Real) == sizeof(double);
    static constexpr int kQStep = kSplit ? 16 : 32;
    static __device__ __forceinline__ int slot_of(int e)
    {
        return kSplit ? ((e & 3) >> 1) * 64 + (e >> 2) * 2 + (e & 1) : e;
    }
};

/* A lane's 4 consecutive cells to and from a ring or stage row, in 16-byte
 * pieces: two double2 in fp64 (at double2 lane and 32 + lane, see Layout),
 * one float4 in fp32. */
__device__ __forceinline__ void load4(const double *row_base, int lane, double (&row)[kCells])
{
    const double2 *p = reinterpret_cast<const double2 *>(row_base);
    const double2 a = p[lane];
    const double2 b = p[32 + lane];
    row[0] = a.x;
    row[1] = a.y;
    row[2] = b.x;
    row[3] = b.y;
}
__device__ __forceinline__ void load4(const float *row_base, int lane, float (&row)[kCells])
{
    const float4 a = reinterpret_cast<const float4 *>(row_base)[lane];
    row[0] = a.x;
    row[1] = a.y;
    row[2] = a.z;
    row[3] = a.w;
}
__device__ __forceinline__ void store4(double *row_base, int lane, const double (&out)[kCells])
{
    double2 *p = reinterpret_cast<double2 *>(row_base);
    p[lane] = make_double2(out[0], out[1]);
    p[32 + lane] = make_double2(out[2], out[3]);
}
__device__ __forceinline__ void store4(float *row_base, int lane, const float (&out)[kCells])
{
    reinterpret_cast<float4 *>(row_base)[lane] = make_float4(out[0], out[1], out[2], out[3]);
}

/* A lane's 4 consecutive cells straight to device memory (16-byte aligned). */
__device__ __forceinline__ void store_cells(unsigned long long to, const double (&out)[kCells])
{
    double2 *p = reinterpret_cast<double2 *>(to);
    p[0] = make_double2(out[0], out[1]);
    p[1] = make_double2(out[2], out[3]);
}
__device__ __forceinline__ void store_cells(unsigned long long to, const float (&out)[kCells])
{
    *reinterpret_cast<float4 *>(to) = make_float4(out[0], out[1], out[2], out[3]);
}

/* How a level computes its update (Variant's arith): the reference's
 * order, bit-identical to cpu; the same with its last two operations fused;
 * or the scaled form, which carries y = u / alpha^t at level t, so that
 * y' = c*y + (((W + E) + S) + N) with c = (1 - 4 alpha) / alpha: one FMA and
 * three adds a cell-step, and the rows a pass stores are multiplied by
 * alpha^T once. Boundary and outside cells are 0 at every level either way. */
enum Arith : int { kReference = 0, kFused = 1, kScaled = 2 };

/* One level of one row: the update of the row whose centre is c_old (with
 * partial sum part = (W + E) + S and the new north row c_new) into out, then
 * part becomes the partial sum of c_new, the next centre. coef is alpha, or
 * c in the scaled form. */
template <typename Real, bool EDGE, int ARITH>
__device__ __forceinline__ void level_step(const Real (&c_old)[kCells], const Real (&c_new)[kCells],
                                           Real (&part)[kCells], Real (&out)[kCells], bool compute,
                                           unsigned interior, Real coef)
{
    if (compute) {
#pragma unroll
        for (int k = 0; k < kCells; ++k) {
            const Real sum = part[k] + c_new[k];
            Real v;
            if constexpr (ARITH == kScaled)
                v = fma_rn<Real>(coef, c_old[k], sum);
            else if constexpr (ARITH == kFused)
                v = fma_rn<Real>(coef, fma_rn<Real>(Real(-4), c_old[k], sum), c_old[k]);
            else
                v = c_old[k] + coef * (sum - Real(4) * c_old[k]);
            out[k] = (!EDGE || (interior >> k & 1u) != 0) ? v : Real(0);
        }
    } else {
#pragma unroll
        for (int k = 0; k < kCells; ++k)
            out[k] = Real(0);
    }
    const Real west = __shfl_up_sync(kFullMask, c_new[kCells - 1], 1);
    const Real east = __shfl_down_sync(kFullMask, c_new[0], 1);
    part[0] = (west + c_new[1]) + c_old[0];
#pragma unroll
    for (int k = 1; k < kCells - 1; ++k)
        part[k] = (c_new[k - 1] + c_new[k + 1]) + c_old[k];
    part[kCells - 1] = (c_new[kCells - 2] + east) + c_old[kCells - 1];
}

/* Copies into the ring: asynchronous (cp.async, from compute capability 8.0
 * on), the wait keeping `pending` groups of them in flight; on an older GPU
 * a plain load and store, which is complete at once, so that committing and
 * waiting are nothing. A cell outside the grid is written 0 either way. */
template <typename Real>
__device__ __forceinline__ void copy_to_ring(Real *slot, const Real *p, bool ok)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    __pipeline_memcpy_async(slot, p, sizeof(Real), ok ? 0 : sizeof(Real));
#else
    *slot = ok ? *p : Real(0);
#endif
}

__device__ __forceinline__ void commit_copies()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    __pipeline_commit();
#endif
}

template <int pending> __device__ __forceinline__ void wait_copies()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    __pipeline_wait_prior(pending);
#endif
}

/* What a warp needs to know about its work item. Row numbers inside the item
 * ("stream indices": stream index rr is grid row js - T + rr, js the first
 * output row) are ints, as a segment is at most kMaxSegRows rows; the
 * addresses are this lane's element of the strip's first stream row. */
template <typename Real> struct Item {
    const Real *valid;            /* the input array, a valid address for zero fill */
    unsigned long long src;       /* address of element lane of stream row 0 in src */
    unsigned long long dst;       /* the same in dst */
    unsigned long long dst_cells; /* this lane's first cell of stream row 0 in dst */
    unsigned long long row_bytes;
    Real coef;  /* alpha, or c = (1 - 4 alpha) / alpha in the scaled form */
    Real scale; /* the scaled form's alpha^T, applied to the rows a pass stores */
    Real *ring; /* this warp's kRing rows of kStripCols, then the stage */
    int lane;
    int slot;          /* where element lane lies in a ring or stage row */
    bool mine;         /* this lane's 4 cells are all output columns */
    unsigned in_grid;  /* bit q: element lane + 32q lies inside the grid */
    unsigned store;    /* bit q: ... and is one of the strip's output columns */
    unsigned interior; /* bit k: cell 4*lane + k is in columns 1..nx-2 */
    int top;           /* stream index of grid row 1 */
    int bottom;        /* stream index of grid row ny-2, clamped past last */
    int rows_before;   /* stream indices below this are grid rows < 0 */
    int rows_after;    /* stream indices from this on are grid rows >= ny */
    int out_end;       /* output stream rows are T .. out_end-1 */
    int last;          /* last stream index */
};

/* Queues the copy of stream row rr into its ring slot and commits it as one
 * group (an empty group past the last row, so that the waits stay in step).
 * The copies are coalesced: element lane + 32q, 8 bytes each. LEAN: the
 * caller knows that row rr lies in the grid and is at most the last, and
 * that every column of the strip does, so there is nothing to test. */
template <bool LEAN, typename Real>
__device__ __forceinline__ void issue_row(const Item<Real> &it, int rr)
{
    constexpr unsigned long long kLaneBytes = 32ull * sizeof(Real); /* a warp's element q row */
    constexpr int kQStep = Layout<Real>::kQStep;
    Real *slot = it.ring + (rr & (kRing - 1)) * kStripCols + it.slot;
    const unsigned long long from = it.src + (unsigned long long)(long long)rr * it.row_bytes;
    if constexpr (LEAN) {
#pragma unroll
        for (int q = 0; q < kCells; ++q)
            copy_to_ring(slot + kQStep * q, reinterpret_cast<const Real *>(from + kLaneBytes * q),
                         true);
    } else if (rr <= it.last) {
        const unsigned mask = (rr >= it.rows_before && rr < it.rows_after) ? it.in_grid : 0u;
#pragma unroll
        for (int q = 0; q < kCells; ++q) {
            const bool ok = (mask >> q & 1u) != 0;
            /* Zero fill outside the grid; the source is then not read, but
             * keep it a valid address. */
            const Real *p = ok ? reinterpret_cast<const Real *>(from + kLaneBytes * q) : it.valid;
            copy_to_ring(slot + kQStep * q, p, ok);
        }
    }
    commit_copies();
}

/* Waits for stream row rr in the ring (queueing row rr + kRing - 1) and
 * reads this lane's 4 cells of it into row. */
template <bool LEAN, typename Real>
__device__ __forceinline__ void next_input(const Item<Real> &it, int rr, Real (&row)[kCells])
{
    /* The slot refilled now held the previous row: every lane must be done
     * with it (and with the stage row, read at the end of the last pass). */
    __syncwarp();
    issue_row<LEAN>(it, rr + kRing - 1);
    wait_copies<kRing - 1>(); /* this lane's copies of row rr have landed */
    __syncwarp();             /* and so have everyone's */
    load4(it.ring + (rr & (kRing - 1)) * kStripCols, it.lane, row);
}

/* Copies this lane's output elements of a stage row (complete: the caller
 * synchronised the warp) to the output row whose element lane is at `to`,
 * coalesced. */
template <typename Real>
__device__ __forceinline__ void store_stage_row(const Item<Real> &it, const Real *stage_row,
                                                unsigned long long to)
{
    constexpr unsigned long long kLaneBytes = 32ull * sizeof(Real);
    constexpr int kQStep = Layout<Real>::kQStep;
#pragma unroll
    for (int q = 0; q < kCells; ++q)
        if ((it.store >> q & 1u) != 0)
            *reinterpret_cast<Real *>(to + kLaneBytes * q) = stage_row[it.slot + kQStep * q];
}

/* Writes this lane's cells of output stream row y through the stage, so that
 * the global stores are coalesced. */
template <typename Real>
__device__ __forceinline__ void write_output(const Item<Real> &it, int y, const Real (&out)[kCells])
{
    Real *stage = it.ring + kRing * kStripCols;
    store4(stage, it.lane, out);
    __syncwarp();
    store_stage_row(it, stage, it.dst + (unsigned long long)(long long)y * it.row_bytes);
}

/* Writes this lane's cells of output stream row y straight from its
 * registers, 16 bytes at a time (DIRECT: T a multiple of 4, so that a lane's
 * cells are all output columns or none, and rows 16-byte aligned). No stage
 * and no wait: the two halves of each 32-byte sector come from two store
 * instructions of the same warp, which the L2 merges. */
template <typename Real>
__device__ __forceinline__ void write_direct(const Item<Real> &it, int y, const Real (&out)[kCells])
{
    if (it.mine)
        store_cells(it.dst_cells + (unsigned long long)(long long)y * it.row_bytes, out);
}

/* Level T's row back to the field's values: the scaled form multiplies by
 * alpha^T (y = u / alpha^T there); the other forms carry u itself. */
template <typename Real, int ARITH>
__device__ __forceinline__ void unscale(const Item<Real> &it, Real (&out)[kCells])
{
    if constexpr (ARITH == kScaled)
#pragma unroll
        for (int k = 0; k < kCells; ++k)
            out[k] *= it.scale;
}

/* One input row (stream index rr): every level advances by one row; level
 * T's row, stream index rr - T, is written when it belongs to the segment.
 * c_old holds each level's centre row, c_new receives the next. Level t+1
 * needs level t's new row of the same call: a chain through all levels.
 * STEADY: a row where every level computes and the output is written (the
 * caller knows), so that the row carries no row tests and no selects; in a
 * strip inside the grid, its input copy has none either. */
template <typename Real, int T, bool EDGE, int ARITH, bool STEADY, bool DIRECT>
__device__ __forceinline__ void stream_row(const Item<Real> &it, Real (&c_old)[T][kCells],
                                           Real (&c_new)[T][kCells], Real (&part)[T][kCells],
                                           int rr)
{
    next_input<STEADY && !EDGE>(it, rr, c_new[0]);

    /* Level t+1 computes stream row y = rr-t-1: only interior grid rows, and
     * only rows that the segment's output depends on (y >= t + 1). */
#pragma unroll
    for (int t = 0; t < T - 1; ++t) {
        const int y = rr - t - 1;
        const bool compute = STEADY || (y >= it.top && y <= it.bottom && y >= t + 1);
        level_step<Real, EDGE, ARITH>(c_old[t], c_new[t], part[t], c_new[t + 1], compute,
                                      it.interior, it.coef);
    }
    const int y = rr - T;
    const bool compute = STEADY || (y >= it.top && y <= it.bottom && y >= T);
    Real out[kCells];
    level_step<Real, EDGE, ARITH>(c_old[T - 1], c_new[T - 1], part[T - 1], out, compute,
                                  it.interior, it.coef);
    unscale<Real, ARITH>(it, out);
    if constexpr (STEADY && !EDGE && DIRECT)
        write_direct(it, y, out);
    else if (STEADY || (y >= T && y < it.out_end))
        write_output(it, y, out);
}

/* Two steady rows, rr into c1 and rr + 1 back into c0, with one wait for
 * both inputs and one pass through the stage for both outputs (PAIRS, in
 * strips inside the grid). Between the loads and the stores nothing orders the two
 * rows, so the compiler can interleave row rr's level t + 1 with row
 * rr + 1's level t, twice the independent work of one row. */
template <typename Real, int T, int ARITH, bool DIRECT>
__device__ __forceinline__ void stream_pair(const Item<Real> &it, Real (&c0)[T][kCells],
                                            Real (&c1)[T][kCells], Real (&part)[T][kCells], int rr)
{
    __syncwarp(); /* every lane is done with row rr - 1's slot and the stage */
    issue_row<true>(it, rr + kRing - 1);
    wait_copies<kRing - 2>(); /* rows rr and rr + 1 have landed */
    __syncwarp();
    Real second[kCells];
    load4(it.ring + (rr & (kRing - 1)) * kStripCols, it.lane, c1[0]);
    load4(it.ring + ((rr + 1) & (kRing - 1)) * kStripCols, it.lane, second);
    __syncwarp(); /* row rr's slot is free */
    issue_row<true>(it, rr + kRing);

    Real out_a[kCells];
    Real out_b[kCells];
#pragma unroll
    for (int t = 0; t < T - 1; ++t)
        level_step<Real, false, ARITH>(c0[t], c1[t], part[t], c1[t + 1], true, 0u, it.coef);
    level_step<Real, false, ARITH>(c0[T - 1], c1[T - 1], part[T - 1], out_a, true, 0u, it.coef);
    unscale<Real, ARITH>(it, out_a);
#pragma unroll
    for (int k = 0; k < kCells; ++k)
        c0[0][k] = second[k];
#pragma unroll
    for (int t = 0; t < T - 1; ++t)
        level_step<Real, false, ARITH>(c1[t], c0[t], part[t], c0[t + 1], true, 0u, it.coef);
    level_step<Real, false, ARITH>(c1[T - 1], c0[T - 1], part[T - 1], out_b, true, 0u, it.coef);
    unscale<Real, ARITH>(it, out_b);

    if constexpr (DIRECT) {
        write_direct(it, rr - T, out_a);
        write_direct(it, rr + 1 - T, out_b);
        return;
    }
    Real *stage = it.ring + kRing * kStripCols;
    store4(stage, it.lane, out_a);
    store4(stage + kStripCols, it.lane, out_b);
    __syncwarp();
    const unsigned long long to = it.dst + (unsigned long long)(long long)(rr - T) * it.row_bytes;
    store_stage_row(it, stage, to);
    store_stage_row(it, stage + kStripCols, to + it.row_bytes);
}

/* The centre rows move from c1 back into c0 after a row (2 moves a cell). */
template <typename Real, int T>
__device__ __forceinline__ void move_rows(Real (&c0)[T][kCells], const Real (&c1)[T][kCells])
{
#pragma unroll
    for (int t = 0; t < T; ++t)
#pragma unroll
        for (int k = 0; k < kCells; ++k)
            c0[t][k] = c1[t][k];
}

/* The rows of an item in three runs: the first and last rows, where levels
 * start and stop, with every row test; between them the steady rows, where
 * every level computes and every output row is written, without tests,
 * two a loop trip, so that the centre rows alternate between c0 and c1
 * without register moves (the first and last rows move c1 into c0). */
template <typename Real, int T, bool EDGE, int ARITH, bool PAIRS, bool DIRECT>
__device__ __forceinline__ void run_item(const Item<Real> &it)
{
    Real c0[T][kCells];
    Real c1[T][kCells];
    Real part[T][kCells];
#pragma unroll
    for (int t = 0; t < T; ++t)
#pragma unroll
        for (int k = 0; k < kCells; ++k) {
            c0[t][k] = Real(0);
            c1[t][k] = Real(0);
            part[t][k] = Real(0);
        }

    for (int d = 0; d < kRing - 1; ++d)
        issue_row<false>(it, d);
    /* Steady rows: level t+1 computes row rr-t-1, which must lie in
     * top..bottom and be >= t+1 for every t, and the output row rr-T must
     * be one of T..out_end-1. */
    const int steady_first = max(it.top + T, 2 * T);
    int steady_last = min(it.bottom + 1, it.out_end + T - 1);
    /* A lean copy needs the row it queues in the grid: rr + kRing - 1 is
     * then below rows_after, which is at most last + 1. */
    if (!EDGE)
        steady_last = min(steady_last, it.rows_after - kRing);
    int rr = 0;
    for (; rr <= it.last && rr < steady_first; ++rr) {
        stream_row<Real, T, EDGE, ARITH, false, false>(it, c0, c1, part, rr);
        move_rows<Real, T>(c0, c1);
    }
    for (; rr + 1 <= steady_last; rr += 2) {
        if constexpr (!EDGE && PAIRS) {
            stream_pair<Real, T, ARITH, DIRECT>(it, c0, c1, part, rr);
        } else {
            stream_row<Real, T, EDGE, ARITH, true, DIRECT>(it, c0, c1, part, rr);
            stream_row<Real, T, EDGE, ARITH, true, DIRECT>(it, c1, c0, part, rr + 1);
        }
    }
    for (; rr <= it.last; ++rr) {
        stream_row<Real, T, EDGE, ARITH, false, false>(it, c0, c1, part, rr);
        move_rows<Real, T>(c0, c1);
    }
    wait_copies<0>();
}

/* Programmatic dependent launch (Hopper and later): a pass launched with
 * the programmatic-serialisation attribute is scheduled once every block
 * of the kernel before it has started, and waits here, before its first
 * load, until that kernel has finished and its stores are visible; so its
 * launch and the ramp of its first blocks overlap that kernel's tail. Both
 * do nothing in a kernel launched the ordinary way. */
__device__ __forceinline__ void wait_for_previous_pass()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
#endif
}

/* MINB: thread blocks an SM must hold, which caps the registers: on Hopper 4
 * blocks of 2 warps (2 warps per scheduler) leave up to 255 registers a
 * thread, 6 blocks 168. */
template <typename Real, int T, int MINB, int ARITH, bool PAIRS, bool DIRECT>
__global__ void __launch_bounds__(kThreads, MINB)
    tb_kernel(const Real *__restrict__ src, Real *__restrict__ dst, long long nx, long long ny,
              Real coef, Real scale, long long strips, long long seg_rows, long long items)
{
    /* A warp's ring, then its stage: one row, two with PAIRS. */
    __shared__ __align__(16) Real smem[kWarpsPerBlock][kRing + (PAIRS ? 2 : 1)][kStripCols];
    wait_for_previous_pass();
    const int lane = (int)(threadIdx.x & 31);
    const int warp = (int)(threadIdx.x >> 5);
    const long long item = (long long)blockIdx.x * kWarpsPerBlock + warp;
    if (item >= items)
        return; /* the whole warp: items are per warp */
    const long long strip = item % strips;
    const long long seg = item / strips;
    const long long col0 = strip * (kStripCols - 2 * T) - T; /* first column loaded */
    const long long js = seg * seg_rows;                     /* first output row */
    const long long rows = ny - js < seg_rows ? ny - js : seg_rows;
    const long long below = ny - js - rows; /* grid rows after the segment */
    /* Element (stream row 0, column col0 + lane), as an address: the row may
     * lie before the array, and only rows inside it are ever accessed. */
    const long long first = (js - T) * nx + col0 + lane;
    Item<Real> it;
    it.valid = src;
    it.src = (unsigned long long)src + sizeof(Real) * (unsigned long long)first;
    it.dst = (unsigned long long)dst + sizeof(Real) * (unsigned long long)first;
    it.dst_cells = it.dst + sizeof(Real) * (unsigned long long)(kCells - 1) * lane;
    it.mine = lane >= T / kCells && lane < 32 - T / kCells;
    it.row_bytes = sizeof(Real) * (unsigned long long)nx;
    it.coef = coef;
    it.scale = scale;
    it.ring = &smem[warp][0][0];
    it.lane = lane;
    it.slot = Layout<Real>::slot_of(lane);
    it.in_grid = 0;
    it.store = 0;
    it.interior = 0;
#pragma unroll
    for (int q = 0; q < kCells; ++q) {
        const int e = lane + 32 * q;
        const long long col = col0 + e;
        if (col >= 0 && col < nx) {
            it.in_grid |= 1u << q;
            if (e >= T && e < kStripCols - T)
                it.store |= 1u << q;
        }
        const long long cell = col0 + kCells * lane + q;
        if (cell >= 1 && cell <= nx - 2)
            it.interior |= 1u << q;
    }
    it.top = js >= T + 1 ? 0 : (int)(T + 1 - js);
    it.bottom = (int)(rows + T - 2 + (below >= T + 2 ? T + 2 : below));
    it.rows_before = js >= T ? 0 : (int)(T - js);
    it.out_end = (int)rows + T;
    it.last = (int)rows + 2 * T - 1;
    it.rows_after = below >= T ? it.last + 1 : (int)(T + rows + below);
    /* Strips whose loaded columns all lie inside 1..nx-2 never meet the
     * boundary columns and skip the per-cell test. */
    const bool edge = col0 < 1 || col0 + kStripCols - 1 > nx - 2;
    if (edge)
        run_item<Real, T, true, ARITH, PAIRS, false>(it);
    else if (DIRECT && T % kCells == 0 && nx % (16 / (long long)sizeof(Real)) == 0)
        run_item<Real, T, false, ARITH, PAIRS, DIRECT && T % kCells == 0>(it);
    else
        run_item<Real, T, false, ARITH, PAIRS, false>(it);
}

} // namespace heat2d_tb

#endif /* HEAT2D_CUDA_TB_STREAM_CUH */
