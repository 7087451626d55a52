/* A field from any format, the one its name asks for (field_format.c). */
#include "field_format.h"

#include <string.h>

bool heat2d_field_is_netcdf(const char *spec)
{
    heat2d_error ignored;
    return heat2d_field_format_reading(spec, &ignored) == &heat2d_format_netcdf;
}

int heat2d_field_load(const char *spec, heat2d_field *field, heat2d_error *err)
{
    return heat2d_field_load_facts(spec, field, NULL, err);
}

int heat2d_field_load_facts(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                            heat2d_error *err)
{
    if (facts != NULL)
        memset(facts, 0, sizeof *facts);
    const heat2d_field_format *format = heat2d_field_format_reading(spec, err);
    if (format == NULL) {
        field->nx = field->ny = 0;
        field->values = NULL;
        return -1;
    }
    return format->read(spec, field, facts, err);
}
