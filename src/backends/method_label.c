/* The names that tables, plots, files and progress lines give a method as
 * it was run: NAME, then -pinned (page-locked host buffers), -hK (halos K
 * cells deep), -pP (P ranks under mpirun), -f32 (single precision),
 * -kK-plain or -kK-overlap (a snapshot every K steps, copied so). Built and
 * read here alone. */
#include "methods.h"

#include <string.h>

void heat2d_method_label(char *buf, size_t size, const char *name, bool pinned, size_t halo_depth,
                         size_t ranks, heat2d_precision precision, size_t output_every,
                         heat2d_snapshot_copy copy)
{
    int used = snprintf(buf, size, "%s%s", name, pinned ? "-pinned" : "");
    if (halo_depth > 1 && used >= 0 && (size_t)used < size)
        used += snprintf(buf + used, size - (size_t)used, "-h%zu", halo_depth);
    if (ranks > 0 && used >= 0 && (size_t)used < size)
        used += snprintf(buf + used, size - (size_t)used, "-p%zu", ranks);
    if (precision == HEAT2D_F32 && used >= 0 && (size_t)used < size)
        used += snprintf(buf + used, size - (size_t)used, "-f32");
    if (output_every > 0 && used >= 0 && (size_t)used < size)
        snprintf(buf + used, size - (size_t)used, "-k%zu-%s", output_every,
                 heat2d_snapshot_copy_name(copy));
}

const heat2d_method *heat2d_label_method(const char *method_column, bool *pinned)
{
    static const char suffix[] = "-pinned";
    const size_t n = strlen(method_column), s = sizeof suffix - 1;
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
