/* A field file's format: the one interface between heat2d and a kind of
 * field file (what names it goes by, what its files hold, its writer and
 * its reader), and the table of formats (field_format.c), the one place
 * that picks one for a name or for what a file holds. A new format is its
 * own file, which defines a heat2d_field_format (and, for a series of
 * snapshots, its heat2d_series_format), and one line in that table
 * (tests/doubles/format_double.c shows one). */
#ifndef HEAT2D_FIELD_FORMAT_H
#define HEAT2D_FIELD_FORMAT_H

#include "field_netcdf.h"

#include <stdbool.h>
#include <stddef.h>

/* What a file's first bytes say to a format. */
typedef enum {
    HEAT2D_HOLDS_OTHER,   /* not this format's */
    HEAT2D_HOLDS_OURS,    /* this format's, as heat2d writes it */
    HEAT2D_HOLDS_FOREIGN, /* this format's, but not what heat2d wrote */
} heat2d_holds;

/* A series of a run's snapshots in a format: opened where --save-every
 * names, each snapshot appended as it comes (cells of the run's
 * precision), closed complete once the run ends well. */
typedef struct heat2d_series_format {
    /* What a run stopped part-way keeps of it, in words: "records". */
    const char *keeps;
    /* Whether its first record is the run's initial state (the caller's
     * to append, once every check has passed). */
    bool initial_record;
    /* A new series at path for cfg's snapshots, or with append the series
     * there continued from its record cfg->first_step; meta: what the run
     * is, for a format that records it. */
    int (*open)(void **series, const char *path, const heat2d_config *cfg,
                const heat2d_netcdf_meta *meta, bool append, heat2d_error *err);
    /* The snapshot after `step` (counted from the series' start). */
    int (*append)(void *series, size_t step, const void *cells, heat2d_error *err);
    /* Closes and frees (NULL: nothing); complete marks the series whole. */
    int (*close)(void *series, bool complete, heat2d_error *err);
} heat2d_series_format;

typedef struct heat2d_field_format {
    const char *name;    /* "text", "netcdf" */
    const char *holds;   /* a file of it that heat2d wrote, in words: "text" */
    const char *foreign; /* one heat2d did not write, in words; NULL: none */
    /* Whether path, an output's name, asks for this format. */
    bool (*writes)(const char *path);
    /* Whether spec, an input's name (a format may take parts after the
     * file's, as FILE.nc:STEP), asks for it: 1, 0, or -1 with err when
     * it does but is malformed. */
    int (*reads)(const char *spec, heat2d_error *err);
    /* What the first n (> 0) bytes of the file at path say. */
    heat2d_holds (*sniff)(const char *path, const unsigned char *head, size_t n);
    /* The final field (nx*ny doubles, i fastest) to path, replaced whole
     * (file_replace.c); meta, what the run was, is filled for a format
     * that records it (NetCDF). */
    int (*write)(const char *path, size_t nx, size_t ny, const double *field,
                 const heat2d_netcdf_meta *meta, heat2d_error *err);
    /* A field from spec, with the text reader's checks, and into facts
     * (NULL: not asked; zeroed by the caller) what the file says of the
     * run that wrote it, for a format that records it (NetCDF). */
    int (*read)(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                heat2d_error *err);
    /* Its series of snapshots; NULL: it writes none. */
    const heat2d_series_format *series;
} heat2d_field_format;

extern const heat2d_field_format heat2d_format_text;
extern const heat2d_field_format heat2d_format_netcdf;
/* The text format's series: a folder of step files (series_text.c). */
extern const heat2d_series_format heat2d_series_text;

/* The format an output's name asks for (text for any name no other takes). */
const heat2d_field_format *heat2d_field_format_writing(const char *path);

/* The format an input's name asks for, or NULL with err when a format
 * takes the name but it is malformed ("FILE.nc:bad"). */
const heat2d_field_format *heat2d_field_format_reading(const char *spec, heat2d_error *err);

/* The series format --save-every's name asks for (the text format's: a
 * folder of step files), or NULL with err when that format writes none. */
const heat2d_series_format *heat2d_series_format_writing(const char *path, heat2d_error *err);

/* Writes the final field to path in the format its name asks for. */
int heat2d_field_save(const char *path, size_t nx, size_t ny, const double *field,
                      const heat2d_netcdf_meta *meta, heat2d_error *err);

/* heat2d run's rule for a file that is already where an output goes
 * (docs/usage.md, "Files that are there already"): a regular file, or the
 * one a link names, is replaced only when it holds what heat2d writes
 * under that name (a NetCDF file heat2d wrote for a .nc name, text for any
 * other) or nothing; otherwise, and for a link to nothing, -1 with
 * "OPTION PATH: it holds binary data, not text; give --force to replace
 * it" and the like. force: anything goes. Streams are not judged. */
int heat2d_file_check_kind(const char *option, const char *path, bool force, heat2d_error *err);

#endif /* HEAT2D_FIELD_FORMAT_H */
