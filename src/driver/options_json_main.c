/* run_options.json, which the build writes from the table of run options
 * (run_options.h) so that tools/plot_bench.py builds a row's label, and the
 * label without some options, from trials.csv's columns: the label grammar
 * is then written in one place. One object an option that has a column of
 * its own, in the label's order. usage: heat2d_options_json > FILE */
#include "run_options.h"

#include <stdlib.h>

int main(void)
{
    printf("[\n");
    bool first = true;
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        /* NAME-pinned is the method column's own; an option in no column
         * is in no label either. */
        if (o->column == HEAT2D_FIELD_METHOD || o->column >= HEAT2D_N_FIELDS || o->label == NULL)
            continue;
        /* The texts of the values that add nothing to the label. */
        printf("%s  {\"name\": \"%s\", \"column\": \"%s\", \"label\": \"%s\", \"plain\": [",
               first ? "" : ",\n", o->name, heat2d_trial_fields[o->column].column, o->label);
        for (size_t v = 0; v <= o->plain; ++v) {
            char text[32] = "";
            if (o->text != NULL)
                o->text(o, v, text, sizeof text);
            printf("%s\"%s\"", v ? ", " : "", text);
        }
        printf("], \"with\": ");
        if (o->with != HEAT2D_OPTION_NONE)
            printf("\"%s\"}", heat2d_trial_fields[heat2d_run_options[o->with].column].column);
        else
            printf("null}");
        first = false;
    }
    printf("\n]\n");
    return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_SUCCESS : EXIT_FAILURE;
}
