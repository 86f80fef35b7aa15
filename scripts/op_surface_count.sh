#!/usr/bin/env bash
# The op table's measure (DESIGN.md, "The op table"): for each public op of
# include/tensorbuf/op_table.hpp, the tracked files outside the op's own files that name it,
# and the line totals of the hand-bound surfaces (src/c_api, python/src, fortran, apps).
# An op's own files are those whose path names it; a file names an op when it spells the op's
# name (alone, or with a tb_/run_/... prefix or an _in_place/_ex suffix) as an identifier.
# Usage: scripts/op_surface_count.sh [--files OP | --sources OP]   (list the files naming OP;
# --sources: without tests and prose, the issue's measure)
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"

ops() {
  # Each kOpFamilies row's public name; the scatter family counts as "tensor_scatter_nd".
  sed -n '/kOpFamilies = /,/^});/p' include/tensorbuf/op_table.hpp |
    grep -o 'OpFamily::k[A-Za-z]*, "[a-z_]*"' | sed 's/.*"\(.*\)"/\1/'
}

# A name as an identifier: not preceded by a letter or digit, not followed by more of an
# identifier except the in-place / _ex forms (scatter: any combine suffix), nor by "<"
# (static_cast<T> and py::object::cast<T> are not the op).
pattern() {
  if [[ $1 == tensor_scatter_nd ]]; then
    echo '(?<![A-Za-z0-9])tensor_scatter_nd(_[a-z]+)?(_in_place)?(_ex)?(?![A-Za-z0-9_<])'
  else
    echo "(?<![A-Za-z0-9])$1(_in_place)?(_ex)?(?![A-Za-z0-9_<])"
  fi
}

# An op's own files: their path names it (scatter: "scatter_nd"), not as the start of a longer
# op's name (boolean_mask_update's files are not boolean_mask's).
own_path() {
  local longer
  longer=$(ops | awk -v op="$1" 'index($0, op "_") == 1 { printf "|%s", substr($0, length(op) + 1) }')
  if [[ $1 == tensor_scatter_nd ]]; then
    echo '(?<![A-Za-z0-9])(tensor_)?scatter_nd'
  else
    echo "(?<![A-Za-z0-9])$1(?!${longer#|})"
  fi
}

naming_files() {
  local re own
  re=$(pattern "$1")
  own=$(own_path "$1")
  [[ $own == *'(?!)' ]] && own=${own%'(?!)'}
  {
    # In C and C++ a member call (s.substr(...), p->cast()) is a method of another type.
    git ls-files -z -- '*.c' '*.h' '*.cpp' '*.hpp' '*.cu' '*.cuh' |
      xargs -0 grep -lP -- "(?<!\.)(?<!->)$re" 2>/dev/null
    git ls-files -z -- ':!*.c' ':!*.h' ':!*.cpp' ':!*.hpp' ':!*.cu' ':!*.cuh' |
      xargs -0 grep -lP -- "$re" 2>/dev/null
  } | sort | grep -vP -- "$own" | grep -vxF scripts/op_surface_count.sh || true
}

# Sources only: no tests (tests/, fortran/test_*) and no prose (*.md).
is_source() { grep -vP '(^|/)tests?/|(^|/)test_[^/]*$|\.md$' || true; }

if [[ ${1:-} == --files ]]; then
  naming_files "$2"
  exit 0
fi

if [[ ${1:-} == --sources ]]; then
  naming_files "$2" | is_source
  exit 0
fi

printf '%-22s %8s %8s\n' op sources all
for op in $(ops | awk '!seen[$0]++'); do
  files=$(naming_files "$op")
  printf '%-22s %8d %8d\n' "$op" "$(is_source <<<"$files" | grep -c . || true)" \
    "$(grep -c . <<<"$files" || true)"
done
echo
total=0
for dir in src/c_api python/src fortran apps; do
  n=$(git ls-files -z -- "$dir" | xargs -0 cat | wc -l)
  total=$((total + n))
  printf 'lines %-12s %d\n' "$dir" "$n"
done
printf 'lines %-12s %d\n' total "$total"
