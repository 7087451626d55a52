// What a barrier costs on this GPU: the key cost of a persistent temporal-
// blocking kernel that keeps the domain on chip and exchanges halos every
// few steps (issue 24, the headline size). Times N back-to-back barriers of
// each kind, every SM busy, and prints the time per barrier:
//
//   block    __syncthreads in every block (the floor)
//   cluster  cluster.sync() across thread-block clusters of 2..16 blocks
//   grid     grid.sync() of a cooperative launch over the whole device
//
//   nvcc -O3 -arch=sm_90 -o barrier_latency tools/tuning/barrier_latency.cu
//   ./barrier_latency [N]
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t rc_ = (call);                                                                  \
        if (rc_ != cudaSuccess) {                                                                  \
            fprintf(stderr, "barrier_latency: %s: %s\n", #call, cudaGetErrorString(rc_));          \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum Kind { kBlock, kCluster, kGrid };

// n barriers of one kind; the sink keeps the loop from being removed.
template <Kind kind> __global__ void barriers(int n, int *sink)
{
    int acc = 0;
    for (int k = 0; k < n; ++k) {
        if constexpr (kind == kBlock)
            __syncthreads();
        else if constexpr (kind == kCluster)
            cg::this_cluster().sync();
        else
            cg::this_grid().sync();
        acc += threadIdx.x ^ k;
    }
    if (acc == -1)
        *sink = acc;
}

// Milliseconds of one launch made by launch(n), after a warm-up launch.
template <typename Launch> static float time_ms(Launch launch, int n)
{
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    launch(n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    launch(n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return ms;
}

// The time of n barriers less that of one launch with a single barrier,
// per barrier, in nanoseconds.
template <typename Launch> static double ns_per_barrier(Launch launch, int n)
{
    const float many = time_ms(launch, n);
    const float one = time_ms(launch, 1);
    return (many - one) * 1e6 / (n - 1);
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 20000;
    if (n < 2) {
        fprintf(stderr, "barrier_latency: N must be at least 2\n");
        return 2;
    }
    int device = 0, sms = 0, cooperative = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, device));
    int *sink = nullptr;
    CHECK(cudaMalloc(&sink, sizeof(int)));
    printf("DEVICE=%s SMS=%d N=%d\n", prop.name, sms, n);

    const int threads = 256;
    printf("BARRIER=block blocks=%d threads=%d ns=%.1f\n", sms, threads,
           ns_per_barrier([&](int k) { barriers<kBlock><<<sms, threads>>>(k, sink); }, n));

    CHECK(cudaFuncSetAttribute(barriers<kCluster>, cudaFuncAttributeNonPortableClusterSizeAllowed,
                               1));
    for (int size = 2; size <= 16; size *= 2) {
        cudaLaunchConfig_t config = {};
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = size;
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.blockDim = dim3(threads);
        config.attrs = attribute;
        config.numAttrs = 1;
        int clusters = 0;
        config.gridDim = dim3(size);
        if (cudaOccupancyMaxActiveClusters(&clusters, barriers<kCluster>, &config) != cudaSuccess ||
            clusters <= 0) {
            cudaGetLastError();
            printf("BARRIER=cluster size=%d not possible here\n", size);
            continue;
        }
        config.gridDim = dim3(clusters * size);
        const double ns = ns_per_barrier(
            [&](int k) { CHECK(cudaLaunchKernelEx(&config, barriers<kCluster>, k, sink)); }, n);
        printf("BARRIER=cluster size=%d clusters=%d threads=%d ns=%.1f\n", size, clusters, threads,
               ns);
    }

    if (!cooperative) {
        printf("BARRIER=grid not possible here (no cooperative launch)\n");
        return 0;
    }
    for (int per_sm = 1; per_sm <= 2; ++per_sm) {
        int fit = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, barriers<kGrid>, threads, 0));
        if (fit < per_sm)
            break;
        const int blocks = sms * per_sm;
        const double ns = ns_per_barrier(
            [&](int k) {
                void *args[] = {&k, &sink};
                CHECK(cudaLaunchCooperativeKernel((void *)barriers<kGrid>, dim3(blocks),
                                                  dim3(threads), args, 0, 0));
            },
            n);
        printf("BARRIER=grid blocks=%d threads=%d ns=%.1f\n", blocks, threads, ns);
    }
    CHECK(cudaFree(sink));
    return 0;
}
