/* What every case of heat2d check reports with: a failure's line (counted
 * in the state), and the measured transfers of a run against the model. */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>

void check_fail(check_state *st, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fflush(stdout);
    fputs("heat2d: check: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    st->failures++;
}

void check_transfers(check_state *st, const check_target *t, const heat2d_config *cfg,
                     const heat2d_report *rep)
{
    uint64_t h2d_count, h2d_bytes, d2h_count, d2h_bytes;
    heat2d_transfer_model(t->method, cfg, &h2d_count, &h2d_bytes, &d2h_count, &d2h_bytes);
    bool on_host = heat2d_device_is_host(rep->device);
    if (on_host) {
        /* Nothing crosses when the kernels run on the host. */
        h2d_count = h2d_bytes = d2h_count = d2h_bytes = 0;
    }
    /* Counts from the model stand only where nothing can cross. */
    bool ok = rep->transfers_measured || t->method->style == HEAT2D_STYLE_HOST ||
              (rep->transfers_modelled && on_host);
    ok = ok && rep->h2d_count == h2d_count && rep->h2d_bytes == h2d_bytes &&
         rep->d2h_count == d2h_count && rep->d2h_bytes == d2h_bytes;
    printf("TRANSFERS method=%s steps=%zu H2D_COUNT=%llu H2D_BYTES=%llu D2H_COUNT=%llu "
           "D2H_BYTES=%llu MODEL=%llu/%llu/%llu/%llu OTHER=%llu/%llu/%llu/%llu %s\n",
           t->label, cfg->steps, (unsigned long long)rep->h2d_count,
           (unsigned long long)rep->h2d_bytes, (unsigned long long)rep->d2h_count,
           (unsigned long long)rep->d2h_bytes, (unsigned long long)h2d_count,
           (unsigned long long)h2d_bytes, (unsigned long long)d2h_count,
           (unsigned long long)d2h_bytes, (unsigned long long)rep->h2d_other_count,
           (unsigned long long)rep->h2d_other_bytes, (unsigned long long)rep->d2h_other_count,
           (unsigned long long)rep->d2h_other_bytes, ok ? "PASS" : "FAIL");
    if (!ok)
        check_fail(st, "%s: measured transfers differ from the model", t->label);
}
