#!/usr/bin/env bash
# The README names only what the programs have: every `heat2d CMD ...` it
# shows is a command whose --help lists each option shown with it, every
# other option it names is in some command's --help, and it says how to run
# one test alone (ctest -R). Each part must have matched at least what the
# README is known to hold, so that a pattern that finds nothing fails.
# usage: test_readme.sh BIN_DIR SOURCE_DIR
set -e
bin=$1
readme=$2/README.md
. "$(dirname "$0")/lib.sh"
h=$bin/heat2d
all_help=$("$h" --help)
for c in run compare check bench info methods; do all_help+=$'\n'$("$h" "$c" --help); done

# Every code span that begins with "heat2d ".
commands_seen="" span_options=0
while IFS= read -r span; do
  words=($span)
  cmd=${words[1]}
  [ "$cmd" = help ] && cmd=${words[2]}
  [ "$cmd" = CMD ] && continue # the placeholder in "heat2d help CMD"
  run "$h" "$cmd" --help
  expect_rc 0 "README's \`$span\`: heat2d $cmd is a command"
  help=$out
  commands_seen+=" $cmd"
  for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$span" || true); do
    span_options=$((span_options + 1))
    if grep -qF -- "$opt" <<<"$help"; then ok; else ko "README's \`$span\`: $opt is not in heat2d $cmd --help"; fi
  done
done < <(grep -oE '`heat2d [^`]*`' "$readme" | tr -d '`' | sort -u)
for c in run compare check bench info plot methods; do
  if grep -qw -- "$c" <<<"$commands_seen"; then ok; else ko "README shows no \`heat2d $c ...\` span (it must show every command)"; fi
done
expect_eq "$([ "$span_options" -ge 6 ] && echo yes)" yes "the commands' spans name at least 6 options ($span_options)"

# Options named on their own, in a code span of their own.
own_options=0
for opt in $(grep -oE '`--[a-z][a-z0-9-]*[^`]*`' "$readme" | grep -oE -- '^`--[a-z][a-z0-9-]*' | tr -d '`' | sort -u); do
  own_options=$((own_options + 1))
  if grep -qF -- "$opt" <<<"$all_help"; then ok; else ko "README names $opt, which no command's --help lists"; fi
done
expect_eq "$([ "$own_options" -ge 5 ] && echo yes)" yes "at least 5 options named on their own ($own_options)"

# The methods table: a row for each declared method (methods.txt, from the
# backends' methods.cmake), in their order, test doubles left out.
rows=$(grep -oE '^\| `[a-z0-9-]+` \|' "$readme" | grep -oE '[a-z0-9-]+' || true)
declared=$(awk '!/^#/ && !/TEST_DOUBLES/ { print $1 }' "$bin/../methods.txt")
expect_eq "$(head -n 1 <<<"$declared")" cpu "methods.txt lists the declared methods, cpu first"
expect_eq "$rows" "$declared" "README's methods table rows are the declared methods, in order"
expect_eq "$(grep -c 'ctest --test-dir build -R ' "$readme")" 1 "README says how to run one test (ctest -R)"
# The variable that points the tests at the original's sources is the one
# tests/CMakeLists.txt reads.
seed_var=$(sed -n 's/^set(\(HEAT2D_SEED_DIR\) .*/\1/p' "$2/tests/CMakeLists.txt")
expect_eq "$(grep -c -- "-D$seed_var=DIR" "$readme")" 1 "README says how to point the tests at the original's sources ($seed_var)"

# The first screen's answer: its table is what tools/readme_numbers.py
# makes of the results folder it names, and a README or a trials.csv that
# disagree fail the check, naming the line.
if command -v python3 >/dev/null; then
  numbers=$2/tools/readme_numbers.py
  run python3 "$numbers" --check "$readme"
  expect_rc 0 "README's numbers are those of the results it names ($err)"
  folder=$(sed -n 's/^<!-- numbers: \(.*\) -->$/\1/p' "$readme")
  expect_eq "$(sed -n '/^<!-- numbers: /,/^<!-- end numbers -->$/p' "$readme" | grep -c '^| [^|]* | `')" 5 \
    "README's numbers: a table of five methods"
  expect_eq "$(head -n 40 "$readme" | grep -c '^<!-- end numbers -->$')" 1 \
    "the answer ends within the README's first 40 lines"
  t=$(mktemp -d)
  mkdir -p "$t/$folder"
  cp "$2/$folder/trials.csv" "$2/$folder/environment.txt" "$t/$folder/"
  cp "$readme" "$t/README.md"
  run python3 "$numbers" --check "$t/README.md"
  expect_rc 0 "the check of a copy"
  # cuda-resident's trials at the headline size ten times slower.
  awk -F, -v OFS=, 'NR > 1 && $1 == "cuda-resident" && $3 == 2048 && $5 == 500 { $6 = $6 * 10 } 1' \
    "$2/$folder/trials.csv" >"$t/$folder/trials.csv"
  run python3 "$numbers" --check "$t/README.md"
  expect_rc 1 "a trials.csv that disagrees with the README fails the check"
  expect_err_has "README.md:$(grep -n '^| on the GPU, the arrays kept there' "$readme" | cut -d: -f1) disagrees with $folder" \
    "the failure names the README's line"
  expect_err_has "| \`cuda-resident\` | 0.1675 | 10×" "the failure says what the results give"
  run python3 "$numbers" "$t/README.md"
  expect_rc 0 "the table rewritten"
  run python3 "$numbers" --check "$t/README.md"
  expect_rc 0 "a README rewritten from the results passes"
  rm -rf "$t"
else
  skip "README's numbers against the results" "no python3"
fi
finish
