#!/usr/bin/env bash
# The injection library in a process, as a program's trial loads it
# (LD_PRELOAD here: the CUDA driver's CUDA_INJECTION64_PATH loads it the
# same way, at cuInit, which needs a GPU): its marker at load, its record
# at exit, none from a process that ends in _exit or from a fork's child;
# and the names and sizes it refuses in one line on stderr, leaving what is
# there as it was (a FIFO, a device, a link, another's file). The record
# file's reader and its sums: tests/unit/test_transfer_record.c.
# usage: test_transfer_inject.sh LIBRARY
set -e
. "$(dirname "$0")/lib.sh"
lib=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
# A sanitized build's library needs its runtime loaded first.
preload=$lib
asan=$(ldd "$lib" | awk '/libasan/ {print $3}')
[ -z "$asan" ] || preload="$asan:$lib"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w"
cat >prog.c <<'EOF'
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "_exit") == 0)
        _exit(0);
    if (argc > 1 && strcmp(argv[1], "fork") == 0) {
        const pid_t child = fork();
        if (child == 0)
            return 0;
        waitpid(child, NULL, 0);
    }
    return 0;
}
EOF
cc -o prog prog.c
# traced FILE [VAR=VALUE...] -- ARGS: prog under the library
traced() {
  local file=$1 vars=()
  shift
  while [ "$1" != -- ]; do vars+=("$1"); shift; done
  shift
  run env HEAT2D_TRANSFER_FILE="$file" ${vars[@]+"${vars[@]}"} LD_PRELOAD="$preload" ./prog "$@"
}
marker() { grep -c '^HEAT2D_TRANSFER_LOADED=' "$1" || true; }

# ---- records: one marker and one end a process ----------------------------------------------
traced t1 -- ;
expect_eq "$rc/$err" "0/" "a process that never touches CUDA: runs, nothing said"
expect_eq "$(cat t1)" "HEAT2D_TRANSFER_LOADED=$(sed -n 's/.*=//p' t1 | head -1)
HEAT2D_TRANSFER_NO_CUDA=$(sed -n 's/.*=//p' t1 | head -1)" "its marker, then 'no CUDA'"
traced t1 -- _exit
expect_eq "$(marker t1)/$(grep -c '^HEAT2D_TRANSFER_NO_CUDA=' t1)" "2/1" \
  "a process ending in _exit: its marker, appended, and no record"
traced t2 -- fork
expect_eq "$(marker t2)/$(grep -c '^HEAT2D_TRANSFER_NO_CUDA=' t2)" "1/1" \
  "a fork's child writes nothing of its parent's"
traced t3 HEAT2D_TRANSFER_ARRAY_BYTES=800 -- ;
expect_eq "$rc/$err/$(marker t3)" "0//1" "a good array size: taken"

# ---- refusals: one line, nothing traced, what is there untouched ----------------------------
say() { echo "heat2d transfer trace: $*; nothing traced"; }
mkfifo fifo
traced fifo -- ;
expect_eq "$rc/$err" "0/$(say "HEAT2D_TRANSFER_FILE: 'fifo' is not a regular file (a FIFO)")" \
  "a FIFO: refused at once"
[ -p fifo ] && ok || ko "the FIFO is still a FIFO"
traced /dev/full -- ;
expect_eq "$err" "$(say "HEAT2D_TRANSFER_FILE: '/dev/full' is not a regular file (a character device)")" \
  "a device: refused"
[ -c /dev/full ] && ok || ko "/dev/full is still a device"
echo "the user's notes" >notes.txt
ln -s notes.txt link
traced link -- ;
expect_eq "$err" "$(say "HEAT2D_TRANSFER_FILE: 'link' is not a regular file (a symbolic link)")" \
  "a link: refused"
traced notes.txt -- ;
expect_eq "$err" \
  "$(say "HEAT2D_TRANSFER_FILE: 'notes.txt': it holds something other than heat2d's transfer records")" \
  "another's file: refused"
expect_eq "$(cat notes.txt)/$(readlink link)" "the user's notes/notes.txt" "the file and link as they were"
for bad in -128 abc 1e2; do
  rm -f t4
  traced t4 HEAT2D_TRANSFER_ARRAY_BYTES="$bad" -- ;
  expect_eq "$rc/$err" \
    "0/$(say "HEAT2D_TRANSFER_ARRAY_BYTES='$bad' is not a positive whole number of bytes")" \
    "HEAT2D_TRANSFER_ARRAY_BYTES=$bad: refused"
  expect_eq "$(marker t4)/$(grep -c '^HEAT2D_TRANSFER_UNTRACED=' t4)" "1/1" \
    "HEAT2D_TRANSFER_ARRAY_BYTES=$bad: recorded as untraced, never as no CUDA"
done
long=$(printf 'a%.0s' $(seq 4096))
traced "$long" -- ;
expect_eq "$err" "$(say "HEAT2D_TRANSFER_FILE: the name is 4096 bytes, longer than a path may be (PATH_MAX)")" \
  "a name of 4096 bytes: refused"
finish
