/* Fuzz target: heat2d_parse_real, the number parser of field files, against
 * the C library. Whatever it accepts, rewritten in C's syntax (the 'D'
 * exponent and the original's bare-sign exponent 1.0-271 become 'e'), must
 * be accepted whole by strtod and give the same double, bit for bit. The
 * parser's fast path (its own decimal-to-binary conversion) is what this
 * exercises; its fallback is strtod itself.
 *
 * The text is passed with its length and no terminating NUL, in a buffer of
 * exactly its size: a read past the end is an AddressSanitizer report. */
#include "fuzz.h"
#include "heat2d.h"

#include <math.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    double value;
    if (heat2d_parse_real(text, size, &value) != 0)
        return 0;

    /* The accepted number without the blanks around it. */
    size_t b = 0, e = size;
    while (b < e && is_blank(text[b]))
        ++b;
    while (e > b && is_blank(text[e - 1]))
        --e;
    FUZZ_REQUIRE(e > b);
    char *c_form = malloc(e - b + 2);
    FUZZ_REQUIRE(c_form != NULL);
    size_t n = 0;
    int numeric = 0;  /* a digit string, not inf or nan */
    int exponent = 0; /* the exponent marker was seen */
    for (size_t k = b; k < e; ++k) {
        char ch = text[k];
        FUZZ_REQUIRE(ch != '\0'); /* strtod would stop there */
        if (is_digit(ch) || ch == '.')
            numeric = 1;
        if (numeric && !exponent && (ch == 'D' || ch == 'd' || ch == 'E' || ch == 'e')) {
            c_form[n++] = 'e';
            exponent = 1;
            continue;
        }
        if (numeric && !exponent && (ch == '+' || ch == '-')) {
            c_form[n++] = 'e'; /* 8.8357301208401164-271 */
            exponent = 1;
        }
        c_form[n++] = ch;
    }
    c_form[n] = '\0';

    char *end = NULL;
    double expected = strtod(c_form, &end);
    FUZZ_REQUIRE(end == c_form + n); /* nothing accepted that C would not */
    if (isnan(expected)) {
        FUZZ_REQUIRE(isnan(value));
    } else {
        uint64_t got_bits, want_bits;
        memcpy(&got_bits, &value, sizeof got_bits);
        memcpy(&want_bits, &expected, sizeof want_bits);
        if (got_bits != want_bits)
            fprintf(stderr, "'%s': parsed %a, strtod gives %a\n", c_form, value, expected);
        FUZZ_REQUIRE(got_bits == want_bits);
    }
    free(c_form);
    return 0;
}
