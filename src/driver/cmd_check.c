/* heat2d check: the command. Its options, the environment checked before
 * anything starts, a scratch folder removed on every exit, then the cases
 * of src/check/ and the verdict. */
#define _GNU_SOURCE
#include "ancestry.h"
#include "check.h"
#include "commands.h"
#include "process_guard.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int heat2d_cmd_check(int argc, char **argv)
{
    static const struct option options[] = {
        {"gpu", no_argument, NULL, 'g'},
        {"keep", required_argument, NULL, 'k'},
        {"precision", required_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    check_state st = {0};
    const char *keep = NULL;
    heat2d_error err = {{0}};
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (opt == 'g')
            st.gpu = true;
        else if (opt == 'k')
            keep = optarg;
        else if (opt == 'h')
            return heat2d_usage("check", stdout) == 0 ? EXIT_SUCCESS : HEAT2D_EXIT_FAILURE;
        else if (opt == 'P') {
            if (heat2d_parse_precision(optarg, &st.precision, &err) != 0)
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "check: %s", err.message);
        } else
            return heat2d_report_bad_option("check", argc, argv, options, NULL);
    }
    if (optind < argc)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "check: unexpected argument '%s'",
                                   argv[optind]);

    /* Every method is run in this process, the distributed ones with one
     * rank (their P > 1 runs are tests/test_mpi.sh's): under mpirun each
     * rank would run the whole check, and only rank 0 would get fields.
     * As the one rank of mpirun -np 1 it would start MPI twice with that
     * rank's identity (its probe's child, then itself), which MPI refuses
     * with pages and an abort: refused alike, before anything is made. */
    if (heat2d_process_count() > 1 || heat2d_launched_as_rank())
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "check: runs as one process; start it without mpirun");

    /* The environment first, before any method or MPI starts. */
    const char *tmp_base = NULL;
    if (check_tmpdir(&tmp_base, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "check: %s", err.message);
    if (keep != NULL && access(keep, W_OK) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "check: cannot write to '%s': %s", keep,
                                   strerror(errno));

    check_target targets[24];
    size_t n =
        check_collect_targets(st.gpu, st.precision, targets, sizeof targets / sizeof targets[0]);
    /* --gpu fails only for a GPU method that should run on a GPU here and
     * does not, or computes wrongly. A build with none (no CUDA, OpenACC
     * built for the host) is checked on the host, and says so. */
    if (st.gpu && !check_any_needs_gpu(targets, n)) {
        char on_host[256];
        check_host_targets_text(targets, n, on_host, sizeof on_host);
        printf("NOTE: check --gpu: no method of this build runs on a GPU (%s); checking every "
               "method on the host\n",
               on_host);
        st.gpu = false;
        n = check_collect_targets(st.gpu, st.precision, targets,
                                  sizeof targets / sizeof targets[0]);
    }
    /* A build with MPI checks its MPI methods where MPI starts; where it
     * cannot, they are left out with a note beside the verdict (MPI is an
     * optional part, not the check's). */
    char mpi_note[1024];
    check_skip_mpi_if_down(targets, &n, mpi_note, sizeof mpi_note);
    /* --keep's folder: no field file the check writes there can hang it
     * (a FIFO) or be refused at the end (read-only). */
    st.dir = keep;
    if (keep != NULL && check_keep_ready(&st, targets, n, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "check: %s", err.message);

    /* Room left under PATH_MAX for a file name of 255 bytes. */
    char tmp_dir[3072];
    int scratch_slot = -1; /* removed by a fatal signal too */
    if (keep != NULL) {
        st.dir = keep;
    } else {
        const int made =
            heat2d_scratch_make(tmp_base, "heat2d-check", tmp_dir, sizeof tmp_dir, &scratch_slot);
        if (made != 0)
            return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                       "check: cannot create a temporary directory in '%s': %s",
                                       tmp_base, strerror(made));
        st.dir = tmp_dir;
    }

    check_run(&st, targets, n);

    heat2d_scratch_drop(tmp_dir, &scratch_slot); /* only the field files this check wrote */

    if (mpi_note[0] != '\0')
        printf("NOTE: check: %s\n", mpi_note);
    const char *verdict = st.gpu ? "GPU_CHECK" : "CPU_CHECK";
    if (st.failures > 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "%s=FAIL: %zu failure(s)", verdict,
                                   st.failures);
    printf("%s=PASS\n", verdict);
    return EXIT_SUCCESS;
}
