/* A tally of copies as a report's transfer counters: the array copies are
 * the transfer model's quantity, the rest a runtime's own. */
#include "copy_tally.h"
#include "heat2d_report.h"

void heat2d_copy_tally_to_report(const heat2d_copy_tally *t, heat2d_report *rep)
{
    rep->transfers_measured = true;
    rep->h2d_count = t->up.array_copies;
    rep->h2d_bytes = t->up.array_bytes;
    rep->d2h_count = t->down.array_copies;
    rep->d2h_bytes = t->down.array_bytes;
    rep->h2d_other_count = t->up.copies - t->up.array_copies;
    rep->h2d_other_bytes = t->up.bytes - t->up.array_bytes;
    rep->d2h_other_count = t->down.copies - t->down.array_copies;
    rep->d2h_other_bytes = t->down.bytes - t->down.array_bytes;
    rep->h2d_s = 1e-9 * (double)t->up.ns;
    rep->d2h_s = 1e-9 * (double)t->down.ns;
}
