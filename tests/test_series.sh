#!/usr/bin/env bash
# Own only what you made: a --save-every folder is made when missing and
# taken only for step files of the run its manifest (heat2d_series.txt)
# records; --save may not name one of the files written there; every file
# the run would replace there is checked before the run, as --save is
# (read-only refused, as root too). Each refusal leaves the folder as it was.
# usage: test_series.sh BIN_DIR
set -e
bin=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'chmod -R u+w "$w" 2>/dev/null; rm -rf "$w"' EXIT
h=$bin/heat2d
cd "$w"
series=(run --method cpu --nx 20 --ny 20 --steps 10 --output-every 5)
r() { echo "heat2d: run: $*"; }
# state DIR: every file's name, mode and checksum
state() {
  (cd "$1" && for f in *; do
    if [ -p "$f" ]; then echo "$f fifo"; else echo "$f $(stat -c %a "$f") $(md5sum <"$f")"; fi
  done)
}

# ---- the folder is made, the manifest written -----------------------------------------------
run "$h" "${series[@]}" --save-every new/deeper
expect_rc 0 "--save-every into a folder that is not there"
expect_eq "$(ls new/deeper | paste -sd' ')" "heat2d_series.txt step_05.dat step_10.dat" "the folder made, its files"
expect_eq "$(cat new/deeper/heat2d_series.txt)" "heat2d series 1
nx 20
ny 20
alpha 0.10000000000000001
method cpu
precision f64" "the manifest records grid, alpha, method, precision"
run "$h" "${series[@]}" --steps 15 --save-every new/deeper
expect_rc 0 "the same settings again (more steps): the folder is this series'"
expect_eq "$(ls new/deeper | paste -sd' ')" "heat2d_series.txt step_05.dat step_10.dat step_15.dat" \
  "the same series: its files replaced and added"

# ---- another run's folder is refused, and left as it was ------------------------------------
d=new/deeper
before=$(state "$d")
refuse() { # WHAT MESSAGE ARGS...: refused with exit 1 before the run, the folder untouched
  local what=$1 message=$2
  shift 2
  run timeout 10 "$h" "$@" # (a FIFO left open would hang it)
  expect_rc 1 "$what"
  expect_eq "$err" "$message" "$what: the one line"
  expect_eq "$out" "" "$what: refused before the run"
  expect_eq "$(state "$d")" "$before" "$what: the folder as it was"
}
refuse "another alpha" \
  "$(r "--save-every $d holds the step files of another run (alpha 0.1 there, 0.2 here); choose another folder or empty it")" \
  "${series[@]}" --alpha 0.2 --save-every "$d"
refuse "another grid" \
  "$(r "--save-every $d holds the step files of another run (grid 20x20 there, 21x20 here); choose another folder or empty it")" \
  "${series[@]}" --nx 21 --save-every "$d"
refuse "another precision" \
  "$(r "--save-every $d holds the step files of another run (precision f64 there, f32 here); choose another folder or empty it")" \
  "${series[@]}" --precision f32 --save-every "$d"
refuse "an alpha that differs past %g's digits" \
  "$(r "--save-every $d holds the step files of another run (alpha 0.10000000000000001 there, 0.10000000000000002 here); choose another folder or empty it")" \
  "${series[@]}" --alpha 0.10000000000000002 --save-every "$d"
mkdir other
cp "$d"/step_05.dat other/
sed 's/^method cpu$/method omp/' "$d/heat2d_series.txt" >other/heat2d_series.txt
d=other before=$(state other)
refuse "another method" \
  "$(r "--save-every other holds the step files of another run (method omp there, cpu here); choose another folder or empty it")" \
  "${series[@]}" --save-every other
rm other/heat2d_series.txt
before=$(state other)
refuse "step files and no manifest" \
  "$(r "--save-every other holds step files (step_05.dat) that no heat2d_series.txt describes, another run's; choose another folder or empty it")" \
  "${series[@]}" --save-every other
for bad in 'heat2d series 2' $'heat2d series 1\nnx 20\nny 20\nalpha 0.1\nmethod cpu' $'heat2d series 1\nnx 20\nnx 20'; do
  printf '%s\n' "$bad" >other/heat2d_series.txt
  before=$(state other)
  run "$h" "${series[@]}" --save-every other
  expect_rc 1 "a manifest that is not heat2d's: $(head -n 1 <<<"$bad")"
  expect_eq "$(grep -c "^heat2d: run: --save-every other: its manifest is not heat2d's: other/heat2d_series.txt" <<<"$err")" 1 \
    "a manifest that is not heat2d's: the line names it"
  expect_eq "$(state other)" "$before" "a manifest that is not heat2d's: the folder as it was"
done
expect_eq "$err" "$(r "--save-every other: its manifest is not heat2d's: other/heat2d_series.txt:3: nx given twice")" \
  "a manifest with a key twice: the line says which"
rm other/heat2d_series.txt
mkfifo other/heat2d_series.txt
d=other before=$(state other)
refuse "a FIFO for a manifest" "$(r "--save-every: other/heat2d_series.txt is not a regular file (a FIFO)")" \
  "${series[@]}" --save-every other

# ---- every file written there is checked before the run, as --save's ------------------------
d=new/deeper
chmod 444 "$d/step_10.dat"
before=$(state "$d")
refuse "a read-only step file the run would replace" \
  "$(r "--save-every: cannot write field file '$d/step_10.dat': it is read-only (mode 444)")" \
  "${series[@]}" --save-every "$d"
chmod 644 "$d/step_10.dat"
chmod 444 "$d/heat2d_series.txt"
before=$(state "$d")
refuse "a read-only manifest" \
  "$(r "cannot write series manifest '$d/heat2d_series.txt': it is read-only (mode 444)")" \
  "${series[@]}" --save-every "$d"
chmod 644 "$d/heat2d_series.txt"
chmod 444 "$d/step_15.dat"
run "$h" "${series[@]}" --save-every "$d"
expect_rc 0 "a read-only step file the run does not write (step 15 of 10): no matter"
chmod 644 "$d/step_15.dat"
rm "$d/step_05.dat"
mkfifo "$d/step_05.dat"
before=$(state "$d")
refuse "a FIFO where a step file goes" "$(r "--save-every: $d/step_05.dat is not a regular file (a FIFO)")" \
  "${series[@]}" --save-every "$d"
rm "$d/step_05.dat"

# ---- --save and --save-every never name the same file -----------------------------------------
run "$h" "${series[@]}" --save-every "$d"
before=$(state "$d")
ln -s "$d" link
for save in "$d/step_05.dat" "new/../$d/step_10.dat" "link/step_10.dat" "$d/heat2d_series.txt"; do
  run "$h" "${series[@]}" --save "$save" --save-every "$d"
  expect_rc 2 "--save $save into the --save-every folder"
  case $save in
    */heat2d_series.txt) want="$(r "--save $save is the manifest that --save-every $d writes; choose another name")" ;;
    *) want="$(r "--save $save is the file that --save-every $d writes after step $((10#$(sed 's/.*step_0*\([0-9]*\)\.dat/\1/' <<<"$save"))); choose another name")" ;;
  esac
  expect_eq "$err" "$want" "--save $save: the one line"
  expect_eq "$(state "$d")" "$before" "--save $save: nothing written"
done
run "$h" "${series[@]}" --save "$d/step_07.dat" --save-every "$d"
expect_rc 0 "--save of a step the series does not write (7): allowed"
expect_eq "$(head -n 1 "$d/step_07.dat")" "20 20" "--save of step 7: the final field is there"

finish
