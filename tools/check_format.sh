#!/usr/bin/env bash
# Fails, naming the files, when any C, CUDA or header file that git tracks is
# not as clang-format (with the repository's .clang-format) would write it,
# or includes a file by a relative path.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cu' '*.cuh' '*.c.in')
if ! command -v clang-format >/dev/null; then
  echo "check_format: clang-format is not installed (tools/setup.sh format installs it)" >&2
  exit 1
fi
if ! out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  grep -oE '^[^:]+\.(c|h|cu|cuh|c\.in):' <<<"$out" | sort -u | sed 's/:$//; s/^/check_format: not formatted: /' >&2
  echo "check_format: run clang-format -i on the files above" >&2
  exit 1
fi
# A relative include steps around the layer check (a layer's include path
# reaches only the layers below it): refused.
if relative=$(git grep -n '#include "\.\./' -- src tests); then
  while IFS= read -r line; do echo "check_format: relative include: $line" >&2; done <<<"$relative"
  echo "check_format: include by name; the layer's include path says what it may see" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted"
