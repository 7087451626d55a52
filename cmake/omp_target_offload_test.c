/* OpenMP target's test program for cmake/DirectiveOffload.cmake, on the
 * host and offloaded: a loop that must compute the right numbers, and a
 * region that says where it ran. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    double a[256];
    int on_host = 1;
#pragma omp target teams distribute parallel for simd map(from : a)
    for (int i = 0; i < 256; ++i)
        a[i] = 0.5 * i;
#pragma omp target map(from : on_host)
    {
        on_host = omp_is_initial_device();
    }
    printf("%s\n", on_host ? "host" : "device");
    return a[255] == 127.5 ? 0 : 1;
}
