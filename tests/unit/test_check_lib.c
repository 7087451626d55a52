/* Unit tests of heat2d check's library (src/check): which targets a check
 * takes from this build, where a GPU method may run, the text that says
 * which run on the host, transfers against the model, a target's
 * configuration, and the scratch folder's base. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "check.h"
#include "unit_check.h"

#include <stdlib.h>
#include <string.h>

static bool yes(void)
{
    return true;
}

/* A resident GPU method that this build puts on the host, one that needs a
 * GPU, and a host method: fakes, never run. */
static const heat2d_method on_host = {
    .name = "fake-acc", .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true, .on_host_here = yes};
static const heat2d_method needs_gpu = {
    .name = "fake-cuda", .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true};
static const heat2d_method host = {.name = "fake-cpu", .style = HEAT2D_STYLE_HOST};

static void test_collect(void)
{
    check_target t[24];
    size_t n = check_collect_targets(false, HEAT2D_F64, t, 24);
    size_t want = 0;
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        want += !heat2d_method_needs_gpu(m) && strcmp(m->name, "cpu") != 0;
    }
    check(n == want, "CPU check: %zu targets, want every method that runs here but cpu (%zu)", n,
          want);
    for (size_t k = 0; k < n; ++k) {
        check(!heat2d_method_needs_gpu(t[k].method) && !t[k].pinned,
              "CPU check: %s runs without a GPU, not pinned", t[k].label);
        check(strcmp(t[k].label, t[k].method->name) == 0, "CPU check: %s labelled by its name",
              t[k].label);
    }
    n = check_collect_targets(true, HEAT2D_F64, t, 24);
    for (size_t k = 0; k < n; ++k) {
        check(t[k].method->style != HEAT2D_STYLE_HOST, "GPU check: %s is a GPU method", t[k].label);
        if (t[k].pinned) {
            char want_label[64];
            snprintf(want_label, sizeof want_label, "%s-pinned", t[k].method->name);
            check(t[k].method->has_pinned_variant && strcmp(t[k].label, want_label) == 0,
                  "GPU check: %s is a pinned twin", t[k].label);
        }
    }
    n = check_collect_targets(false, HEAT2D_F32, t, 24);
    bool cpu_f32 = false;
    for (size_t k = 0; k < n; ++k) {
        size_t len = strlen(t[k].label);
        check(len > 4 && strcmp(t[k].label + len - 4, "-f32") == 0 && t[k].precision == HEAT2D_F32,
              "f32 check: %s is labelled and run in f32", t[k].label);
        cpu_f32 = cpu_f32 || strcmp(t[k].label, "cpu-f32") == 0;
    }
    check(cpu_f32, "f32 check: cpu in f32 is a target");
}

static void test_placement(void)
{
    check_target t[3] = {{.method = &on_host}, {.method = &host}, {.method = &needs_gpu}};
    check(!check_any_needs_gpu(t, 0), "no targets need no GPU");
    check(!check_any_needs_gpu(t, 2), "a GPU method put on the host needs no GPU");
    check(check_any_needs_gpu(t, 3), "a GPU method not put on the host needs one");
    char text[256];
    check_host_targets_text(t, 2, text, sizeof text);
    check(strcmp(text, "fake-acc, fake-cpu run on the host in this build") == 0, "text: '%s'",
          text);
    check_target twin = {.method = &on_host, .pinned = true};
    check_host_targets_text(&twin, 1, text, sizeof text);
    check(strcmp(text, "it has none: heat2d info's LEFT_OUT lines say why") == 0,
          "a pinned twin alone is not named: '%s'", text);
}

static void test_transfers(void)
{
    check_state st = {0};
    check_target t = {.method = &needs_gpu, .label = "fake-cuda"};
    heat2d_config cfg = {.nx = 10, .ny = 6, .steps = 7};
    heat2d_report rep;
    heat2d_report_init(&rep);
    snprintf(rep.device, sizeof rep.device, "GPU");
    rep.transfers_measured = true;
    rep.h2d_count = rep.d2h_count = 1;
    rep.h2d_bytes = rep.d2h_bytes = 10 * 6 * 8;
    check_transfers(&st, &t, &cfg, &rep);
    check(st.failures == 0, "a resident run's one upload and one download match the model");
    rep.d2h_count = 2;
    check_transfers(&st, &t, &cfg, &rep);
    check(st.failures == 1, "a second download is a failure (%zu)", st.failures);
    heat2d_report_init(&rep);
    snprintf(rep.device, sizeof rep.device, "host (OpenACC built for the host)");
    rep.transfers_measured = true;
    check_transfers(&st, &t, &cfg, &rep);
    check(st.failures == 1, "on the host nothing crosses, and the model says so");
}

static void test_config(void)
{
    check_target t = {.method = &host, .pinned = true, .precision = HEAT2D_F32};
    heat2d_config cfg = check_target_config(&t, 25, 21, 7);
    check(cfg.nx == 25 && cfg.ny == 21 && cfg.steps == 7 && cfg.alpha == HEAT2D_ALPHA &&
              cfg.pinned && cfg.precision == HEAT2D_F32,
          "a target's configuration: the original's alpha, its pinning and precision");
}

static void test_tmpdir(void)
{
    const char *dir = NULL;
    heat2d_error err = {{0}};
    unsetenv("TMPDIR");
    check(check_tmpdir(&dir, &err) == 0 && strcmp(dir, "/tmp") == 0, "no TMPDIR: /tmp");
    setenv("TMPDIR", "/nonexistent-heat2d", 1);
    check(check_tmpdir(&dir, &err) != 0 &&
              strcmp(err.message, "TMPDIR '/nonexistent-heat2d' is not a usable directory: No "
                                  "such file or directory") == 0,
          "a TMPDIR that does not exist is refused: '%s'", err.message);
    unsetenv("TMPDIR");
}

int main(void)
{
    test_collect();
    test_placement();
    test_transfers();
    test_config();
    test_tmpdir();
    return unit_finish("test_check_lib");
}
