/* How this build was made, recorded with every benchmark. */
#ifndef HEAT2D_BUILD_INFO_H
#define HEAT2D_BUILD_INFO_H

#include <stdio.h>

/* KEY=VALUE lines: version, git revision, compilers and flags, OpenACC
 * mode, CUDA, MPI, the methods in the build. */
void heat2d_print_build_info(FILE *stream);

/* heat2d's version and the git revision it was built from. */
const char *heat2d_build_version(void);
const char *heat2d_build_revision(void);

#endif /* HEAT2D_BUILD_INFO_H */
