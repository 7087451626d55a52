/* Deep halos: the local array, the exchange strips and the region each step
 * of a period updates (halo_plan.h). Array coordinates are unsigned: a
 * margin is at least as wide as any extension into it. */
#include "halo_plan.h"

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t max_size(size_t a, size_t b)
{
    return a > b ? a : b;
}

static bool has_west(const heat2d_halo_block *b)
{
    return b->x0 > 0;
}

static bool has_east(const heat2d_halo_block *b)
{
    return b->x0 + b->lx < b->nx;
}

static bool has_south(const heat2d_halo_block *b)
{
    return b->y0 > 0;
}

static bool has_north(const heat2d_halo_block *b)
{
    return b->y0 + b->ly < b->ny;
}

void heat2d_halo_block_init(heat2d_halo_block *b, size_t nx, size_t ny, size_t x0, size_t y0,
                            size_t lx, size_t ly, size_t depth)
{
    b->nx = nx;
    b->ny = ny;
    b->x0 = x0;
    b->y0 = y0;
    b->lx = lx;
    b->ly = ly;
    b->depth = depth > 0 ? depth : 1;
    b->margin_w = has_west(b) ? b->depth : 1;
    b->margin_e = has_east(b) ? b->depth : 1;
    b->margin_s = has_south(b) ? b->depth : 1;
    b->margin_n = has_north(b) ? b->depth : 1;
    b->stride = b->margin_w + lx + b->margin_e;
    b->rows = b->margin_s + ly + b->margin_n;
}

bool heat2d_halo_rect_empty(heat2d_halo_rect r)
{
    return r.i0 >= r.i1 || r.j0 >= r.j1;
}

size_t heat2d_halo_rect_cells(heat2d_halo_rect r)
{
    return heat2d_halo_rect_empty(r) ? 0 : (r.i1 - r.i0) * (r.j1 - r.j0);
}

static heat2d_halo_rect intersect(heat2d_halo_rect a, heat2d_halo_rect b)
{
    return (heat2d_halo_rect){max_size(a.i0, b.i0), min_size(a.i1, b.i1), max_size(a.j0, b.j0),
                              min_size(a.j1, b.j1)};
}

/* Array range of global cells [g0, g1) along a side whose own cells start
 * at global first, margin m into the array of n cells, clipped to it. */
static void global_range(size_t first, size_t m, size_t n, size_t g0, size_t g1, size_t *p0,
                         size_t *p1)
{
    /* p = g - first + m */
    *p0 = g0 + m >= first ? g0 + m - first : 0;
    *p1 = g1 + m >= first ? min_size(g1 + m - first, n) : 0;
}

/* The global interior [1, nx-1) x [1, ny-1) in array coordinates. */
static heat2d_halo_rect interior(const heat2d_halo_block *b)
{
    heat2d_halo_rect r;
    global_range(b->x0, b->margin_w, b->stride, 1, b->nx - 1, &r.i0, &r.i1);
    global_range(b->y0, b->margin_s, b->rows, 1, b->ny - 1, &r.j0, &r.j1);
    return r;
}

int heat2d_halo_check_depth(size_t nx, size_t ny, const int dims[2], size_t depth,
                            heat2d_error *err)
{
    const size_t w = nx / (size_t)dims[0];
    const size_t h = ny / (size_t)dims[1];
    if ((dims[0] > 1 && depth > w) || (dims[1] > 1 && depth > h))
        return heat2d_fail(err,
                           "--halo-depth %zu is larger than the smallest block (%zux%zu cells) "
                           "of this split",
                           depth, w, h);
    return 0;
}

size_t heat2d_halo_period(size_t done, size_t steps, size_t depth, size_t output_every)
{
    return min_size(depth > 0 ? depth : 1, heat2d_next_snapshot(done, steps, output_every) - done);
}

heat2d_halo_rect heat2d_halo_region(const heat2d_halo_block *b, size_t len, size_t sub)
{
    const size_t e = len - 1 - sub;
    heat2d_halo_rect r = {
        b->margin_w - (has_west(b) ? e : 0), b->margin_w + b->lx + (has_east(b) ? e : 0),
        b->margin_s - (has_south(b) ? e : 0), b->margin_s + b->ly + (has_north(b) ? e : 0)};
    return intersect(r, interior(b));
}

heat2d_halo_rect heat2d_halo_own(const heat2d_halo_block *b)
{
    return heat2d_halo_region(b, 1, 0);
}

