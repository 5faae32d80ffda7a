#!/usr/bin/env bash
# The include graph's rules (docs/architecture.md, "Include graph"):
#   1. no module includes another module's detail/ (a family builds on the
#      others' public headers only);
#   2. core includes only core, backend and the generated config/version;
#   3. the backend layer (include/hepex/backend, backends/) includes only
#      backend and core;
#   4. no module includes CLI11 or nlohmann-json (the library builds
#      without them: -DHEPEX_BUILD_CLI=OFF).
# Modules: the folders of include/hepex and src (core, io, field, linalg,
# reconstruct, reduce, amplitudes, distributed, backend); the CLI, Python
# bindings, tests and perf are clients and are not checked. Prints every
# broken include as FILE:LINE: what; exit 1 when there is one, or when no
# include was examined (a check that examines nothing passes nothing).
#   bash tests/headers/check_include_graph.sh [SOURCE_DIR]
set -uo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root" || exit 1
broken=0
examined=0
# module_of FILE: the module a library file belongs to, or nothing.
module_of() {
  case $1 in
    include/hepex/*/*) local rest=${1#include/hepex/}; echo "${rest%%/*}" ;;
    src/cli/*) ;;
    src/*/*) local rest=${1#src/}; echo "${rest%%/*}" ;;
    backends/*) echo backend ;;
  esac
}
while IFS= read -r file; do
  module=$(module_of "$file")
  [[ -n $module ]] || continue
  while IFS=: read -r line text; do
    examined=$((examined + 1))
    if [[ $text =~ \#[[:space:]]*include[[:space:]]*[\<\"](CLI/|nlohmann/) ]]; then
      echo "$file:$line: $module includes ${BASH_REMATCH[1]%/}, which only the CLI may use"
      broken=$((broken + 1))
      continue
    fi
    target=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"hepex\/\([^"]*\)".*/\1/p' <<<"$text")
    [[ -n $target ]] || continue
    target_module=${target%%/*}
    [[ $target == */* ]] || target_module=""  # hepex/config.hpp, hepex/version.hpp, ...
    why=""
    if [[ $target == */detail/* && $target_module != "$module" ]]; then
      why="$module includes $target_module's detail ($target)"
    elif [[ $module == core && -n $target_module && $target_module != core && $target_module != backend ]]; then
      why="core includes the module $target_module ($target)"
    elif [[ $module == backend && -n $target_module && $target_module != core && $target_module != backend ]]; then
      why="the backend layer includes the module $target_module ($target)"
    fi
    if [[ -n $why ]]; then
      echo "$file:$line: $why"
      broken=$((broken + 1))
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include' "$file")
done < <(git ls-files include src backends 2>/dev/null || find include src backends -type f)
if [[ $examined -eq 0 ]]; then
  echo "check_include_graph.sh: no include examined under $root" >&2
  exit 1
fi
echo "check_include_graph.sh: $examined includes examined, $broken broken"
[[ $broken -eq 0 ]]
