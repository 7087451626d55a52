#!/usr/bin/env python3
"""The README's answer in numbers, from the committed bench folder it names.

usage: readme_numbers.py [--check] README.md

The README holds one block between "<!-- numbers: DIR -->" and
"<!-- end numbers -->" (DIR relative to the README). This script writes
that block from DIR/trials.csv and DIR/environment.txt (the card, the
revision): at the headline size, the serial reference, the fastest host
method, the GPU port that copies both arrays every step (cuda-each), the
one that keeps them on the device (cuda-resident) and the fastest GPU
method, each with its median TOTAL_S, its speed-up over cpu and the share
of its time spent moving the arrays between host and device. With
--check it writes nothing and exits 1, naming the first line that
differs, when the README's block is not what the results give.
"""
import csv
import os
import re
import statistics
import sys

HEADLINE = ("2048", "2048", "500")
BEGIN = re.compile(r"^<!-- numbers: (\S+) -->$")
END = "<!-- end numbers -->"


def fail(message):
    print("readme_numbers: " + message, file=sys.stderr)
    sys.exit(1)


def seconds(row, column):
    text = row.get(column) or ""
    return float(text) if text else 0.0


def copies_s(row):
    """A trial's time moving the arrays: a per-step method's copies up and
    down as the device timed them; a resident one's entry (allocation and
    the upload) and its read-back. The bench's phases, summary.md's
    "upload" and "read-back"."""
    if row.get("step_regions_s"):
        return seconds(row, "h2d_s") + seconds(row, "d2h_s")
    return seconds(row, "enter_s") + seconds(row, "readback_s")


def read_methods(folder):
    path = os.path.join(folder, "trials.csv")
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    methods = {}
    for r in rows:
        if (r["nx"], r["ny"], r["steps"]) != HEADLINE or r.get("precision", "f64") != "f64":
            continue
        m = methods.setdefault(r.get("label") or r["method"], {"device": r["device"], "rows": []})
        m["rows"].append(r)
    if not methods:
        fail("%s has no trial at %sx%s, %s steps" % (path, *HEADLINE))
    for name, m in methods.items():
        m["median"] = statistics.median(float(r["total_s"]) for r in m["rows"])
        total = sum(float(r["total_s"]) for r in m["rows"])
        m["copies"] = sum(copies_s(r) for r in m["rows"]) / total if total > 0 else 0.0
        m["name"] = name
    return methods


def read_environment(folder):
    env = {}
    path = os.path.join(folder, "environment.txt")
    try:
        with open(path) as f:
            for line in f:
                key, _, value = line.rstrip("\n").partition("=")
                env.setdefault(key, value)
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    return env


def fastest(methods, on_host, exclude=()):
    names = [n for n, m in methods.items() if (m["device"].startswith("host")) == on_host and n not in exclude]
    if not names:
        fail("no %s method at the headline size" % ("host" if on_host else "GPU"))
    return methods[min(names, key=lambda n: methods[n]["median"])]


def named(methods, name):
    if name not in methods:
        fail("no %s trial at the headline size" % name)
    return methods[name]


def number(x):
    return "%.4g" % x


def times(x):
    return ("%.0f" if x >= 10 else "%.1f" if x >= 1 else "%.2g") % x + "×"


def block(folder_text, folder):
    methods = read_methods(folder)
    env = read_environment(folder)
    cpu = named(methods, "cpu")
    host = fastest(methods, True, exclude=("cpu",))
    each = named(methods, "cuda-each")
    resident = named(methods, "cuda-resident")
    best = fastest(methods, False)
    rows = [
        ("the serial reference", cpu),
        ("the fastest host method", host),
        ("on the GPU, both arrays copied every step", each),
        ("on the GPU, the arrays kept there", resident),
        ("the fastest GPU method", best),
    ]
    out = [
        "On one %s (`make bench` at %s, [%s](%s/summary.md)), %s×%s cells, %s steps, float64:"
        % (env.get("GPU_DEVICE", "unknown GPU"), env.get("GIT_REVISION", "unknown"), folder_text,
           folder_text, *HEADLINE),
        "",
        "| | method | median run [s] | speed-up over `cpu` | time moving the arrays |",
        "|---|---|--:|--:|--:|",
    ]
    for what, m in rows:
        device = m["device"]
        where = " (%s)" % device[device.find("(") + 1:-1] if device.startswith("host (") else ""
        out.append("| %s | `%s`%s | %s | %s | %.0f%% |"
                   % (what, m["name"], where, number(m["median"]), times(cpu["median"] / m["median"]),
                      100 * m["copies"]))
    out += [
        "",
        "Kept on the GPU, the arrays buy %s over the serial reference and %s over all the host's "
        "cores; copied every step, %.0f%% of the run is the copies, and the GPU is %s slower "
        "than keeping them there."
        % (times(cpu["median"] / resident["median"]), times(host["median"] / resident["median"]),
           100 * each["copies"], times(each["median"] / resident["median"])),
    ]
    return out


def main(argv):
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) != 1:
        fail("usage: readme_numbers.py [--check] README.md")
    readme = args[0]
    with open(readme) as f:
        lines = f.read().split("\n")
    starts = [k for k, line in enumerate(lines) if BEGIN.match(line)]
    if len(starts) != 1 or END not in lines[starts[0]:]:
        fail("%s must hold one '<!-- numbers: DIR -->' ... '%s' block" % (readme, END))
    start = starts[0]
    end = lines.index(END, start)
    folder_text = BEGIN.match(lines[start]).group(1)
    folder = os.path.join(os.path.dirname(os.path.abspath(readme)), folder_text)
    want = block(folder_text, folder)
    have = lines[start + 1:end]
    if not check:
        with open(readme, "w") as f:
            f.write("\n".join(lines[:start + 1] + want + lines[end:]))
        return 0
    for k in range(max(len(want), len(have))):
        w = want[k] if k < len(want) else "(nothing)"
        h = have[k] if k < len(have) else "(nothing)"
        if w != h:
            fail("%s:%d disagrees with %s: it says '%s', the results give '%s' "
                 "(fix: tools/readme_numbers.py %s)" % (readme, start + 2 + k, folder_text, h, w, readme))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
