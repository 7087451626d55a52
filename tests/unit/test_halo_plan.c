/* Unit tests of the deep-halo plan (halo_plan.h), with no MPI: the margins,
 * periods, regions, rings, strips and boundary lines by hand on small
 * cases, and the plan followed whole on one process (every block of a
 * split in its own local array, exchanges as copies between them), which
 * must give the whole-grid run's field exactly for every depth a split
 * allows. Every cell an exchange does not fill is NaN at the start of a
 * period, so that a region reaching one cell too far shows as a NaN. */
#include "halo_plan.h"
#include "unit_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool rect_is(heat2d_halo_rect r, size_t i0, size_t i1, size_t j0, size_t j1)
{
    return r.i0 == i0 && r.i1 == i1 && r.j0 == j0 && r.j1 == j1;
}

static void test_margins(void)
{
    heat2d_halo_block b;
    /* Depth 1: one cell all round, mpi_common.h's layout. */
    heat2d_halo_block_init(&b, 37, 29, 0, 0, 19, 15, 1);
    check(b.margin_w == 1 && b.margin_e == 1 && b.margin_s == 1 && b.margin_n == 1 &&
              b.stride == 21 && b.rows == 17,
          "depth 1: margins 1, array 21x17, got stride %zu rows %zu", b.stride, b.rows);
    /* The south-west block of a 2x2 split at depth 3: 3 towards the cuts,
     * 1 at the global boundary. */
    heat2d_halo_block_init(&b, 37, 29, 0, 0, 19, 15, 3);
    check(b.margin_w == 1 && b.margin_e == 3 && b.margin_s == 1 && b.margin_n == 3 &&
              b.stride == 23 && b.rows == 19,
          "south-west block at depth 3: array 23x19, got %zux%zu", b.stride, b.rows);
    heat2d_halo_block_init(&b, 37, 29, 19, 15, 18, 14, 0);
    check(b.depth == 1, "depth 0 is depth 1");
}

static void test_periods(void)
{
    check(heat2d_halo_period(0, 13, 3, 0) == 3, "13 steps at depth 3: a first period of 3");
    check(heat2d_halo_period(12, 13, 3, 0) == 1, "the last period: what is left");
    check(heat2d_halo_period(0, 13, 1, 0) == 1, "depth 1: one step a period");
    check(heat2d_halo_period(0, 13, 0, 0) == 1, "depth 0 is depth 1");
    /* Snapshots every 4 at depth 3: periods 3, 1, 3, 1, ... */
    const size_t want4[] = {3, 1, 3, 1, 3, 1, 1};
    size_t done = 0, n = 0;
    bool ok = true;
    while (done < 13) {
        size_t len = heat2d_halo_period(done, 13, 3, 4);
        ok = ok && n < 7 && len == want4[n];
        done += len;
        ++n;
    }
    check(ok && n == 7, "13 steps, depth 3, snapshots every 4: periods 3 1 3 1 3 1 1");
    check(heat2d_halo_period(3, 13, 3, 5) == 2 && heat2d_halo_period(5, 13, 3, 5) == 3,
          "snapshots every 5 at depth 3: a period ends at 5");
    check(heat2d_halo_period(0, 20, 10, 3) == 3, "a snapshot every 3 caps a depth of 10");
}

static void test_depth_check(void)
{
    heat2d_error err = {{0}};
    const int d22[2] = {2, 2};
    check(heat2d_halo_check_depth(37, 29, d22, 14, &err) == 0, "37x29 on 2x2: depth 14 fits");
    check(heat2d_halo_check_depth(37, 29, d22, 15, &err) == -1 &&
              strcmp(err.message, "--halo-depth 15 is larger than the smallest block (18x14 "
                                  "cells) of this split") == 0,
          "37x29 on 2x2: depth 15 refused, got '%s'", err.message);
    /* An uncut side bounds nothing: 101x7 cut 4x1 has blocks 25x7. */
    const int d41[2] = {4, 1};
    check(heat2d_halo_check_depth(101, 7, d41, 25, &err) == 0, "101x7 on 4x1: depth 25 fits");
    check(heat2d_halo_check_depth(101, 7, d41, 26, &err) == -1 &&
              strstr(err.message, "(25x7 cells)") != NULL,
          "101x7 on 4x1: depth 26 refused, got '%s'", err.message);
    const int d11[2] = {1, 1};
    check(heat2d_halo_check_depth(5, 5, d11, 1000, &err) == 0, "one block: any depth");
}

