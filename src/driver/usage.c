/* The usage texts of heat2d and each of its commands, one place for all of
 * them, printed by --help (stdout, exit 0) and after a bad command line. */
#include "commands.h"

#include <string.h>

static const struct {
    const char *command;
    const char *text;
} usages[] = {
    {"compare", "usage: heat2d compare REF CAND... [--atol A] [--rtol R]\n"
                "\n"
                "Compares each candidate field with the reference, cell by cell: each a\n"
                "field file, FILE.nc or a record FILE.nc:STEP of a series (NetCDF; another\n"
                "variable than u as FILE.nc:VAR or FILE.nc:VAR:STEP).\n"
                "|ref - cand| <= atol + rtol*|ref| (default atol 2e-12, rtol 2e-10).\n"
                "Prints MAX_ABS_DIFF, WORST_INDEX, FAILURES per file and COMPARE=PASS, or\n"
                "exits 1.\n"},
    {"check", "usage: heat2d check [--gpu] [--precision f64|f32] [--keep DIR]\n"
              "       heat2d check --program NAME=PATH... [--program-tolerance ATOL,RTOL]\n"
              "                    [--program-timeout S] [--keep DIR]\n"
              "\n"
              "Runs every method of this build against cpu, field for field (25x21 for 7,\n"
              "8, 31 and 32 steps; with --gpu also 1024x768 and 130x98), the measured\n"
              "transfers against the model, and the invariants (sine-mode decay, mass,\n"
              "symmetry). Prints CPU_CHECK=PASS (GPU_CHECK=PASS with --gpu) or exits 1.\n"
              "With --program, the programs given instead (the original's protocol: PATH NX\n"
              "NY STEPS FIELD_FILE): the original's four cases and odd and thin shapes, each\n"
              "field against cpu's, a PASS or FAIL line a case; PROGRAM_CHECK=PASS or exit 1.\n"
              "\n"
              "  --gpu           the methods that run on a GPU, on the GPU\n"
              "  --precision P   the methods in f64 (default) or f32\n"
              "  --keep DIR      keep the field files in DIR (else a scratch directory under\n"
              "                  $TMPDIR, or /tmp, removed at the end)\n"
              "  --program NAME=PATH  a program of yours to check (repeatable)\n"
              "  --program-tolerance ATOL,RTOL  per cell |cpu-it| <= ATOL + RTOL*|cpu|\n"
              "                  (default 2e-12,2e-10, the original's)\n"
              "  --program-timeout S  seconds one run of a program may take (default 60)\n"},
    {"info", "usage: heat2d info [--bandwidth]\n"
             "\n"
             "How this build was made and the machine it runs on, as KEY=VALUE lines.\n"
             "  --bandwidth     also measure the limits: host copy bandwidth and, with a\n"
             "                  GPU, device copy and host<->device bandwidths\n"},
    {"plot", "usage: heat2d plot FIELD|SERIES [--out NAME] [--scale linear|log] [--vmin V]\n"
             "                  [--vmax V] [--cmap NAME]\n"
             "\n"
             "Draws a field (a field file, FILE.nc, or a record FILE.nc:STEP; FILE.nc:VAR\n"
             "and FILE.nc:VAR:STEP for another variable than u) as a heat map, NAME.png; a\n"
             "series (a FILE.nc of snapshots, or a --save-every folder) as an animation of\n"
             "its records, NAME.gif (at most 200 frames, sampled evenly), and its last\n"
             "record, NAME.png. NAME: the input's name without its extension, in the\n"
             "working directory. A .nc input is read by heat2d's own reader, as run and\n"
             "compare read it. Needs a python with matplotlib. Prints the scale drawn on\n"
             "(SCALE=linear|log VMIN= VMAX= CMAP=), then PLOT=FILE per picture.\n"
             "\n"
             "  --out NAME      the pictures' name, without .png or .gif\n"
             "  --scale S       linear or log; by default log only for a field that spans\n"
             "                  many decades as a point source's does, else linear\n"
             "  --vmin, --vmax V  the colour scale's ends (default: from the values; a log\n"
             "                  scale from max*1e-16, a linear one from 0 or the minimum)\n"
             "  --cmap NAME     a matplotlib colormap (default inferno; coolwarm for a\n"
             "                  field of both signs)\n"
             "  --values SPEC   write a .nc input's values as heat2d reads them (\"field NX\n"
             "                  NY [dx=M] [dt=S]\" and NX*NY raw doubles, or \"series\" and\n"
             "                  its steps): the plotting script's reader\n"},
    {"methods", "usage: heat2d methods\n"
                "\n"
                "Lists the methods of this build: name, the original's METHOD name, style,\n"
                "and whether it runs here: \"here\", or \"not here:\" and why (no GPU, a\n"
                "setting to ask for the host). A GPU method is asked to open its device; an\n"
                "MPI method runs under mpirun -np P (docs/mpi.md).\n"},
};

