/* The folder of a --save-every run: made when missing, and taken only when
 * its step files are this run's kind (its manifest, heat2d_series.txt,
 * says so), every file the run will write there checked before the run. */
#ifndef HEAT2D_SERIES_FOLDER_H
#define HEAT2D_SERIES_FOLDER_H

#include "heat2d.h"

/* Readies dir for the step files of cfg's run of method: creates it (and
 * its parents) when missing; refuses a folder whose manifest records
 * another grid, alpha, method or precision, or that holds step files and
 * no manifest; refuses a step file the run would replace that is
 * read-only or not a regular file; then writes the manifest. save_path
 * (NULL for none) may not name one of the files written there. Returns 0,
 * -1 with err (exit 1), or -2 with err when save_path names such a file
 * (a command line at odds with itself: exit 2). */
int heat2d_series_claim(const char *dir, const heat2d_config *cfg, const char *method,
                        const char *save_path, heat2d_error *err);

/* Whether the file at path is one that cfg's run writes in dir (the same
 * inode): 1, a step file, with its step in *step; 2, the manifest; 0, none
 * (path or dir not there). */
int heat2d_series_writes(const char *dir, const heat2d_config *cfg, const char *path, size_t *step);

/* The bytes that the step files of cfg's run in dir hold (the files that
 * heat2d_series_step_name names; the manifest is not counted): what the
 * run wrote there, once it has. */
uint64_t heat2d_series_bytes(const char *dir, const heat2d_config *cfg);

/* Whether name is "step_NNN.dat" for a step that cfg's run writes (every
 * K-th of its steps and the last), with the step in *step. A step is named
 * in full, counted from the series' start: a run from a record at step S
 * writes step S + k, in the digits of its last step, S + steps. */
bool heat2d_series_step_name(const char *name, const heat2d_config *cfg, size_t *step);

#endif
