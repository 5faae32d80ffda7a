#!/usr/bin/env bash
# Formats every tracked C++ file as .clang-format says (clang-format 14,
# Debian 12's), or with --check lists the files that differ and exits 1
# (what .ci/run does). Run from anywhere in the repository.
#   bash tools/format.sh [--check]
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
format=$(command -v clang-format-14 || command -v clang-format || true)
if [[ -z $format ]]; then
  echo "tools/format.sh: clang-format not found (Debian: apt-get install clang-format)" >&2
  exit 2
fi
# Generated tables are left as their generator writes them (it checks them:
# python3 tools/madgraph/make_process_tables.py --check).
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' ':!:*/generated/*')
if [[ ${1:-} == --check ]]; then
  if ! "$format" --dry-run --Werror "${files[@]}" 2>/tmp/hepex-format.$$; then
    grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/hepex-format.$$ | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
    rm -f /tmp/hepex-format.$$
    echo "tools/format.sh: run 'bash tools/format.sh' to format them" >&2
    exit 1
  fi
  rm -f /tmp/hepex-format.$$
  echo "tools/format.sh: ${#files[@]} files formatted as .clang-format says"
else
  "$format" -i "${files[@]}"
fi
