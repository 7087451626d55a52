/* A label's method: the method column of trials.csv read back as NAME or
 * NAME-pinned (heat2d_method_label, from run_options.h, builds labels). */
#include "methods.h"

#include <string.h>

const heat2d_method *heat2d_label_method(const char *method_column, bool *pinned)
{
    const char *suffix = heat2d_run_options[HEAT2D_OPTION_PINNED].label;
    const size_t n = strlen(method_column), s = strlen(suffix);
    const heat2d_method *m = heat2d_method_find(method_column);
    bool twin = false;
    if (m == NULL && n > s && strcmp(method_column + n - s, suffix) == 0) {
        char base[64];
        snprintf(base, sizeof base, "%.*s", (int)(n - s), method_column);
        m = heat2d_method_find(base);
        twin = m != NULL;
    }
    if (pinned != NULL)
        *pinned = twin;
    return m;
}
