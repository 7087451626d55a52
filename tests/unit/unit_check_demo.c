/* A unit test that asserts what its argument says, for tests/test_helpers.sh:
 * "none" (no assertion), "skip" (a skip alone), "pass", "fail". */
#include "unit_check.h"

#include <string.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    if (strcmp(mode, "skip") == 0)
        skip("the GPU part: no GPU");
    else if (strcmp(mode, "pass") == 0)
        check(true, "one that holds");
    else if (strcmp(mode, "fail") == 0)
        check(false, "one that does not hold");
    return unit_finish("unit_check_demo");
}
