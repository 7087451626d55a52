/* NetCDF fields and series (CF-1.8) through the NetCDF-C library: a final
 * field, a series of snapshots appended as they come, and reading either
 * back. In a build without NetCDF (HEAT2D_HAVE_NETCDF undefined) every call
 * fails with one line naming the fix (field_netcdf_absent.c). */
#ifndef HEAT2D_FIELD_NETCDF_H
#define HEAT2D_FIELD_NETCDF_H

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deflate level of the field variable when none is asked for: the choice
 * docs/performance.md "Field files" measured (0: chunked, not compressed). */
#define HEAT2D_NETCDF_DEFAULT_DEFLATE 0

/* A series' steps are 32-bit integers (NC_INT, which every reader takes):
 * a run whose series would go further is refused before it starts. */
#define HEAT2D_NC_MAX_STEP 2147483647u

/* What a file says about the run that wrote it. */
typedef struct heat2d_netcdf_meta {
    size_t nx, ny;
    size_t steps; /* the step the run ends at (a run continued from step S: S and its steps) */
    double alpha;
    /* The physical units, 0 where not given (heat2d_physical.h): x and y
     * are then cell indices, and the time 1 s a step. */
    double dx, dt, diffusivity;
    heat2d_precision precision; /* f32: NC_FLOAT variables, f64: NC_DOUBLE */
    /* A series' time units (NULL: "seconds since 1970-01-01 00:00:00") and
     * the seconds one of them is (0: 1). */
    const char *time_units;
    double time_unit_s;
    const char *method;
    const char *command_line; /* for history */
    const char *version;      /* heat2d's, for history and source */
    int deflate;              /* 0 to 9, or -1 for the default */
} heat2d_netcdf_meta;

/* 0 when every number meta records is finite: its coordinates (up to
 * (n - 1) dx), its last step's time (steps dt) and its diffusivity; else
 * -1 with err naming the option to change. Every writer below asks first,
 * before any file is made. */
int heat2d_netcdf_meta_check(const heat2d_netcdf_meta *meta, heat2d_error *err);

/* Whether this build reads and writes NetCDF. */
bool heat2d_netcdf_built(void);

/* Whether path names a NetCDF file: it ends in ".nc". */
bool heat2d_netcdf_path(const char *path);

/* A NetCDF input as a command line names it: "FILE.nc" (heat2d's variable
 * u), "FILE.nc:STEP" (the record of step STEP of a series), "FILE.nc:VAR"
 * (variable VAR: a name that begins with a letter or '_') and
 * "FILE.nc:VAR:STEP". A part of digits alone is always a step. */
#define HEAT2D_NC_NAME_MAX 256
typedef struct heat2d_netcdf_spec {
    char file[4096];
    char var[HEAT2D_NC_NAME_MAX + 1]; /* "": heat2d's u */
    bool record;                      /* a record of a series: step */
    size_t step;
} heat2d_netcdf_spec;

/* 1 with *out when spec names a NetCDF input; 0 when it names something
 * else (a text field file: no ".nc" part, or a file of that very name); -1
 * with err ("SPEC: bad record index 'X' ...") when what follows "FILE.nc:"
 * is neither a step nor a variable's name. */
int heat2d_netcdf_spec_parse(const char *spec, heat2d_netcdf_spec *out, heat2d_error *err);

/* 0 when this build writes NetCDF, else -1 with "OPTION FILE: this heat2d
 * was built without NetCDF; ..." (its fix). */
int heat2d_netcdf_check_built(const char *option, const char *path, heat2d_error *err);

/* Whether path is a NetCDF file that heat2d wrote (a field or a series);
 * false in a build without NetCDF. */
bool heat2d_netcdf_is_heat2d(const char *path);

/* Writes the final field (nx*ny doubles, i fastest; an f32 run's widened
 * values narrow back exactly) to path, replaced whole as a text field file
 * is (file_replace.c): built in memory, then written out. */
int heat2d_netcdf_write_field(const char *path, const heat2d_netcdf_meta *meta, const double *field,
                              heat2d_error *err);

/* A series: one file, an unlimited time dimension, a record a snapshot.
 * Attribute complete is "false" until heat2d_netcdf_series_close(.., true);
 * each append ends in nc_sync, so a killed run leaves whole records. */
typedef struct heat2d_netcdf_series heat2d_netcdf_series;

int heat2d_netcdf_series_open(heat2d_netcdf_series **series, const char *path,
                              const heat2d_netcdf_meta *meta, heat2d_error *err);
