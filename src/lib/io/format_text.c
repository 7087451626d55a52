/* The original's text field file as a field format (field_format.h): any
 * name no other format takes, a file of text (field_read.c, field_write.c);
 * its series a folder of them (series_text.c). */
#include "field_format.h"

#include <string.h>

static bool any_name(const char *path)
{
    (void)path;
    return true;
}

static int any_spec(const char *spec, heat2d_error *err)
{
    (void)spec;
    (void)err;
    return 1;
}

/* Text: no control character but the blanks (UTF-8's bytes pass). */
static heat2d_holds text_sniff(const char *path, const unsigned char *head, size_t n)
{
    (void)path;
    for (size_t k = 0; k < n; ++k)
        if ((head[k] < 0x20 && (head[k] == 0 || strchr("\t\n\v\f\r", head[k]) == NULL)) ||
            head[k] == 0x7f)
            return HEAT2D_HOLDS_OTHER;
    return HEAT2D_HOLDS_OURS;
}

static int text_write(const char *path, size_t nx, size_t ny, const double *field,
                      const heat2d_netcdf_meta *meta, heat2d_error *err)
{
    (void)meta;
    return heat2d_field_write(path, nx, ny, field, err);
}

static int text_read(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                     heat2d_error *err)
{
    (void)facts;
    return heat2d_field_read(spec, field, err);
}

const heat2d_field_format heat2d_format_text = {
    .name = "text",
    .holds = "text",
    .writes = any_name,
    .reads = any_spec,
    .sniff = text_sniff,
    .write = text_write,
    .read = text_read,
    .series = &heat2d_series_text,
};