/* The block (cx, cy) of a px x py split, as heat2d_mpi_split cuts. */
static void split(size_t n, size_t parts, size_t c, size_t *first, size_t *count)
{
    const size_t base = n / parts, extra = n % parts;
    *first = c * base + (c < extra ? c : extra);
    *count = base + (c < extra ? 1 : 0);
}

static void test_regions(void)
{
    /* The middle block of 30x9 cut 3x1 (x0 10, 10 columns) at depth 3:
     * margins 3 both sides, 1 at the global rows. */
    heat2d_halo_block b;
    heat2d_halo_block_init(&b, 30, 9, 10, 0, 10, 9, 3);
    check(rect_is(heat2d_halo_own(&b), 3, 13, 2, 9), "own cells: columns 3-12, rows 2-8");
    check(rect_is(heat2d_halo_region(&b, 3, 0), 1, 15, 2, 9),
          "a period of 3, step 0: 2 cells into each halo");
    check(rect_is(heat2d_halo_region(&b, 3, 1), 2, 14, 2, 9), "step 1: 1 cell");
    check(rect_is(heat2d_halo_region(&b, 3, 2), 3, 13, 2, 9), "step 2: the own cells");
    check(rect_is(heat2d_halo_region(&b, 2, 0), 2, 14, 2, 9), "a period of 2 starts 1 cell out");
    check(rect_is(heat2d_halo_inner(&b), 4, 12, 2, 9), "inner: one column less at each cut");
    /* The west block: the global column 0 is not updated. */
    heat2d_halo_block_init(&b, 30, 9, 0, 0, 10, 9, 3);
    check(rect_is(heat2d_halo_region(&b, 3, 0), 2, 13, 2, 9), "west block: clipped at column 0");
    heat2d_halo_rect send = heat2d_halo_send(&b, 1, 0), recv = heat2d_halo_recv(&b, 1, 0);
    check(rect_is(send, 8, 11, 1, 10) && rect_is(recv, 11, 14, 1, 10),
          "west block: 3 own columns sent east, 3 halo columns received");
    heat2d_halo_rect lines[4];
    size_t n = heat2d_halo_boundary(&b, lines);
    check(n == 3 && rect_is(lines[0], 1, 14, 1, 2) && rect_is(lines[1], 1, 14, 9, 10) &&
              rect_is(lines[2], 1, 2, 1, 10),
          "west block: rows 0 and 8 (halo too) and column 0 are boundary, got %zu", n);
    /* A block whose halo reaches the far block's global column. */
    heat2d_halo_block_init(&b, 9, 5, 3, 0, 3, 5, 3);
    n = heat2d_halo_boundary(&b, lines);
    check(n == 4 && rect_is(lines[2], 0, 1, 1, 6) && rect_is(lines[3], 8, 9, 1, 6),
          "9x5 cut 3x1, middle block at depth 3: columns 0 and 8 of the grid in its halos");
    check(rect_is(heat2d_halo_region(&b, 3, 0), 1, 8, 2, 5),
          "middle block: its region stops at the grid's interior");
}

static void test_rings(void)
{
    heat2d_halo_rect out[4];
    const heat2d_halo_rect outer = {2, 12, 1, 9}, inner = {4, 9, 3, 5};
    size_t n = heat2d_halo_ring(outer, inner, out);
    size_t cells = 0;
    bool disjoint = true;
    for (size_t j = outer.j0; j < outer.j1; ++j)
        for (size_t i = outer.i0; i < outer.i1; ++i) {
            int hits = i >= inner.i0 && i < inner.i1 && j >= inner.j0 && j < inner.j1;
            for (size_t k = 0; k < n; ++k)
                hits += i >= out[k].i0 && i < out[k].i1 && j >= out[k].j0 && j < out[k].j1;
            disjoint = disjoint && hits == 1;
        }
    for (size_t k = 0; k < n; ++k)
        cells += heat2d_halo_rect_cells(out[k]);
    check(n == 4 && disjoint && cells == 80 - 10, "ring: 4 pieces, each cell once");
    n = heat2d_halo_ring(outer, (heat2d_halo_rect){5, 5, 3, 5}, out);
    check(n == 1 && rect_is(out[0], 2, 12, 1, 9), "ring round nothing: the whole");
    n = heat2d_halo_ring(outer, outer, out);
    check(n == 0, "ring of a rectangle round itself: nothing");
    n = heat2d_halo_ring((heat2d_halo_rect){2, 12, 3, 3}, inner, out);
    check(n == 0, "ring of nothing: nothing");
}