/* A series a run continues from its last record, step `from` (--initial
 * FILE.nc:STEP --append): refused unless it is a complete heat2d series of
 * meta's grid, precision, alpha, dx and dt that ends at `from`, read whole
 * in a child process first (every record written, steps in order), with
 * the lock held. Its records are appended in place (there is nothing to
 * rename in): complete is set "false" before the first, "true" again by
 * heat2d_netcdf_series_close(.., true), which also sets steps and adds the
 * run to history (NetCDF-4); a run stopped part-way leaves every record
 * before it whole. */
int heat2d_netcdf_series_open_append(heat2d_netcdf_series **series, const char *path,
                                     const heat2d_netcdf_meta *meta, size_t from,
                                     heat2d_error *err);
/* values: nx*ny cells of meta's precision (float or double). */
int heat2d_netcdf_series_append(heat2d_netcdf_series *series, size_t step, const void *values,
                                heat2d_error *err);
/* Closes and frees (NULL: nothing); complete marks the series whole. A
 * failure to close is an error only when complete was asked for. */
int heat2d_netcdf_series_close(heat2d_netcdf_series *series, bool complete, heat2d_error *err);

/* What a NetCDF input says beyond its values: the physics of the run that
 * wrote it (heat2d's own files: global attributes alpha, dx, dt,
 * diffusivity, each 0 where absent, and the precision its field is stored
 * in) and the grid its coordinate variables give (a side stored in
 * descending order is put in heat2d's ascending order by the reader). */
typedef struct heat2d_netcdf_facts {
    bool heat2d; /* its source attribute begins "heat2d " */
    double alpha, dx, dt, diffusivity;
    bool has_precision; /* heat2d's field stored as float (f32) or double (f64) */
    heat2d_precision precision;
    /* The cells' spacing in metres from coordinate variables in metres
     * (or km), 0 where they are cell indices or absent. */
    double spacing;
    bool flip_x, flip_y; /* stored in descending order: reversed on reading */
    /* A series of one record named without its step: that step. */
    bool has_step;
    size_t step;
    /* A series' time units ("seconds since ..."), "" when it has none. */
    char time_units[96];
} heat2d_netcdf_facts;

/* heat2d_netcdf_read, and what the file says of the run and its grid into
 * *facts (zeroed for a text field file). */
int heat2d_field_load_facts(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                            heat2d_error *err);

/* Reads a field "FILE.nc", or record STEP of a series "FILE.nc:STEP", of
 * heat2d's variable u or the one named (FILE.nc:VAR, FILE.nc:VAR:STEP),
 * into doubles (i fastest), with the text reader's checks (shape >= 5x5,
 * every value finite). The variable's dimensions are named (y, x) or
 * (x, y) (a series: after its record dimension; x also X, lon, longitude,
 * y also Y, lat, latitude), transposed where needed; any other shape is
 * refused naming them. Integers and reals are read, anything else
 * refused; scale_factor and add_offset are applied; a cell holding the
 * variable's _FillValue or a missing_value is refused with its (i, j). A
 * series without a STEP is refused, naming its steps; one whose steps do
 * not increase (a step twice) is refused. The file is untrusted: the
 * library reads it in a child process, every size it claims is checked
 * against its own size and the memory limit before anything is allocated,
 * a record whose field was never written is refused as cut short, and a
 * file that crashes the library (or that it makes no progress on for
 * HEAT2D_NETCDF_TIMEOUT seconds, 30 by default) is "not a valid NetCDF
 * file". */
int heat2d_netcdf_read(const char *spec, heat2d_field *field, heat2d_error *err);
int heat2d_netcdf_read_facts(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                             heat2d_error *err);

/* The same reading of spec, the values checked but not kept or held to
 * being finite, and a series named without a STEP checked whole (each
 * record whose step is set was written): heat2d plot's check before its
 * plotter opens the file. A build without NetCDF checks nothing (0). */
int heat2d_netcdf_check(const char *spec, heat2d_error *err);

/* heat2d_netcdf_check, and for a series named whole step(ctx, STEP, err)
 * for each of its records in order (none for a field or a record): 0, or
 * -1 with err (step's own -1 included). */
int heat2d_netcdf_check_steps(const char *spec,
                              int (*step)(void *ctx, size_t step, heat2d_error *err), void *ctx,
                              heat2d_error *err);

/* Whether spec names a NetCDF field, variable or record (heat2d_netcdf_spec_parse). */
bool heat2d_field_is_netcdf(const char *spec);

/* A field from a text field file, a .nc field or a FILE.nc:STEP record. */
int heat2d_field_load(const char *spec, heat2d_field *field, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_FIELD_NETCDF_H */
