/* cuda-tb's main variant by the grid's size, on sizes from 5x5 to 16384^2
 * and thin strips both ways (host code only: no GPU needed). Every size
 * gets a variant of this build whose scaled form holds at the problem's
 * alpha; the choice changes with the cells in one direction only (a
 * size's choice is never one that a smaller size left behind); the
 * largest grids get the variant of 8192^2 and 16384^2 alike; and the
 * passes of a run start with the chosen variant's depth. */
#define _POSIX_C_SOURCE 200809L /* unsetenv */

#include "cuda_tb_kernels.h"
#include "unit_check.h"

#include <stdlib.h>
#include <string.h>

static const size_t sides[] = {5,    7,    33,   130,  771,  1001, 1024, 2000,
                               2048, 2049, 4095, 4096, 4097, 8192, 8193, 16384};
#define N_SIDES (sizeof sides / sizeof sides[0])

/* Each precision's choices along squares of growing side: a variant seen
 * once and left is never chosen again. */
static void check_monotone(heat2d_precision p, const char *label)
{
    const char *seen[N_SIDES];
    size_t n_seen = 0;
    for (size_t k = 0; k < N_SIDES; ++k) {
        const char *v = heat2d_cuda_tb_choice(p, sides[k], sides[k]);
        if (v == NULL)
            continue;
        if (n_seen > 0 && strcmp(seen[n_seen - 1], v) == 0)
            continue;
        for (size_t j = 0; j < n_seen; ++j)
            check(strcmp(seen[j], v) != 0, "%s %zu^2: %s chosen again after a larger size left it",
                  label, sides[k], v);
        seen[n_seen++] = v;
    }
    check(n_seen >= 1, "%s: some variant chosen", label);
}

static void check_size(heat2d_precision p, const char *label, size_t nx, size_t ny)
{
    char names[512];
    const char *v = heat2d_cuda_tb_choice(p, nx, ny);
    if (!check(v != NULL, "%s %zux%zu: a variant chosen", label, nx, ny))
        return;
    check(heat2d_cuda_tb_variant_known(v, names, sizeof names), "%s %zux%zu: %s is not in (%s)",
          label, nx, ny, v, names);
    const unsigned depth = heat2d_cuda_tb_variant_depth(v);
    check(depth >= 2, "%s %zux%zu: %s has depth %u", label, nx, ny, v, depth);
    check(heat2d_cuda_tb_scaled_in_range(p, depth, 0.1, 1.0), "%s %zux%zu: %s in range at 0.1",
          label, nx, ny, v);
    unsigned depths[4] = {0};
    const unsigned n = heat2d_cuda_tb_depths(p, nx, ny, depths, 4);
    check(n >= 2 && depths[0] == depth, "%s %zux%zu: passes start at %u, not %u", label, nx, ny,
          depths[0], depth);
    for (unsigned k = 1; k < n; ++k)
        check(depths[k] < depths[k - 1], "%s %zux%zu: depths descend", label, nx, ny);
}

int main(void)
{
    /* The tuning knob would override the choice under test. */
    unsetenv("HEAT2D_CUDA_TB_VARIANT");
    const heat2d_precision precisions[] = {HEAT2D_F64, HEAT2D_F32};
    const char *labels[] = {"f64", "f32"};
    for (size_t p = 0; p < 2; ++p) {
        for (size_t k = 0; k < N_SIDES; ++k) {
            check_size(precisions[p], labels[p], sides[k], sides[k]);
            check_size(precisions[p], labels[p], sides[k], 33);
            check_size(precisions[p], labels[p], 33, sides[k]);
        }
        check_size(precisions[p], labels[p], 8193, 771);
        check_monotone(precisions[p], labels[p]);
        const char *big = heat2d_cuda_tb_choice(precisions[p], 8192, 8192);
        const char *bigger = heat2d_cuda_tb_choice(precisions[p], 16384, 16384);
        check(big != NULL && bigger != NULL && strcmp(big, bigger) == 0,
              "%s: 8192^2 and 16384^2 get the same variant", labels[p]);
    }
    /* A grid whose cells overflow a long long still gets the largest
     * grids' variant. */
    const char *huge = heat2d_cuda_tb_choice(HEAT2D_F64, (size_t)1 << 40, (size_t)1 << 40);
    const char *big = heat2d_cuda_tb_choice(HEAT2D_F64, 8192, 8192);
    check(huge != NULL && big != NULL && strcmp(huge, big) == 0, "an overflowing grid: %s",
          huge != NULL ? huge : "none");
    printf("tb_choice: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
