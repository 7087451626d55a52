/* OpenACC's test program for cmake/DirectiveOffload.cmake, on the host and
 * offloaded: a loop that must compute the right numbers, and a region that
 * says where it ran. */
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    double a[256];
    int on_host = 1;
#pragma acc parallel loop copyout(a)
    for (int i = 0; i < 256; ++i)
        a[i] = 0.5 * i;
#pragma acc parallel num_gangs(1) copyout(on_host)
    {
        on_host = acc_on_device(acc_device_host);
    }
    printf("%s\n", on_host ? "host" : "device");
    return a[255] == 127.5 ? 0 : 1;
}