/* ---- the plan followed whole ------------------------------------------------ */

static double stencil(const double *u, size_t c, size_t s, double alpha)
{
    return u[c] + alpha * (u[c - 1] + u[c + 1] + u[c - s] + u[c + s] - 4.0 * u[c]);
}

static void grid_step(size_t nx, size_t ny, double alpha, const double *u, double *v)
{
    for (size_t j = 0; j < ny; ++j)
        for (size_t i = 0; i < nx; ++i) {
            const size_t c = j * nx + i;
            v[c] =
                (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) ? 0.0 : stencil(u, c, nx, alpha);
        }
}

typedef struct sim_block {
    heat2d_halo_block b;
    double *a[2];
} sim_block;

static void fill_nan(double *a, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        a[k] = NAN;
}

/* Block q's strip towards (dx, dy) into its neighbour's halo, as one
 * exchange moves it. */
static bool copy_strip(const sim_block *from, sim_block *to, int dx, int dy, int cur)
{
    const heat2d_halo_rect s = heat2d_halo_send(&from->b, dx, dy);
    const heat2d_halo_rect r = heat2d_halo_recv(&to->b, -dx, -dy);
    if (s.i1 - s.i0 != r.i1 - r.i0 || s.j1 - s.j0 != r.j1 - r.j0)
        return false;
    for (size_t j = 0; j < s.j1 - s.j0; ++j)
        for (size_t i = 0; i < s.i1 - s.i0; ++i)
            to->a[cur][heat2d_halo_index(&to->b, r.i0 + i, r.j0 + j)] =
                from->a[cur][heat2d_halo_index(&from->b, s.i0 + i, s.j0 + j)];
    return true;
}

static void update_rect(const heat2d_halo_block *b, heat2d_halo_rect r, double alpha,
                        const double *u, double *v)
{
    for (size_t j = r.j0; j < r.j1; ++j)
        for (size_t i = r.i0; i < r.i1; ++i) {
            const size_t c = heat2d_halo_index(b, i, j);
            v[c] = stencil(u, c, b->stride, alpha);
        }
}

/* Runs nx x ny for `steps` steps split px x py at depth k with snapshots
 * every `every` steps (0: none); returns whether every block's own cells
 * equal the whole-grid run's after every period that ends at a snapshot
 * and after the last, and every strip fitted its halo. */
