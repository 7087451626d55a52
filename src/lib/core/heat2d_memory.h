/* The memory a run may use: physical memory and the limits under it
 * (cgroups, RLIMIT_AS). */
#ifndef HEAT2D_MEMORY_H
#define HEAT2D_MEMORY_H

#include "heat2d_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Physical memory of this machine in bytes, 0 if unknown. */
uint64_t heat2d_physical_memory(void);

/* The sources heat2d_memory_limit names (compare them with strcmp). */
#define HEAT2D_MEMORY_PHYSICAL  "physical memory"
#define HEAT2D_MEMORY_CGROUP_V2 "cgroup memory limit (memory.max)"
#define HEAT2D_MEMORY_CGROUP_V1 "cgroup v1 memory limit"
#define HEAT2D_MEMORY_RLIMIT_AS "RLIMIT_AS (ulimit -v)"

/* The memory this process may use, in bytes: the least of physical memory,
 * its cgroup's limit and every ancestor's (v2 memory.max, v1
 * memory.limit_in_bytes; "max" is none) and RLIMIT_AS; 0 if none is known.
 * *source (when source is non-NULL) is set to the HEAT2D_MEMORY_* string of
 * the one that set it, NULL with 0. Reads /proc and /sys on every call. */
uint64_t heat2d_memory_limit(const char **source);

/* The same with /proc/self/cgroup and /sys/fs/cgroup read under root, a
 * fake tree for tests ("" reads the real ones). */
uint64_t heat2d_memory_limit_under(const char *root, const char **source);

/* What a refusal says after "more than ", with limit and source as
 * heat2d_memory_limit gives them: "this machine's 16 GB of memory" for
 * physical memory (or an unknown source), else "the 0.537 GB RLIMIT_AS
 * (ulimit -v) allows". Writes buf (size bytes) and returns it. */
const char *heat2d_memory_limit_text(char *buf, size_t size, uint64_t limit, const char *source);

/* Advice that [start, start+bytes), freshly allocated for a whole field,
 * be backed by huge pages where the kernel grants them on request: filling
 * it then costs a fault per 2 MiB, not per 4 KiB. Nothing depends on it. */
void heat2d_advise_huge_pages(void *start, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_MEMORY_H */
