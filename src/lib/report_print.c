/* A run's KEY=VALUE output: the seed protocol, then heat2d's own keys. */
#include "heat2d.h"

static void print_real(FILE *stream, const char *key, double value)
{
    fprintf(stream, "%s=%24.16E\n", key, value);
}

void heat2d_print_outcome(FILE *stream, const heat2d_method *m, const heat2d_config *cfg,
                          const heat2d_outcome *out)
{
    const heat2d_report *rep = &out->report;
    /* The seed protocol, in the seed's order. */
    fprintf(stream, "METHOD=%s\n", m->seed_name);
    fprintf(stream, "NX=%zu\n", cfg->nx);
    fprintf(stream, "NY=%zu\n", cfg->ny);
    print_real(stream, "MASS", out->summary.mass);
    print_real(stream, "CENTRE", out->summary.centre);
    print_real(stream, "MIN", out->summary.min);
    print_real(stream, "MAX", out->summary.max);
    print_real(stream, "TOTAL_S", out->total_s);
    fprintf(stream, "CHECK=PASS\n");
    for (size_t k = 0; k < rep->n_phases; ++k)
        print_real(stream, rep->phases[k].key, rep->phases[k].seconds);

    /* heat2d's own keys; the seed's parser ignores keys it does not know. */
    fprintf(stream, "STEPS=%zu\n", cfg->steps);
    print_real(stream, "ALPHA", cfg->alpha);
    fprintf(stream, "PRECISION=%s\n", heat2d_precision_name(cfg->precision));
    fprintf(stream, "DEVICE=%s\n", rep->device);
    if (rep->ranks > 0) {
        fprintf(stream, "RANKS=%d\n", rep->ranks);
        fprintf(stream, "DECOMP=%dx%d\n", rep->dims[0], rep->dims[1]);
        fprintf(stream, "HALO_BYTES_PER_STEP=%llu\n", (unsigned long long)rep->halo_bytes_per_step);
    }
    if (rep->context_s >= 0.0)
        print_real(stream, "CONTEXT_S", rep->context_s);
    if (rep->device_loop_s >= 0.0)
        print_real(stream, "DEVICE_LOOP_S", rep->device_loop_s);
    fprintf(stream, "TRANSFERS=%s\n", rep->transfers_measured ? "measured" : "none");
    fprintf(stream, "H2D_COUNT=%llu\n", (unsigned long long)rep->h2d_count);
    fprintf(stream, "H2D_BYTES=%llu\n", (unsigned long long)rep->h2d_bytes);
    fprintf(stream, "D2H_COUNT=%llu\n", (unsigned long long)rep->d2h_count);
    fprintf(stream, "D2H_BYTES=%llu\n", (unsigned long long)rep->d2h_bytes);
    if (rep->h2d_other_count + rep->d2h_other_count > 0) {
        fprintf(stream, "H2D_OTHER_COUNT=%llu\n", (unsigned long long)rep->h2d_other_count);
        fprintf(stream, "H2D_OTHER_BYTES=%llu\n", (unsigned long long)rep->h2d_other_bytes);
        fprintf(stream, "D2H_OTHER_COUNT=%llu\n", (unsigned long long)rep->d2h_other_count);
        fprintf(stream, "D2H_OTHER_BYTES=%llu\n", (unsigned long long)rep->d2h_other_bytes);
    }
    if (rep->acc_events) {
        fprintf(stream, "ACC_EVENTS_H2D_COUNT=%llu\n", (unsigned long long)rep->acc_upload_events);
        fprintf(stream, "ACC_EVENTS_H2D_BYTES=%llu\n", (unsigned long long)rep->acc_upload_bytes);
        fprintf(stream, "ACC_EVENTS_D2H_COUNT=%llu\n",
                (unsigned long long)rep->acc_download_events);
        fprintf(stream, "ACC_EVENTS_D2H_BYTES=%llu\n", (unsigned long long)rep->acc_download_bytes);
    }
    if (rep->h2d_s >= 0.0)
        print_real(stream, "H2D_S", rep->h2d_s);
    if (rep->d2h_s >= 0.0)
        print_real(stream, "D2H_S", rep->d2h_s);
    double cell_steps = (double)cfg->nx * (double)cfg->ny * (double)cfg->steps;
    if (out->total_s > 0.0)
        print_real(stream, "GCELLS_PER_S", cell_steps / out->total_s / 1e9);
}
