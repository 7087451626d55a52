/* The device's snapshot invariants (snapshot_stats.h) against a scan on the
 * host of the same field: in f64 and f32, on sizes from one cell to more
 * than a pass of the unrolled loop plus a tail, with NaN and infinities at
 * the first cell, in the middle and at the last, and two of them (the
 * first must be named). lo, hi and the non-finite cells must be exact, the
 * sum within the rounding of its order, the same field must give the same
 * sum twice, and the fused copy must be the field byte for byte. Exits 77
 * (skipped) where no GPU can be opened. */
#include "snapshot_stats.h"
#include "unit_check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double value_at(int f32, const void *field, size_t k)
{
    return f32 ? (double)((const float *)field)[k] : ((const double *)field)[k];
}

static void set_value(int f32, void *field, size_t k, double x)
{
    if (f32)
        ((float *)field)[k] = (float)x;
    else
        ((double *)field)[k] = x;
}

/* One field on the device: its stats, twice, once with the copy. */
static void test_one(int f32, size_t n, const size_t *odd, const double *odd_value, size_t n_odd)
{
    const size_t cell = f32 ? sizeof(float) : sizeof(double);
    void *host = malloc(n * cell), *back = malloc(n * cell);
    void *dev = NULL, *copy = NULL, *scratch = NULL;
    heat2d_cuda_stats *result = NULL;
    if (host == NULL || back == NULL) {
        check(false, "cannot allocate %zu cells", n);
        free(host);
        free(back);
        return;
    }
    unsigned long long state = 12345u + n;
    for (size_t k = 0; k < n; ++k) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        set_value(f32, host, k, (double)(state >> 11) / 9007199254740992.0 / (double)n);
    }
    for (size_t o = 0; o < n_odd; ++o)
        set_value(f32, host, odd[o], odd_value[o]);
    const heat2d_precision p = f32 ? HEAT2D_F32 : HEAT2D_F64;
    heat2d_cuda_stats got[2];
    bool ok = cudaMalloc(&dev, n * cell) == cudaSuccess &&
              cudaMalloc(&copy, n * cell) == cudaSuccess &&
              cudaMalloc(&scratch, heat2d_cuda_stats_scratch_bytes()) == cudaSuccess &&
              cudaMalloc((void **)&result, 2 * sizeof *result) == cudaSuccess &&
              cudaMemcpy(dev, host, n * cell, cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemset(copy, 0xff, n * cell) == cudaSuccess &&
              heat2d_cuda_snapshot_stats(p, dev, NULL, n, scratch, &result[0], 0) == cudaSuccess &&
              heat2d_cuda_snapshot_stats(p, dev, copy, n, scratch, &result[1], 0) == cudaSuccess &&
              cudaMemcpy(got, result, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess &&
              cudaMemcpy(back, copy, n * cell, cudaMemcpyDeviceToHost) == cudaSuccess;
    check(ok, "%s n=%zu: the device calls succeed (%s)", f32 ? "f32" : "f64", n,
          cudaGetErrorString(cudaGetLastError()));
    if (ok) {
        heat2d_field_stats want = heat2d_field_stats_empty();
        heat2d_field_stats_add(&want, host, f32, 0, n);
        double magnitude = 0.0;
        for (size_t k = 0; k < n; ++k)
            magnitude += isfinite(value_at(f32, host, k)) ? fabs(value_at(f32, host, k)) : 0.0;
        const heat2d_field_stats d = heat2d_cuda_stats_field(&got[0]);
        const char *name = f32 ? "f32" : "f64";
        check(d.lo == want.lo && d.hi == want.hi, "%s n=%zu: lo %.17g hi %.17g, host %.17g %.17g",
              name, n, d.lo, d.hi, want.lo, want.hi);
        check(d.nonfinite == want.nonfinite && d.first_nonfinite == want.first_nonfinite,
              "%s n=%zu: %llu non-finite from %zu, host %llu from %zu", name, n,
              (unsigned long long)d.nonfinite, d.first_nonfinite,
              (unsigned long long)want.nonfinite, want.first_nonfinite);
        check(want.nonfinite > 0 || fabs(d.sum - want.sum) <= (double)n * DBL_EPSILON * magnitude,
              "%s n=%zu: sum %.17g, host %.17g", name, n, d.sum, want.sum);
        check(memcmp(&got[0], &got[1], sizeof got[0]) == 0,
              "%s n=%zu: the same field gives the same stats with and without the copy", name, n);
        check(memcmp(back, host, n * cell) == 0, "%s n=%zu: the copy is the field", name, n);
    }
    cudaFree(dev);
    cudaFree(copy);
    cudaFree(scratch);
    cudaFree(result);
    free(host);
    free(back);
}

int main(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("SKIP: no GPU (cudaGetDeviceCount found none)\n");
        return 77;
    }
    /* 1 cell; the check's grid; a pass of the unrolled loop (1024 blocks x
     * 256 threads x 4) and a tail; an uneven large grid. */
    const size_t sizes[] = {1, 25 * 21, 1048576 + 13, 8193 * 771};
    for (int f32 = 0; f32 < 2; ++f32)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
            const size_t n = sizes[s];
            test_one(f32, n, NULL, NULL, 0);
            const size_t cells[] = {0, n / 2, n - 1};
            const double odd[] = {NAN, INFINITY, -INFINITY, 2.0, -0.5};
            for (size_t c = 0; c < 3; ++c)
                for (size_t o = 0; o < 5; ++o)
                    test_one(f32, n, &cells[c], &odd[o], 1);
            if (n > 2) {
                const size_t two[] = {n - 1, n / 3};
                const double nans[] = {INFINITY, NAN};
                test_one(f32, n, two, nans, 2);
            }
        }
    return unit_finish("test_snapshot_stats");
}
