/* The table of methods this build contains. Each backend exports one
 * heat2d_method per method; programs find them only through this table,
 * which the build writes from the backends' declarations (their
 * methods.cmake, through cmake/Methods.cmake) for the parts it holds. */
#include "methods.h"

#include <string.h>

#define HEAT2D_METHOD_ENTRY(var) extern const heat2d_method var;
#include "heat2d_method_table.h"
#undef HEAT2D_METHOD_ENTRY

static const heat2d_method *const method_table[] = {
#define HEAT2D_METHOD_ENTRY(var) &var,
#include "heat2d_method_table.h"
#undef HEAT2D_METHOD_ENTRY
};

size_t heat2d_method_count(void)
{
    return sizeof method_table / sizeof method_table[0];
}

const heat2d_method *heat2d_method_at(size_t index)
{
    return index < heat2d_method_count() ? method_table[index] : NULL;
}

bool heat2d_method_on_host_here(const heat2d_method *m)
{
    return m->gpu_only && m->on_host_here != NULL && m->on_host_here();
}

bool heat2d_method_needs_gpu(const heat2d_method *m)
{
    return m->gpu_only && !heat2d_method_on_host_here(m);
}

const heat2d_method *heat2d_method_find(const char *name)
{
    for (size_t k = 0; k < heat2d_method_count(); ++k)
        if (strcmp(method_table[k]->name, name) == 0)
            return method_table[k];
    return NULL;
}
