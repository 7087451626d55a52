/* What the fuzz targets share: libFuzzer's entry point, and a check that
 * aborts (so that libFuzzer, or the replay driver, reports the input) with
 * the broken property named. */
#ifndef HEAT2D_FUZZ_H
#define HEAT2D_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_REQUIRE(cond)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #cond);            \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* Every failure message is one non-empty line. */
static inline int fuzz_one_line(const char *message)
{
    return message[0] != '\0' && strchr(message, '\n') == NULL && strchr(message, '\r') == NULL;
}

#endif
