/* The transfer model of SPEC section 2: what must cross between host and
 * device for a method's style (with snapshots, one download each), the
 * numbers a measured run is held to. */
#include "heat2d_method.h"
#include "heat2d_schedule.h"

void heat2d_transfer_model(const heat2d_method *m, const heat2d_config *cfg, uint64_t *h2d_count,
                           uint64_t *h2d_bytes, uint64_t *d2h_count, uint64_t *d2h_bytes)
{
    uint64_t array_bytes =
        (uint64_t)cfg->nx * (uint64_t)cfg->ny * heat2d_precision_bytes(cfg->precision);
    uint64_t copies = 0;
    switch (m->style) {
    case HEAT2D_STYLE_HOST:
        copies = 0;
        break;
    case HEAT2D_STYLE_EACH:
        copies = cfg->steps;
        break;
    case HEAT2D_STYLE_RESIDENT:
        copies = 1;
        break;
    }
    uint64_t down = copies;
    /* A resident run's read-back is its last snapshot. */
    if (m->style == HEAT2D_STYLE_RESIDENT && cfg->output_every > 0)
        down = heat2d_snapshot_count(cfg->steps, cfg->output_every);
    *h2d_count = copies;
    *d2h_count = down;
    *h2d_bytes = copies * array_bytes;
    *d2h_bytes = down * array_bytes;
}
