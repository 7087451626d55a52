/* heat2d run's NetCDF files (run_netcdf.h): their metadata and the checks
 * that refuse, before any step, what could only fail at the end. */
#define _POSIX_C_SOURCE 200809L
#include "run_netcdf.h"
#include "build_info.h"
#include "field_format.h"
#include "file_replace.h"
#include "process.h"
#include "same_file.h"
#include "write_lock.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void heat2d_run_command_line(int argc, char **argv, char *line, size_t size)
{
    size_t used = (size_t)snprintf(line, size, "heat2d");
    for (int k = 0; k < argc && used < size; ++k) {
        const char *word = argv[k];
        const bool plain = word[0] != '\0' && strspn(word, "abcdefghijklmnopqrstuvwxyz"
                                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789-_=./,:+@%") == strlen(word);
        if (plain) {
            int n = snprintf(line + used, size - used, " %s", word);
            used += n > 0 ? (size_t)n : 0;
            continue;
        }
        /* 'it'\''s': a quote inside ends the quoting, is escaped, resumes. */
        used += (size_t)snprintf(line + used, size - used, " '");
        for (const char *c = word; *c && used < size; ++c)
            used += (size_t)(*c == '\'' ? snprintf(line + used, size - used, "'\\''")
                                        : snprintf(line + used, size - used, "%c", *c));
        if (used < size)
            used += (size_t)snprintf(line + used, size - used, "'");
    }
    if (used >= size && size > 4)
        strcpy(line + size - 4, "...");
}

int heat2d_run_netcdf_meta(heat2d_netcdf_meta *meta, const heat2d_config *cfg, const char *method,
                           const char *command_line, heat2d_error *err)
{
    static char version[96];
    snprintf(version, sizeof version, "%s (%s)", heat2d_build_version(), heat2d_build_revision());
    *meta = (heat2d_netcdf_meta){.nx = cfg->nx,
                                 .ny = cfg->ny,
                                 .steps = cfg->first_step + cfg->steps,
                                 .alpha = cfg->alpha,
                                 .dx = cfg->dx,
                                 .dt = cfg->dt,
                                 .diffusivity = cfg->diffusivity,
                                 .precision = cfg->precision,
                                 .method = method,
                                 .command_line = command_line,
                                 .version = version,
                                 .deflate = -1};
    if (cfg->steps > SIZE_MAX - cfg->first_step)
        return heat2d_fail(err, "--steps %zu from step %zu: the step count overflows", cfg->steps,
                           cfg->first_step);
    if (cfg->save_every_path != NULL && heat2d_netcdf_path(cfg->save_every_path) &&
        meta->steps > HEAT2D_NC_MAX_STEP)
        return heat2d_fail(err,
                           "--save-every %s: a series counts its steps up to %u (32-bit), this "
                           "run ends at step %zu",
                           cfg->save_every_path, HEAT2D_NC_MAX_STEP, meta->steps);
    /* A tuning knob for tools/tuning/field_format_speed.sh, not an option. */
    const char *level = getenv("HEAT2D_NETCDF_DEFLATE");
    if (level != NULL && level[0] != '\0') {
        if (level[1] != '\0' || level[0] < '0' || level[0] > '9')
            return heat2d_fail(err, "HEAT2D_NETCDF_DEFLATE=%s: want a deflate level 0 to 9", level);
        meta->deflate = level[0] - '0';
    }
    return heat2d_netcdf_meta_check(meta, err);
}

int heat2d_run_netcdf_check(const char *save_path, const char *save_every, bool force,
                            heat2d_error *err)
{
    const bool nc_save = save_path != NULL && heat2d_netcdf_path(save_path);
    const bool series = save_every != NULL && heat2d_netcdf_path(save_every);
    if ((nc_save && heat2d_netcdf_check_built("--save", save_path, err) != 0) ||
        (series && heat2d_netcdf_check_built("--save-every", save_every, err) != 0))
        return -1;
    if (series && save_path != NULL && heat2d_same_file(save_path, save_every)) {
        heat2d_fail(err, "--save %s is the series that --save-every writes; choose another name",
                    save_path);
        return -2;
    }
    /* A series another run is writing is not to be replaced under it.
     * Rank 0 alone writes, and asks: the others would find its own lock. */
    heat2d_error why = {{0}};
    const bool writer = heat2d_process_rank() == 0;
    if (writer && ((nc_save && heat2d_write_lock_check(save_path, &why) != 0) ||
                   (series && heat2d_write_lock_check(save_every, &why) != 0)))
        return heat2d_fail(err, "%s; wait for it or choose another name", why.message);
    if (series && (heat2d_file_check_regular(save_every, &why) != 0 ||
                   heat2d_file_check_replaceable(save_every, "series", &why) != 0))
        return heat2d_fail(err, "--save-every: %s", why.message);
    if ((save_path != NULL && heat2d_file_check_kind("--save", save_path, force, err) != 0) ||
        (series && heat2d_file_check_kind("--save-every", save_every, force, err) != 0))
        return -1;
    return 0;
}

/* --append's own rules: a record of a series to continue, which
 * --save-every names too. 0, or -2 with err. */
static int append_check(const char *initial_path, const heat2d_netcdf_spec *parsed, bool is_nc,
                        const char *save_every, heat2d_error *err)
{
    if (initial_path == NULL || !is_nc || !parsed->record)
        heat2d_fail(err, "--append continues a series from its last record: give --initial "
                         "FILE.nc:STEP");
    else if (save_every == NULL || !heat2d_netcdf_path(save_every) ||
             !heat2d_same_file(parsed->file, save_every))
        heat2d_fail(err,
                    "--append writes to the series that --initial %s reads: give "
                    "--save-every %s",
                    initial_path, parsed->file);
    /* The series' records are u's: another variable's field would go on
     * as u's next record. */
    else if (parsed->var[0] != '\0' && strcmp(parsed->var, "u") != 0)
        heat2d_fail(err,
                    "--append continues the series' variable u, and --initial %s names '%s': "
                    "give --initial %s:%zu",
                    initial_path, parsed->var, parsed->file, parsed->step);
    else
        return 0;
    return -2;
}

int heat2d_run_initial_check(const char *initial_path, const char *save_every, bool append,
                             size_t *first_step, heat2d_error *err)
{
    heat2d_netcdf_spec parsed;
    heat2d_error ignored;
    const bool is_nc =
        initial_path != NULL && heat2d_netcdf_spec_parse(initial_path, &parsed, &ignored) == 1;
    *first_step = is_nc && parsed.record ? parsed.step : 0;
    if (append && append_check(initial_path, &parsed, is_nc, save_every, err) != 0)
        return -2;
    if (!is_nc)
        return 0;
    const char *name = parsed.file;
    if (!append && save_every != NULL && heat2d_netcdf_path(save_every) &&
        heat2d_same_file(name, save_every)) {
        heat2d_fail(err,
                    "--initial %s reads the series that --save-every %s writes; choose another "
                    "name (or give --append to continue it)",
                    initial_path, save_every);
        return -2;
    }
    heat2d_error why = {{0}};
    if (heat2d_write_lock_check(name, &why) != 0)
        return heat2d_fail(err, "--initial %s: %s; wait for it", initial_path, why.message);
    return 0;
}
