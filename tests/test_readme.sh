#!/usr/bin/env bash
# The README names only what the programs have: every `heat2d CMD ...` it
# shows is a command whose --help lists each option shown with it, every
# other option it names is in some command's --help, and it says how to run
# one test alone (ctest -R).
# usage: test_readme.sh BIN_DIR SOURCE_DIR
set -e
bin=$1
readme=$2/README.md
. "$(dirname "$0")/lib.sh"
h=$bin/heat2d
all_help=$("$h" --help)
for c in run compare check bench info methods; do all_help+=$'\n'$("$h" "$c" --help); done

# Every code span that begins with "heat2d ".
while IFS= read -r span; do
  words=($span)
  cmd=${words[1]}
  [ "$cmd" = help ] && cmd=${words[2]}
  [ "$cmd" = CMD ] && continue # the placeholder in "heat2d help CMD"
  run "$h" "$cmd" --help
  expect_rc 0 "README's \`$span\`: heat2d $cmd is a command"
  help=$out
  for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$span" || true); do
    if grep -qF -- "$opt" <<<"$help"; then ok; else ko "README's \`$span\`: $opt is not in heat2d $cmd --help"; fi
  done
done < <(grep -oE '`heat2d [^`]*`' "$readme" | tr -d '`' | sort -u)

# Options named on their own, in a code span of their own.
for opt in $(grep -oE '`--[a-z][a-z0-9-]*[^`]*`' "$readme" | grep -oE -- '^`--[a-z][a-z0-9-]*' | tr -d '`' | sort -u); do
  if grep -qF -- "$opt" <<<"$all_help"; then ok; else ko "README names $opt, which no command's --help lists"; fi
done

# The methods table names the methods the registry can hold.
for m in $(grep -oE '^\| `[a-z0-9-]+` \|' "$readme" | grep -oE '[a-z0-9-]+'); do
  if grep -qE "\"$m\"" "$2"/src/backends/*/*.c; then ok; else ko "README's method $m is no method's name"; fi
done
expect_eq "$(grep -c 'ctest --test-dir build -R ' "$readme")" 1 "README says how to run one test (ctest -R)"
finish
