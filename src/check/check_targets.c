/* heat2d check's targets: which methods a check runs (the CPU check what
 * runs without a GPU here, the GPU check every method that can use one),
 * and the configuration each runs. */
#include "check.h"

#include <stdio.h>
#include <string.h>

/* The configuration a target runs: the original's alpha, its pinning and
 * precision. */
heat2d_config check_target_config(const check_target *t, size_t nx, size_t ny, size_t steps)
{
    return (heat2d_config){.nx = nx,
                           .ny = ny,
                           .steps = steps,
                           .alpha = HEAT2D_ALPHA,
                           .pinned = t->pinned,
                           .precision = t->precision};
}

size_t check_collect_targets(bool gpu, heat2d_precision precision, check_target *targets,
                             size_t capacity)
{
    size_t n = 0;
    for (size_t k = 0; k < heat2d_method_count() && n + 2 <= capacity; ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        /* The CPU check takes what runs without a GPU here; the GPU check
         * takes every method that can use one (those this build puts on
         * the host are checked there, and say so). */
        bool take = gpu ? m->style != HEAT2D_STYLE_HOST : !heat2d_method_needs_gpu(m);
        /* The reference itself, unless in f32 (cpu f32 against cpu f64). */
        take = take && (strcmp(m->name, "cpu") != 0 || precision == HEAT2D_F32);
        if (!take)
            continue;
        /* f32 targets are labelled NAME-f32 in every line and file name. */
        for (int pinned = 0; pinned <= (gpu && m->has_pinned_variant); ++pinned) {
            targets[n] = (check_target){.method = m, .pinned = pinned, .precision = precision};
            const heat2d_option_values values = {
                [HEAT2D_OPTION_PINNED] = (size_t)pinned, [HEAT2D_OPTION_PRECISION] = precision};
            heat2d_method_label(targets[n].label, sizeof targets[n].label, m->name, values, 0);
            n++;
        }
    }
    return n;
}

bool check_any_needs_gpu(const check_target *targets, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        if (heat2d_method_needs_gpu(targets[k].method))
            return true;
    return false;
}

/* "acc-each, acc-resident run on the host here", or that there is no GPU
 * method at all. */
void check_host_targets_text(const check_target *targets, size_t n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && used < size; ++k)
        if (!targets[k].pinned)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                                     targets[k].method->name);
    if (used == 0)
        snprintf(buf, size, "it has none: heat2d info's LEFT_OUT lines say why");
    else if (used < size)
        snprintf(buf + used, size - used, " run on the host in this build");
}
