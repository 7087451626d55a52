/* Fuzz target: the --save-every manifest, heat2d_series.txt
 * (heat2d_series_parse), on any bytes: a manifest sits in a folder the user
 * shares, and a run reads it back before it writes a step file there.
 *
 * Properties: no crash, no undefined behaviour; a success holds a grid of
 * positive sides, a stable alpha, a method's name and a precision, and
 * written back out it parses again to the very same settings; a failure is
 * one line that names the file. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"
#include "series_manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    heat2d_series s;
    heat2d_error err = {{0}};
    if (heat2d_series_parse("m.txt", (const char *)data, size, &s, &err) != 0) {
        FUZZ_REQUIRE(fuzz_one_line(err.message));
        FUZZ_REQUIRE(strncmp(err.message, "m.txt", 5) == 0);
        return 0;
    }
    FUZZ_REQUIRE(s.nx > 0 && s.ny > 0);
    FUZZ_REQUIRE(s.alpha > 0.0 && s.alpha <= HEAT2D_MAX_ALPHA);
    FUZZ_REQUIRE(s.method[0] != '\0' && memchr(s.method, '\0', sizeof s.method) != NULL);
    FUZZ_REQUIRE(s.precision == HEAT2D_F64 || s.precision == HEAT2D_F32);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FUZZ_REQUIRE(f != NULL);
    FUZZ_REQUIRE(heat2d_series_write(f, &s) == 0);
    FUZZ_REQUIRE(fclose(f) == 0);
    heat2d_series again;
    FUZZ_REQUIRE(heat2d_series_parse("m.txt", text, len, &again, &err) == 0);
    char what[200];
    FUZZ_REQUIRE(!heat2d_series_differ(&s, &again, what, sizeof what));
    free(text);
    return 0;
}