heat2d_halo_rect heat2d_halo_inner(const heat2d_halo_block *b)
{
    /* Never below the own rows' start: mw + lx >= mw + 1. */
    heat2d_halo_rect r = {
        b->margin_w + (has_west(b) ? 1 : 0), b->margin_w + b->lx - (has_east(b) ? 1 : 0),
        b->margin_s + (has_south(b) ? 1 : 0), b->margin_s + b->ly - (has_north(b) ? 1 : 0)};
    return intersect(r, heat2d_halo_own(b));
}

size_t heat2d_halo_ring(heat2d_halo_rect outer, heat2d_halo_rect inner, heat2d_halo_rect out[4])
{
    size_t n = 0;
    if (heat2d_halo_rect_empty(outer))
        return 0;
    if (heat2d_halo_rect_empty(inner)) {
        out[n++] = outer;
        return n;
    }
    const heat2d_halo_rect parts[4] = {
        {outer.i0, outer.i1, outer.j0, inner.j0},
        {outer.i0, outer.i1, inner.j1, outer.j1},
        {outer.i0, inner.i0, inner.j0, inner.j1},
        {inner.i1, outer.i1, inner.j0, inner.j1},
    };
    for (size_t k = 0; k < 4; ++k)
        if (!heat2d_halo_rect_empty(parts[k]))
            out[n++] = parts[k];
    return n;
}

/* Along one side: own cells [m, m+l), the K next to the low (d = -1) or
 * high (d = 1) edge, or all (d = 0); halo: the K beyond that edge. */
static void strip(size_t m, size_t l, size_t k, int d, bool halo, size_t *p0, size_t *p1)
{
    if (d == 0) {
        *p0 = m;
        *p1 = m + l;
    } else if (d < 0) {
        *p0 = halo ? m - k : m;
        *p1 = halo ? m : m + k;
    } else {
        *p0 = halo ? m + l : m + l - k;
        *p1 = halo ? m + l + k : m + l;
    }
}

heat2d_halo_rect heat2d_halo_send(const heat2d_halo_block *b, int dx, int dy)
{
    heat2d_halo_rect r;
    strip(b->margin_w, b->lx, b->depth, dx, false, &r.i0, &r.i1);
    strip(b->margin_s, b->ly, b->depth, dy, false, &r.j0, &r.j1);
    return r;
}

heat2d_halo_rect heat2d_halo_recv(const heat2d_halo_block *b, int dx, int dy)
{
    heat2d_halo_rect r;
    strip(b->margin_w, b->lx, b->depth, dx, true, &r.i0, &r.i1);
    strip(b->margin_s, b->ly, b->depth, dy, true, &r.j0, &r.j1);
    return r;
}

size_t heat2d_halo_boundary(const heat2d_halo_block *b, heat2d_halo_rect out[4])
{
    /* The grid's cells in the array (the margin beyond a global edge is
     * outside it). */
    heat2d_halo_rect grid;
    global_range(b->x0, b->margin_w, b->stride, 0, b->nx, &grid.i0, &grid.i1);
    global_range(b->y0, b->margin_s, b->rows, 0, b->ny, &grid.j0, &grid.j1);
    const heat2d_halo_rect lines[4] = {
        {grid.i0, grid.i1, 0, 0}, /* j = 0 */
        {grid.i0, grid.i1, 0, 0}, /* j = ny-1 */
        {0, 0, grid.j0, grid.j1}, /* i = 0 */
        {0, 0, grid.j0, grid.j1}, /* i = nx-1 */
    };
    const size_t global[4] = {0, b->ny - 1, 0, b->nx - 1};
    size_t n = 0;
    for (size_t k = 0; k < 4; ++k) {
        heat2d_halo_rect r = lines[k];
        size_t p0, p1;
        if (k < 2)
            global_range(b->y0, b->margin_s, b->rows, global[k], global[k] + 1, &p0, &p1);
        else
            global_range(b->x0, b->margin_w, b->stride, global[k], global[k] + 1, &p0, &p1);
        if (p0 >= p1)
            continue; /* that line is not in this array */
        if (k < 2) {
            r.j0 = p0;
            r.j1 = p1;
        } else {
            r.i0 = p0;
            r.i1 = p1;
        }
        if (!heat2d_halo_rect_empty(r))
            out[n++] = r;
    }
    return n;
}
