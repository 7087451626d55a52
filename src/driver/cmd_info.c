/* heat2d info: how this build was made and what machine it runs on, as
 * KEY=VALUE lines, so that results are never mixed across set-ups. */
#define _GNU_SOURCE
#include "build_info.h"
#include "commands.h"
#include "host_bandwidth.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifdef HEAT2D_HAVE_CUDA
#include "gpu_info.h"
#endif

/* The first "model name" line of /proc/cpuinfo. */
static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    FILE *info = fopen("/proc/cpuinfo", "r");
    if (info == NULL)
        return;
    char line[512];
    while (fgets(line, sizeof line, info) != NULL) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            if (colon != NULL) {
                colon++;
                while (*colon == ' ' || *colon == '\t')
                    colon++;
                snprintf(out, size, "%s", colon);
                out[strcspn(out, "\n")] = '\0';
            }
            break;
        }
    }
    fclose(info);
}

/* The limits every result is a fraction of: host copy bandwidth on all
 * cores and, with a GPU, device copy and host<->device bandwidths. */
static int print_bandwidth(void)
{
    heat2d_error err = {{0}};
    heat2d_host_probe host = {0};
    if (heat2d_host_bandwidth(&host, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "info: %s", err.message);
    printf("HOST_COPY_GBS=%.1f\n", host.copy_gbs);
    printf("HOST_COPY_THREADS=%d\n", host.threads);
    /* Below about 0.8, other work held the cores: the bound is low. */
    printf("HOST_COPY_CPU_SHARE=%.2f\n", host.cpu_share);
    printf("HOST_CACHE_BYTES=%zu\n", heat2d_host_llc_bytes());
#ifdef HEAT2D_HAVE_CUDA
    heat2d_gpu_limits gpu = {0};
    if (heat2d_cuda_bandwidth(&gpu, &err) != 0) {
        printf("GPU_BANDWIDTH=none (%s)\n", err.message);
        return EXIT_SUCCESS;
    }
    printf("DEVICE_COPY_GBS=%.1f\n", gpu.device_copy);
    printf("H2D_PAGEABLE_GBS=%.2f\n", gpu.h2d_pageable);
    printf("D2H_PAGEABLE_GBS=%.2f\n", gpu.d2h_pageable);
    printf("H2D_PINNED_GBS=%.2f\n", gpu.h2d_pinned);
    printf("D2H_PINNED_GBS=%.2f\n", gpu.d2h_pinned);
    /* Per direction, both at once. */
    printf("BOTH_PINNED_GBS=%.2f\n", gpu.both_pinned);
    printf("FP64_FMA_TFLOPS=%.2f\n", gpu.fp64_tflops);
    printf("FP32_FMA_TFLOPS=%.2f\n", gpu.fp32_tflops);
#endif
    return EXIT_SUCCESS;
}

int heat2d_cmd_info(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return heat2d_usage("info", stdout) == 0 ? EXIT_SUCCESS : HEAT2D_EXIT_FAILURE;
    bool bandwidth = argc == 2 && strcmp(argv[1], "--bandwidth") == 0;
    if (argc > 1 && !bandwidth)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "info: unexpected argument '%s'", argv[1]);
    heat2d_print_build_info(stdout);
    char model[256];
    cpu_model(model, sizeof model);
    struct utsname uts;
    if (uname(&uts) == 0)
        printf("OS=%s %s %s\n", uts.sysname, uts.release, uts.machine);
    printf("CPU_MODEL=%s\n", model);
    printf("CPU_CORES=%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
    printf("MEMORY_BYTES=%llu\n", (unsigned long long)heat2d_physical_memory());
    /* What the up-front refusals compare against: a cgroup or ulimit -v may
     * allow far less than the machine has. */
    const char *source = NULL;
    uint64_t limit = heat2d_memory_limit(&source);
    printf("MEMORY_LIMIT_BYTES=%llu\nMEMORY_LIMIT_SOURCE=%s\n", (unsigned long long)limit,
           source ? source : "unknown");
#ifdef HEAT2D_HAVE_CUDA
    heat2d_gpu_info_print(stdout);
#endif
    return bandwidth ? print_bandwidth() : EXIT_SUCCESS;
}
