/* Fuzz target: the field-file parser (heat2d_field_parse, the parser behind
 * heat2d_field_read), on the bytes of a file as they are, in a buffer of
 * exactly their size, so that AddressSanitizer sees any read past the end
 * (a mapped file would hide one in its last page).
 *
 * Properties: no crash, no undefined behaviour, no leak; a success has a
 * shape of at least 5x5 and only finite values; a failure is one line that
 * names the file, and hands back no values. */
#include "fuzz.h"
#include "heat2d.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    heat2d_field field;
    heat2d_error err = {{0}};
    int rc = heat2d_field_parse("fuzz.dat", (const char *)data, size, &field, &err);
    if (rc == 0) {
        FUZZ_REQUIRE(field.nx >= HEAT2D_MIN_SIDE && field.ny >= HEAT2D_MIN_SIDE);
        FUZZ_REQUIRE(field.values != NULL);
        /* A value line takes at least two bytes, but the last one. */
        FUZZ_REQUIRE(field.nx * field.ny <= size / 2 + 1);
        for (size_t k = 0; k < field.nx * field.ny; ++k)
            FUZZ_REQUIRE(isfinite(field.values[k]));
        heat2d_field_free(&field);
    } else {
        FUZZ_REQUIRE(rc == -1);
        FUZZ_REQUIRE(fuzz_one_line(err.message));
        FUZZ_REQUIRE(strncmp(err.message, "fuzz.dat", 8) == 0);
        FUZZ_REQUIRE(field.values == NULL);
    }
    return 0;
}
