/* Runs a fuzz target once on each file named (or each file in each directory
 * named), with any C compiler: the fuzz corpus, crash regressions included,
 * as a plain test in every build, sanitized or not. libFuzzer builds use
 * its own main instead (tests/fuzz/CMakeLists.txt). */
#define _POSIX_C_SOURCE 200809L

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data != NULL && (got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            uint8_t *bigger = realloc(data, cap * 2);
            if (bigger == NULL)
                free(data);
            data = bigger;
            cap *= 2;
        }
    }
    int bad = data == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(data);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return -1;
    }
    /* Exactly size bytes, as libFuzzer hands them: a read past them is an
     * AddressSanitizer report in a sanitized build. */
    uint8_t *exact = malloc(size ? size : 1);
    if (exact == NULL) {
        free(data);
        return -1;
    }
    memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    size_t inputs = 0;
    for (int k = 1; k < argc; ++k) {
        struct stat st;
        if (stat(argv[k], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[k], strerror(errno));
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (replay_file(argv[k]) != 0)
                return 1;
            ++inputs;
            continue;
        }
        DIR *dir = opendir(argv[k]);
        struct dirent *entry;
        char path[4096];
        while (dir != NULL && (entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", argv[k], entry->d_name);
            if (replay_file(path) != 0)
                return 1;
            ++inputs;
        }
        if (dir != NULL)
            closedir(dir);
    }
    printf("replay: %zu inputs, no property broken\n", inputs);
    return inputs > 0 ? 0 : 1;
}
