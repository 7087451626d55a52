# shellcheck shell=bash disable=SC2154 # h: the sourcing script's heat2d
# What the GPU tuning sweeps share; sourced, with h set to the heat2d
# program they run.

# key KEY FILE: the value of KEY=VALUE in FILE (a run's output).
key() { sed -n "s/^$1= *//p" "$2" | head -n 1; }

# run_to FILE ENV... -- ARGS...: heat2d ARGS with the environment ENV, output
# in FILE; a failed run says so and leaves FILE empty, so that one failure
# shows as a gap in the table instead of ending the whole sweep.
run_to() {
  local file=$1
  shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" "$h" "$@" >"$file" 2>"$file.err" ||
    { echo "FAILED: ${envs[*]} $* ($(tail -n 1 "$file.err"))"; : >"$file"; }
}

# sweep_table LOG: LOG's lines "NAME PRECISION NXxNY:STEPS LOOP_S" as one row
# per name, precision and size: the median loop as ms/step and Gcell/s, its
# ratio to cuda-resident's Gcell/s at the same precision and size (whose
# lines come first), and the runs; a name whose runs all failed, so said.
sweep_table() {
  awk '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j] < a[j-1]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n == 0 ? 0 : n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  {
    k = $1 " " $2 " " $3
    if (!(k in seen)) { order[++n] = k; seen[k] = 1 }
    if (NF == 4) loop[k] = loop[k] " " $4
  }
  END {
    printf "%-28s %-4s %-15s %12s %9s %9s %5s\n", "method", "prec", "size", "loop ms/step", "Gcell/s", "vs cuda", "runs"
    for (i = 1; i <= n; i++) {
      split(order[i], f, " "); split(f[3], d, /[x:]/)
      runs = split(loop[order[i]], tmp, " ")
      m = median(loop[order[i]])
      if (m <= 0) { printf "%-28s %-4s %-15s %12s\n", f[1], f[2], f[3], "failed"; continue }
      g = d[1] * d[2] * d[3] / m / 1e9
      if (f[1] == "cuda-resident") cuda[f[2] " " f[3]] = g
      ratio = (f[2] " " f[3]) in cuda ? sprintf("%.3f", g / cuda[f[2] " " f[3]]) : "-"
      printf "%-28s %-4s %-15s %12.4f %9.1f %9s %5d\n", f[1], f[2], f[3], 1e3 * m / d[3], g, ratio, runs
    }
  }' "$1"
}
