/* The tally of host<->device copies and its file: what the CUPTI trace
 * counts (the array copies singled out by size), written as the injection
 * library writes it and read back as the bench reads it, and the files the
 * reader refuses. No GPU needed: the CUPTI side only feeds _add. */
#include "copy_tally.h"
#include "heat2d_report.h"
#include "unit_check.h"

#include <math.h>
#include <string.h>

static void test_counts(void)
{
    heat2d_copy_tally t;
    heat2d_copy_tally_reset(&t, 800);
    heat2d_copy_tally_add(&t, true, 800, 10);  /* the array up */
    heat2d_copy_tally_add(&t, true, 48, 2);    /* a runtime's argument table */
    heat2d_copy_tally_add(&t, false, 800, 20); /* the array down, twice */
    heat2d_copy_tally_add(&t, false, 800, 30);
    check(t.up.copies == 2 && t.up.bytes == 848 && t.up.ns == 12, "up: every copy");
    check(t.up.array_copies == 1 && t.up.array_bytes == 800, "up: the array singled out");
    check(t.down.copies == 2 && t.down.array_copies == 2 && t.down.array_bytes == 1600,
          "down: both array copies");
    heat2d_report rep;
    memset(&rep, 0, sizeof rep);
    heat2d_copy_tally_to_report(&t, &rep);
    check(rep.transfers_measured && rep.h2d_count == 1 && rep.h2d_bytes == 800 &&
              rep.h2d_other_count == 1 && rep.h2d_other_bytes == 48 && rep.d2h_count == 2 &&
              rep.d2h_other_count == 0,
          "report: array and other copies apart");
    check(fabs(rep.h2d_s - 12e-9) < 1e-21 && fabs(rep.d2h_s - 50e-9) < 1e-21,
          "report: copy times in seconds");
    heat2d_copy_tally none;
    heat2d_copy_tally_reset(&none, 0);
    heat2d_copy_tally_add(&none, true, 800, 1);
    check(none.up.copies == 1 && none.up.array_copies == 0, "no array size: every copy other");
}

static void test_round_trip(void)
{
    heat2d_copy_tally t, back;
    heat2d_copy_tally_reset(&t, 33554432);
    for (int k = 0; k < 500; ++k) {
        heat2d_copy_tally_add(&t, true, 33554432, 1000000);
        heat2d_copy_tally_add(&t, false, 33554432, 900000);
    }
    heat2d_copy_tally_add(&t, true, UINT64_MAX / 2, 1);
    char text[1024];
    const size_t len = heat2d_copy_tally_format(&t, text, sizeof text);
    check(len > 0 && len < sizeof text && text[len - 1] == '\n', "format: whole lines");
    check(strncmp(text, "TRANSFER_ARRAY_BYTES=33554432\nTRANSFER_H2D_COPIES=501\n", 54) == 0,
          "format: the first two lines");
    char why[128] = "";
    check(heat2d_copy_tally_parse(text, &back, why, sizeof why) == 0, "parse: %s", why);
    check(memcmp(&t, &back, sizeof t) == 0, "parse: the same tally back");
    char small[16];
    check(heat2d_copy_tally_format(&t, small, sizeof small) == len, "format: the length needed");
}

/* Each refused text, and the line the refusal names. */
static void test_refusals(void)
{
    heat2d_copy_tally t;
    char good[1024];
    heat2d_copy_tally_reset(&t, 8);
    heat2d_copy_tally_format(&t, good, sizeof good);
    struct {
        const char *what, *text, *why;
    } cases[] = {
        {"empty", "", "TRANSFER_ARRAY_BYTES is missing"},
        {"no end", "TRANSFER_ARRAY_BYTES=8", "line 1 has no end"},
        {"unknown key", "TRANSFER_BOGUS=1\n", "line 1 is not one of its counts"},
        {"a sign", "TRANSFER_ARRAY_BYTES=-8\n", "line 1 is not one of its counts"},
        {"overflow", "TRANSFER_ARRAY_BYTES=18446744073709551616\n",
         "line 1 is not one of its counts"},
        {"no value", "TRANSFER_ARRAY_BYTES=\n", "line 1 is not one of its counts"},
        {"twice", "TRANSFER_ARRAY_BYTES=8\nTRANSFER_ARRAY_BYTES=8\n",
         "line 2 is not one of its counts"},
        {"a key's prefix", "TRANSFER_H2D=1\n", "line 1 is not one of its counts"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        char why[128] = "";
        const int rc = heat2d_copy_tally_parse(cases[k].text, &t, why, sizeof why);
        check(rc == -1 && strcmp(why, cases[k].why) == 0, "%s: got %d '%s'", cases[k].what, rc,
              why);
    }
    char cut[1024];
    strcpy(cut, good);
    *strstr(cut, "TRANSFER_D2H_ARRAY_BYTES=") = '\0'; /* the last line gone */
    char why[128] = "";
    check(heat2d_copy_tally_parse(cut, &t, why, sizeof why) == -1 &&
              strcmp(why, "TRANSFER_D2H_ARRAY_BYTES is missing") == 0,
          "a missing last line: '%s'", why);
}

int main(void)
{
    test_counts();
    test_round_trip();
    test_refusals();
    printf("copy_tally: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && passed == 20 ? 0 : 1;
}
