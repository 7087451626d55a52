/* heat2d info's lines about the GPU: the device the CUDA methods would
 * use, its compute capability, and which of the build's code it runs (its
 * own SASS, or PTX the driver JIT-compiles). */
#include "gpu_info.h"
#include "cuda_device.h"

void heat2d_gpu_info_print(FILE *out)
{
    heat2d_error err = {{0}};
    char name[128], code[128];
    int device = 0, major = 0, minor = 0;
    double context_s = 0.0;
    if (heat2d_cuda_open_device("info", name, sizeof name, &device, &context_s, &err) != 0) {
        fprintf(out, "GPU_DEVICE=none (%s)\n", err.message);
        return;
    }
    fprintf(out, "GPU_DEVICE=%s\n", name);
    if (heat2d_cuda_capability(device, &major, &minor, &err) != 0) {
        fprintf(out, "GPU_COMPUTE_CAPABILITY=unknown (%s)\n", err.message);
        return;
    }
    fprintf(out, "GPU_COMPUTE_CAPABILITY=%d.%d\n", major, minor);
    if (heat2d_cuda_code_for("info", device, code, sizeof code, &err) != 0)
        fprintf(out, "CUDA_CODE=none (%s)\n", err.message);
    else
        fprintf(out, "CUDA_CODE=%s\n", code);
}
