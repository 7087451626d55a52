#!/usr/bin/env bash
# Fails, naming the files, when any C, CUDA or header file that git tracks is
# not as clang-format (with the repository's .clang-format) would write it.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cu' '*.c.in')
if ! command -v clang-format >/dev/null; then
  echo "check_format: clang-format is not installed (tools/setup.sh format installs it)" >&2
  exit 1
fi
if ! out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  grep -oE '^[^:]+\.(c|h|cu|c\.in):' <<<"$out" | sort -u | sed 's/:$//; s/^/check_format: not formatted: /' >&2
  echo "check_format: run clang-format -i on the files above" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted"