static bool follow_plan(size_t nx, size_t ny, size_t px, size_t py, size_t k, size_t steps,
                        size_t every)
{
    const double alpha = 0.1;
    const size_t n = nx * ny;
    double *g[2] = {malloc(n * sizeof(double)), malloc(n * sizeof(double))};
    /* Every cell different and the boundary not 0, so that a cell read
     * from the wrong place, or a boundary left as it was, shows. */
    for (size_t c = 0; c < n; ++c)
        g[0][c] = (double)((c * 7919) % 1009) / 1009.0;
    sim_block *blocks = calloc(px * py, sizeof *blocks);
    for (size_t cy = 0; cy < py; ++cy)
        for (size_t cx = 0; cx < px; ++cx) {
            sim_block *s = &blocks[cy * px + cx];
            size_t x0, lx, y0, ly;
            split(nx, px, cx, &x0, &lx);
            split(ny, py, cy, &y0, &ly);
            heat2d_halo_block_init(&s->b, nx, ny, x0, y0, lx, ly, k);
            const size_t cells = s->b.stride * s->b.rows;
            s->a[0] = malloc(cells * sizeof(double));
            s->a[1] = malloc(cells * sizeof(double));
            fill_nan(s->a[0], cells);
            for (size_t b = 0; b < ly; ++b)
                for (size_t a = 0; a < lx; ++a)
                    s->a[0][heat2d_halo_index(&s->b, s->b.margin_w + a, s->b.margin_s + b)] =
                        g[0][(y0 + b) * nx + x0 + a];
        }
    bool ok = true;
    int cur = 0, gcur = 0;
    size_t done = 0;
    while (done < steps && ok) {
        const size_t len = heat2d_halo_period(done, steps, k, every);
        /* The exchange: every cell but the own and the received is NaN. */
        for (size_t q = 0; q < px * py; ++q) {
            sim_block *s = &blocks[q];
            const size_t cells = s->b.stride * s->b.rows;
            double *keep = malloc(cells * sizeof(double));
            memcpy(keep, s->a[cur], cells * sizeof(double));
            fill_nan(s->a[cur], cells);
            fill_nan(s->a[1 - cur], cells);
            for (size_t b = 0; b < s->b.ly; ++b)
                for (size_t a = 0; a < s->b.lx; ++a) {
                    const size_t c = heat2d_halo_index(&s->b, s->b.margin_w + a, s->b.margin_s + b);
                    s->a[cur][c] = keep[c];
                }
            free(keep);
        }
        for (size_t cy = 0; cy < py; ++cy)
            for (size_t cx = 0; cx < px; ++cx)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const long tx = (long)cx + dx, ty = (long)cy + dy;
                        if ((dx == 0 && dy == 0) || tx < 0 || ty < 0 || tx >= (long)px ||
                            ty >= (long)py || (k == 1 && dx != 0 && dy != 0))
                            continue;
                        ok = ok && copy_strip(&blocks[cy * px + cx],
                                              &blocks[(size_t)ty * px + (size_t)tx], dx, dy, cur);
                    }
        for (size_t sub = 0; sub < len; ++sub) {
            for (size_t q = 0; q < px * py; ++q) {
                sim_block *s = &blocks[q];
                update_rect(&s->b, heat2d_halo_region(&s->b, len, sub), alpha, s->a[cur],
                            s->a[1 - cur]);
                heat2d_halo_rect lines[4];
                const size_t nl = heat2d_halo_boundary(&s->b, lines);
                for (size_t l = 0; l < nl; ++l)
                    for (size_t j = lines[l].j0; j < lines[l].j1; ++j)
                        for (size_t i = lines[l].i0; i < lines[l].i1; ++i)
                            s->a[1 - cur][heat2d_halo_index(&s->b, i, j)] = 0.0;
            }
            grid_step(nx, ny, alpha, g[gcur], g[1 - gcur]);
            cur = 1 - cur;
            gcur = 1 - gcur;
        }
        done += len;
        if (done == steps || (every > 0 && done % every == 0))
            for (size_t q = 0; q < px * py && ok; ++q) {
                const sim_block *s = &blocks[q];
                for (size_t b = 0; b < s->b.ly; ++b)
                    for (size_t a = 0; a < s->b.lx; ++a) {
                        const double got = s->a[cur][heat2d_halo_index(&s->b, s->b.margin_w + a,
                                                                       s->b.margin_s + b)];
                        const double want = g[gcur][(s->b.y0 + b) * nx + s->b.x0 + a];
                        ok = ok && memcmp(&got, &want, sizeof got) == 0;
                    }
            }
    }
    for (size_t q = 0; q < px * py; ++q) {
        free(blocks[q].a[0]);
        free(blocks[q].a[1]);
    }
    free(blocks);
    free(g[0]);
    free(g[1]);
    return ok;
}

static void test_follow_plan(void)
{
    static const size_t grids[][2] = {{37, 29}, {23, 41}, {9, 5}, {5, 5}, {101, 7}};
    static const size_t splits[][2] = {{1, 1}, {2, 1}, {1, 2}, {3, 1}, {2, 2}, {3, 2}, {3, 3}};
    static const size_t depths[] = {1, 2, 3, 5, 7};
    static const size_t runs[][2] = {{7, 0}, {13, 0}, {16, 0}, {13, 4}, {13, 5}};
    size_t followed = 0;
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; ++g)
        for (size_t p = 0; p < sizeof splits / sizeof splits[0]; ++p)
            for (size_t d = 0; d < sizeof depths / sizeof depths[0]; ++d) {
                const size_t nx = grids[g][0], ny = grids[g][1];
                const size_t px = splits[p][0], py = splits[p][1], k = depths[d];
                const int dims[2] = {(int)px, (int)py};
                if (px > nx || py > ny || heat2d_halo_check_depth(nx, ny, dims, k, NULL) != 0)
                    continue;
                for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r) {
                    ++followed;
                    check(follow_plan(nx, ny, px, py, k, runs[r][0], runs[r][1]),
                          "%zux%zu cut %zux%zu, depth %zu, %zu steps, snapshots every %zu: the "
                          "plan gives the whole grid's field",
                          nx, ny, px, py, k, runs[r][0], runs[r][1]);
                }
            }
    check(followed > 300, "the plan followed in %zu cases", followed);
}

int main(void)
{
    test_margins();
    test_periods();
    test_depth_check();
    test_regions();
    test_rings();
    test_follow_plan();
    return unit_finish("halo_plan");
}
