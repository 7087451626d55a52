#!/usr/bin/env python3
"""Where a kernel's warps wait, by SASS opcode, from Nsight Compute's source
page (ncu --import R --page source --print-source sass --csv, gzip or not).

    tools/tuning/ncu_stalls.py SOURCE.csv[.gz]

Prints, for each opcode, the instructions executed, the warp-state samples
taken at it (share of all) and its three largest stall reasons."""
import collections
import csv
import gzip
import sys


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return list(csv.reader(f))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ncu_stalls.py SOURCE.csv[.gz]")
    table = rows(sys.argv[1])
    header = next(r for r in table if "Source" in r and "Instructions Executed" in r)
    at = {name: k for k, name in enumerate(header)}
    body = table[table.index(header) + 1:]
    reasons = [h for h in header if h.startswith("stall_") and "(Not Issued)" not in h]
    samples = collections.Counter()
    executed = collections.Counter()
    why = collections.defaultdict(collections.Counter)
    for r in body:
        words = r[at["Source"]].split()
        if not words:
            continue
        op = (words[1] if words[0].startswith("@") else words[0]).split(".")[0]
        count = r[at["Warp Stall Sampling (All Samples)"]]
        samples[op] += int(count) if count.isdigit() else 0
        done = r[at["Instructions Executed"]]
        executed[op] += int(done) if done.isdigit() else 0
        for reason in reasons:
            v = r[at[reason]]
            why[op][reason[len("stall_"):]] += int(v) if v.isdigit() else 0
    total = sum(samples.values()) or 1
    print(f"{'opcode':<12}{'executed':>14}{'samples':>9}{'share':>8}  largest stall reasons")
    for op, n in samples.most_common():
        if n == 0:
            continue
        top = ", ".join(f"{k} {v}" for k, v in why[op].most_common(3) if v)
        print(f"{op:<12}{executed[op]:>14}{n:>9}{100 * n / total:>7.1f}%  {top}")
    print(f"{'all':<12}{sum(executed.values()):>14}{total:>9}")


if __name__ == "__main__":
    main()
