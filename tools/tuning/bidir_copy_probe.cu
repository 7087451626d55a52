/* Pinned host<->device bandwidth, each direction alone and both at once.
 *
 * cuda-overlap's floor per step is max(S/H2D, S/D2H) only if the link and the
 * host's memory carry both directions at full speed together (PCIe is full
 * duplex; whether this host's memory and IOMMU keep up is what this
 * measures). heat2d info --bandwidth measures each direction alone; this adds
 * the concurrent case, so that a cuda-overlap step time above the floor can
 * be told apart from a link that cannot do better.
 *
 *   nvcc -O2 -o bidir tools/tuning/bidir_copy_probe.cu && ./bidir [MiB]
 *
 * Prints KEY=VALUE lines in GB/s (1e9 bytes): medians of 7 after a warm-up,
 * of cudaMemcpyAsync between cudaMallocHost and cudaMalloc buffers of MiB
 * (default 256) in each direction; BIDIR_* from one upload and one download
 * started together on two streams, each direction timed to its own end.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        const cudaError_t rc_ = (expr);                                                            \
        if (rc_ != cudaSuccess) {                                                                  \
            std::fprintf(stderr, "bidir: %s:%d: %s: %s\n", __FILE__, __LINE__, #expr,              \
                         cudaGetErrorString(rc_));                                                 \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

/* A copy done by the SMs instead of a copy engine: 16-byte loads and
 * stores, grid-stride. With unified addressing, page-locked host memory is
 * addressable from a kernel, so one of src and dst may be host memory: the
 * SMs then issue the link's reads (upload) or writes (download) themselves. */