/* run's: its own options by hand, the run options from their table. */
static void run_usage(FILE *stream)
{
    static const char lead[] =
        "usage: heat2d run --method M [--nx N] [--ny N] [--steps N] [--alpha A]\n"
        "                  [--dx M --dt S [--diffusivity D]] [--start-time T]\n"
        "                  [--initial FILE [--append|--change-physics]]\n"
        "                  [--save FILE] [--save-every DIR|FILE.nc] [--force]";
    heat2d_options_usage_lead(stream, lead, false, 18);
    fputs("\n\n"
          "Runs one method on one grid and prints KEY=VALUE lines (the original's, then\n"
          "heat2d's: device, transfers measured, phases, rates).\n"
          "\n"
          "  --method M      a method of this build (heat2d methods lists them)\n"
          "  --nx, --ny N    grid sides, >= 5 (default 256)\n"
          "  --steps N       time steps, >= 1 (default 80)\n"
          "  --alpha A       diffusion number D*dt/dx^2, 0 < A <= 0.25 (default 0.1)\n"
          "  --dx M          cell size in metres: x and y of the NetCDF files in metres\n"
          "  --dt S          time step in seconds: a series' time is step*dt (else 1 s a\n"
          "                  step)\n"
          "  --diffusivity D diffusivity in m^2/s, with --dx and --dt instead of --alpha:\n"
          "                  alpha = D*dt/dx^2, refused above 1/4\n"
          "  --initial FILE  start from this field instead of a unit of heat in the\n"
          "                  centre cell: a field file or FILE.nc (another run's --save),\n"
          "                  or FILE.nc:STEP (a record of a series, whose clock the run\n"
          "                  continues; FILE.nc:VAR[:STEP] another variable than u); its\n"
          "                  shape unless --nx/--ny are given; 0 on the boundary; its\n"
          "                  run's alpha, dx, dt, D, precision and clock where it has them\n"
          "  --append        with --initial FILE.nc:STEP and --save-every FILE.nc: add the\n"
          "                  run's records to that series, which must end at STEP\n"
          "  --start-time T  the clock's start, ISO 8601 (2024-05-01T06:00:00Z): a\n"
          "                  series' time units become \"seconds since\" it (default\n"
          "                  1970-01-01 00:00:00; a continued series keeps its own)\n"
          "  --change-physics  with --initial: run with the command line's alpha, dx, dt,\n"
          "                  D or precision where they differ from the file's run (else\n"
          "                  refused; what the command line leaves out is the file's)\n"
          "  --save FILE     write the final field in the original's format, or as\n"
          "                  NetCDF when FILE ends in .nc\n"
          "  --save-every DIR  with --output-every: write each snapshot as\n"
          "                  DIR/step_NNN.dat, or with FILE.nc append each to one\n"
          "                  NetCDF series, the initial state its first record\n"
          "                  (complete=\"true\" once the run ends well)\n"
          "  --force         replace what --save or --save-every FILE.nc find at their\n"
          "                  name even when it is not what heat2d writes there (a text\n"
          "                  file under a .nc name, another program's NetCDF file)\n",
          stream);
    heat2d_options_help(stream, false);
}

int heat2d_usage(const char *command, FILE *stream)
{
    if (strcmp(command, "run") == 0) {
        run_usage(stream);
        return 0;
    }
    for (size_t k = 0; k < sizeof usages / sizeof usages[0]; ++k)
        if (strcmp(usages[k].command, command) == 0) {
            fputs(usages[k].text, stream);
            return 0;
        }
    return -1;
}

void heat2d_usage_main(FILE *stream)
{
    static const char run[] = "  run      --method M [--nx N] [--ny N] [--steps N] [--alpha A]\n"
                              "           [--dx M --dt S [--diffusivity D]]\n"
                              "           [--initial FILE [--append|--change-physics]]\n"
                              "           [--save FILE] [--save-every DIR|FILE.nc] [--force]";
    static const char bench[] =
        "  bench    [--methods LIST] [--sizes NXxNY:STEPS,...] [--warmups K] [--repeats K]\n"
        "           [--out DIR] [--pinned-too] [--weak NXxNY:STEPS] [--budget S | --full]\n"
        "           [--program NAME=PATH]...";
    fputs("usage: heat2d COMMAND [options]\n"
          "       heat2d --version | --help | COMMAND --help\n"
          "\n",
          stream);
    heat2d_options_usage_lead(stream, run, false, 11);
    fputs("\n"
          "  compare  REF CAND... [--atol A] [--rtol R]\n"
          "  check    [--gpu] [--precision f64|f32] [--keep DIR] | --program NAME=PATH...\n"
          "  plot     FIELD|SERIES [--out NAME]  a field as a heat map, a series animated\n",
          stream);
    heat2d_options_usage_lead(stream, bench, true, 11);
    fputs("\n"
          "  methods  list the methods in this build, and which run here\n"
          "  info     [--bandwidth] how this build was made, the machine, its limits\n"
          "\n"
          "Every command prints KEY=VALUE lines; every failure exits non-zero with one\n"
          "line on stderr.\n",
          stream);
}
