/* heat2d info: how this build was made and what machine it runs on, as
 * KEY=VALUE lines, so that results are never mixed across set-ups. */
#define _GNU_SOURCE
#include "commands.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

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

int heat2d_cmd_info(int argc, char **argv)
{
    if (argc > 1)
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
    return EXIT_SUCCESS;
}