__global__ void sm_copy(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n;
         k += (size_t)gridDim.x * blockDim.x)
        dst[k] = src[k];
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    const long mib = argc > 1 ? std::atol(argv[1]) : 256;
    if (mib <= 0) {
        std::fprintf(stderr, "bidir: usage: bidir [MiB > 0]\n");
        return 2;
    }
    const size_t bytes = (size_t)mib << 20;
    void *host_up = nullptr, *host_down = nullptr, *dev_up = nullptr, *dev_down = nullptr;
    CHECK(cudaMallocHost(&host_up, bytes));
    CHECK(cudaMallocHost(&host_down, bytes));
    CHECK(cudaMalloc(&dev_up, bytes));
    CHECK(cudaMalloc(&dev_down, bytes));
    /* Touch every page, so that no first-touch cost lands in a measurement. */
    std::memset(host_up, 1, bytes);
    std::memset(host_down, 2, bytes);
    CHECK(cudaMemset(dev_up, 0, bytes));
    CHECK(cudaMemset(dev_down, 0, bytes));
    cudaStream_t s_up, s_down;
    CHECK(cudaStreamCreateWithFlags(&s_up, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s_down, cudaStreamNonBlocking));
    cudaEvent_t start, end_up, end_down;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&end_up));
    CHECK(cudaEventCreate(&end_down));

    std::vector<double> up_alone, down_alone, bi_up, bi_down, bi_total;
    for (int rep = 0; rep < 8; ++rep) {
        float ms = 0.0f;
        /* upload alone */
        CHECK(cudaEventRecord(start, s_up));
        CHECK(cudaMemcpyAsync(dev_up, host_up, bytes, cudaMemcpyHostToDevice, s_up));
        CHECK(cudaEventRecord(end_up, s_up));
        CHECK(cudaEventSynchronize(end_up));
        CHECK(cudaEventElapsedTime(&ms, start, end_up));
        if (rep > 0)
            up_alone.push_back(bytes / (ms * 1e-3) / 1e9);
        /* download alone */
        CHECK(cudaEventRecord(start, s_down));
        CHECK(cudaMemcpyAsync(host_down, dev_down, bytes, cudaMemcpyDeviceToHost, s_down));
        CHECK(cudaEventRecord(end_down, s_down));
        CHECK(cudaEventSynchronize(end_down));
        CHECK(cudaEventElapsedTime(&ms, start, end_down));
        if (rep > 0)
            down_alone.push_back(bytes / (ms * 1e-3) / 1e9);
        /* both together: the download stream waits for the same start */
        CHECK(cudaEventRecord(start, s_up));
        CHECK(cudaStreamWaitEvent(s_down, start, 0));
        CHECK(cudaMemcpyAsync(dev_up, host_up, bytes, cudaMemcpyHostToDevice, s_up));
        CHECK(cudaMemcpyAsync(host_down, dev_down, bytes, cudaMemcpyDeviceToHost, s_down));
        CHECK(cudaEventRecord(end_up, s_up));
        CHECK(cudaEventRecord(end_down, s_down));
        CHECK(cudaEventSynchronize(end_up));
        CHECK(cudaEventSynchronize(end_down));
        float ms_up = 0.0f, ms_down = 0.0f;
        CHECK(cudaEventElapsedTime(&ms_up, start, end_up));
        CHECK(cudaEventElapsedTime(&ms_down, start, end_down));
        if (rep > 0) {
            bi_up.push_back(bytes / (ms_up * 1e-3) / 1e9);
            bi_down.push_back(bytes / (ms_down * 1e-3) / 1e9);
            bi_total.push_back(2.0 * bytes / (std::max(ms_up, ms_down) * 1e-3) / 1e9);
        }
    }
    /* Sustained: both directions move `bytes` as cuda-overlap moves a step,
     * in CHUNKS copies each, by one of several means; each direction's rate
     * is bytes over the time until both are done, which is what bounds a
     * step. ce1: a copy engine per direction, one stream each (cuda-overlap's
     * way); ce2: two streams per direction, chunks alternating; sm-down,
     * sm-up: one direction's chunks copied by a kernel instead; sm-both. */
    {
        const int chunks = 16;
        const size_t chunk = bytes / chunks;
        int sms = 0;
        CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        cudaStream_t extra_up, extra_down;
        CHECK(cudaStreamCreateWithFlags(&extra_up, cudaStreamNonBlocking));
        CHECK(cudaStreamCreateWithFlags(&extra_down, cudaStreamNonBlocking));
        const char *modes[] = {"ce1",     "ce2",           "sm-down",    "sm-up",
                               "sm-both", "sm-down-alone", "sm-up-alone"};
        for (const char *mode : modes) {
            std::vector<double> rates;
            const bool sm_down =
                std::strncmp(mode, "sm-down", 7) == 0 || std::strcmp(mode, "sm-both") == 0;
            const bool sm_up =
                std::strncmp(mode, "sm-up", 5) == 0 || std::strcmp(mode, "sm-both") == 0;
            const bool alone = std::strstr(mode, "alone") != nullptr;
            const bool two = std::strcmp(mode, "ce2") == 0;
            for (int rep = 0; rep < 6; ++rep) {
                CHECK(cudaDeviceSynchronize());
                CHECK(cudaEventRecord(start, s_up));
                CHECK(cudaStreamWaitEvent(s_down, start, 0));
                CHECK(cudaStreamWaitEvent(extra_up, start, 0));
                CHECK(cudaStreamWaitEvent(extra_down, start, 0));
                for (int c = 0; c < chunks; ++c) {
                    char *hu = (char *)host_up + c * chunk, *du = (char *)dev_up + c * chunk;
                    char *hd = (char *)host_down + c * chunk, *dd = (char *)dev_down + c * chunk;
                    cudaStream_t su = two && c % 2 ? extra_up : s_up;
                    cudaStream_t sd = two && c % 2 ? extra_down : s_down;
                    if (!(alone && sm_down)) {
                        if (sm_up)
                            sm_copy<<<4 * sms, 512, 0, su>>>((uint4 *)du, (const uint4 *)hu,
                                                             chunk / 16);
                        else
                            CHECK(cudaMemcpyAsync(du, hu, chunk, cudaMemcpyHostToDevice, su));
                    }
                    if (!(alone && sm_up)) {
                        if (sm_down)
                            sm_copy<<<4 * sms, 512, 0, sd>>>((uint4 *)hd, (const uint4 *)dd,
                                                             chunk / 16);
                        else
                            CHECK(cudaMemcpyAsync(hd, dd, chunk, cudaMemcpyDeviceToHost, sd));
                    }
                    CHECK(cudaGetLastError());
                }
                CHECK(cudaEventRecord(end_up, extra_up));
                CHECK(cudaStreamWaitEvent(s_up, end_up, 0));
                CHECK(cudaEventRecord(end_up, extra_down));
                CHECK(cudaStreamWaitEvent(s_up, end_up, 0));
                CHECK(cudaEventRecord(end_down, s_down));
                CHECK(cudaStreamWaitEvent(s_up, end_down, 0));
                CHECK(cudaEventRecord(end_up, s_up));
                CHECK(cudaEventSynchronize(end_up));
                float ms = 0.0f;
                CHECK(cudaEventElapsedTime(&ms, start, end_up));
                if (rep > 0)
                    rates.push_back(bytes / (ms * 1e-3) / 1e9);
            }
            std::printf("SUSTAINED_%s_GBS=%.2f\n", mode, median(rates));
        }
    }
    std::printf("PROBE_MIB=%ld\n", mib);
    std::printf("H2D_ALONE_GBS=%.2f\n", median(up_alone));
    std::printf("D2H_ALONE_GBS=%.2f\n", median(down_alone));
    std::printf("BIDIR_H2D_GBS=%.2f\n", median(bi_up));
    std::printf("BIDIR_D2H_GBS=%.2f\n", median(bi_down));
    std::printf("BIDIR_TOTAL_GBS=%.2f\n", median(bi_total));
    CHECK(cudaFree(dev_up));
    CHECK(cudaFree(dev_down));
    CHECK(cudaFreeHost(host_up));
    CHECK(cudaFreeHost(host_down));
    return 0;
}
