#!/usr/bin/env bash
# A full disk loses no whole row: when trials.csv refuses a row (a full file
# system, a file size limit), the row is cut back off, the ledger ends at its
# last whole row, the summary says how many trials are kept, and the one
# line names the file and the reason as the system gave it. A later bench
# appends to the same ledger as if nothing had happened.
# usage: test_full_disk.sh BIN_DIR
set -e
# As root, in a private mount namespace, so that the tmpfs file systems
# mounted here vanish with the test even if it is killed.
if [ "$(id -u)" = 0 ] && [ -z "${HEAT2D_TEST_NS:-}" ] && command -v unshare >/dev/null &&
  unshare --mount --propagation private true 2>/dev/null; then
  HEAT2D_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'umount "$w"/fs* 2>/dev/null || true; rm -rf "$w"' EXIT
h=$bin/heat2d
many=(--methods cpu --sizes 8x8:1 --warmups 0 --repeats 400)

# check_ledger DIR REASON WHAT: the bench just stopped at a refused row.
check_ledger() {
  local d=$1 reason=$2 what=$3 rows
  rows=$(($(wc -l <"$d/trials.csv") - 1))
  expect_rc 1 "$what: the bench fails"
  expect_eq "$(tail -n 1 <<<"$err")" \
    "heat2d: bench: cannot write $d/trials.csv: $reason; it keeps the $rows trial(s) that finished, cut back to its last whole row" \
    "$what: the line names the file, the reason and the trials kept"
  expect_eq "$([ "$rows" -gt 0 ] && echo some)" some "$what: some trials were kept ($rows)"
  expect_eq "$(tail -c 1 "$d/trials.csv" | od -An -c | tr -d ' ')" '\n' "$what: no part of a row at the end"
  expect_eq "$(awk -F, '{print NF}' "$d/trials.csv" | sort -u)" "$(head -n 1 "$d/trials.csv" | awk -F, '{print NF}')" \
    "$what: every row whole"
  expect_eq "$(grep -c "^- Stopped: cannot write $d/trials.csv: $reason. trials.csv keeps the $rows trial(s)" <<<"$out")" 1 \
    "$what: the summary printed says how many trials are kept"
  expect_eq "$(grep -c 'Input/output error' <<<"$err" || true)" 0 "$what: no 'Input/output error'"
}

# ---- a file size limit (any user) ---------------------------------------------------------
for limit in 8 12; do
  d=$w/limit$limit
  run bash -c 'ulimit -f "$1"; shift; exec "$@"' - "$limit" env HEAT2D_PYTHON=false "$h" bench \
    "${many[@]}" --out "$d"
  check_ledger "$d" "File too large" "ulimit -f $limit"
  expect_eq "$(grep -c '^- Stopped: ' "$d/summary.md")" 1 "ulimit -f $limit: summary.md says so too"
  kept=$(cat "$d/trials.csv")
  run env HEAT2D_PYTHON=false "$h" bench --methods cpu --sizes 8x8:1 --warmups 0 --repeats 2 --out "$d"
  expect_rc 0 "ulimit -f $limit: a bench after it, without the limit"
  expect_eq "$(head -c ${#kept} "$d/trials.csv")" "$kept" "ulimit -f $limit: the kept rows stay as they were"
  expect_eq "$(ls "$d" | grep -c torn || true)" 0 "ulimit -f $limit: nothing torn to set aside"
done

# ---- a full file system (root: a 64 KiB tmpfs, partly filled) -------------------------------
if [ "$(id -u)" = 0 ] && mkdir "$w/fs0" && mount -t tmpfs -o size=64k tmpfs "$w/fs0" 2>/dev/null; then
  umount "$w/fs0"
  for free_kb in 12 16 24; do
    fs=$w/fs$free_kb
    mkdir "$fs"
    mount -t tmpfs -o size=64k tmpfs "$fs"
    head -c $(((64 - free_kb) * 1024)) /dev/zero >"$fs/filler" 2>/dev/null || true
    d=$fs/b
    run env HEAT2D_PYTHON=false "$h" bench "${many[@]}" --out "$d"
    check_ledger "$d" "No space left on device" "a tmpfs with $free_kb KiB free"
    rm "$fs/filler"
    kept=$(cat "$d/trials.csv")
    run env HEAT2D_PYTHON=false "$h" bench --methods cpu --sizes 8x8:1 --warmups 0 --repeats 2 --out "$d"
    expect_rc 0 "$free_kb KiB free: a bench after space was freed"
    expect_eq "$(head -c ${#kept} "$d/trials.csv")" "$kept" "$free_kb KiB free: the kept rows stay as they were"
    expect_eq "$(($(wc -l <"$d/trials.csv") - 1))" "$(($(wc -l <<<"$kept") + 1))" \
      "$free_kb KiB free: the next bench's two rows follow"
  done
  # No room even for the header: refused at once, nothing half written.
  fs=$w/fsnone
  mkdir "$fs"
  mount -t tmpfs -o size=64k tmpfs "$fs"
  mkdir "$fs/b"
  head -c $((64 * 1024)) /dev/zero >"$fs/filler" 2>/dev/null || true
  expect_failure 1 "heat2d: bench: cannot write $fs/b/trials.csv: No space left on device" \
    env HEAT2D_PYTHON=false "$h" bench "${many[@]}" --out "$fs/b"
  expect_eq "$(stat -c %s "$fs/b/trials.csv" 2>/dev/null || echo none)" 0 "no room for the header: no part of it"
else
  skip "the tmpfs cases" "mounting needs root with CAP_SYS_ADMIN"
fi

finish
