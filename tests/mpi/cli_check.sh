#!/usr/bin/env bash
# D4: `mpiexec -n N tensorbuf run OP ... --distributed` writes the single-process output file
# byte for byte, and fails like it (same exit status, no output file).
# usage: cli_check.sh TENSORBUF CLI_INPUTS N WORKDIR MPIEXEC [MPIEXEC_PREFLAGS...]
set -euo pipefail
tensorbuf=$1 inputs=$2 ranks=$3 work=$4
shift 4
mpiexec=("$@")
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$inputs" .
run_both() {  # name, then the op and its flags (without --out)
  local name=$1
  shift
  "$tensorbuf" run "$@" --out "single_$name.npy"
  "${mpiexec[0]}" -n "$ranks" "${mpiexec[@]:1}" "$tensorbuf" run "$@" --distributed \
    --out "dist_$name.npy"
  cmp "single_$name.npy" "dist_$name.npy"
  echo "same bytes: $name"
}
for op in sub add update min max; do
  run_both "$op" tensor_scatter_nd_$op --tensor tensor.npy --indices indices.npy \
    --updates updates.npy
done
run_both mask0 boolean_mask_update --tensor tensor.npy --mask mask.npy --updates mask_updates.npy
run_both mask1 boolean_mask_update --tensor tensor.npy --mask col_mask.npy \
  --updates col_updates.npy --axis 1
run_both substr substr --input strings.npy --pos pos.npy --len len.npy --unit utf8_char \
  --out-of-bounds drop
run_both gather_rows gather_nd --params tensor.npy --indices lookup.npy
run_both gather_pairs gather_nd --params tensor.npy --indices pairs.npy
run_both gather_drop gather_nd --params tensor.npy --indices bad_indices.npy --out-of-bounds drop
run_both mask_rows boolean_mask --tensor tensor.npy --mask mask.npy
run_both mask_cols boolean_mask --tensor tensor.npy --mask col_mask.npy --axis 1
# --in-place: the tensor file's data updated where it lies, as the single-process --in-place.
in_place_both() {  # name, then the op and its flags (without --tensor)
  local name=$1
  shift
  cp tensor.npy "single_in_place_$name.npy"
  cp tensor.npy "dist_in_place_$name.npy"
  "$tensorbuf" run "$@" --tensor "single_in_place_$name.npy" --in-place
  "${mpiexec[0]}" -n "$ranks" "${mpiexec[@]:1}" "$tensorbuf" run "$@" --distributed \
    --tensor "dist_in_place_$name.npy" --in-place
  ! cmp -s tensor.npy "single_in_place_$name.npy"  # the op changed something
  cmp "single_in_place_$name.npy" "dist_in_place_$name.npy"
  echo "same bytes in place: $name"
}
for op in sub add update min max; do
  in_place_both "$op" tensor_scatter_nd_$op --indices indices.npy --updates updates.npy
done
in_place_both mask0 boolean_mask_update --mask mask.npy --updates mask_updates.npy
in_place_both mask1 boolean_mask_update --mask col_mask.npy --updates col_updates.npy --axis 1
# A bad index in place: exit status 2, the file untouched.
cp tensor.npy bad_in_place.npy
set +e
"${mpiexec[0]}" -n "$ranks" "${mpiexec[@]:1}" "$tensorbuf" run tensor_scatter_nd_add \
  --tensor bad_in_place.npy --indices bad_indices.npy --updates updates.npy --distributed \
  --in-place 2> bad_in_place.err
status=$?
set -e
if [ "$status" -ne 2 ] || ! cmp tensor.npy bad_in_place.npy; then
  echo "bad index in place: status $status, stderr:" >&2
  cat bad_in_place.err >&2
  exit 1
fi
echo "untouched in place: bad index"
# A bad index: exit status 2 as in the single process, one message, no output file.
set +e
"${mpiexec[0]}" -n "$ranks" "${mpiexec[@]:1}" "$tensorbuf" run tensor_scatter_nd_add \
  --tensor tensor.npy --indices bad_indices.npy --updates updates.npy --distributed \
  --out bad.npy 2> bad.err
status=$?
set -e
expected="InvalidArgument: indices[9] = [13] does not index into shape [13,3]"
if [ "$status" -eq 0 ] || ! grep -qxF "$expected" bad.err || [ -e bad.npy ]; then
  echo "bad index: status $status, stderr:" >&2
  cat bad.err >&2
  exit 1
fi
[ "$(grep -c InvalidArgument bad.err)" -eq 1 ] || { echo "printed more than once" >&2; exit 1; }
echo "same error: bad index"
# gather_nd's bad row: the single-process message and status, no output file.
set +e
"$tensorbuf" run gather_nd --params tensor.npy --indices bad_indices.npy --out bad_gather.npy \
  2> single_gather.err
single_status=$?
"${mpiexec[0]}" -n "$ranks" "${mpiexec[@]:1}" "$tensorbuf" run gather_nd --params tensor.npy \
  --indices bad_indices.npy --distributed --out bad_gather.npy 2> dist_gather.err
status=$?
set -e
# mpiexec adds its own lines: the single-process message must be one line of them, once.
expected=$(cat single_gather.err)
if [ "$status" -ne "$single_status" ] || [ "$status" -eq 0 ] || [ -z "$expected" ] ||
  ! grep -qxF "$expected" dist_gather.err || [ "$(grep -c InvalidArgument dist_gather.err)" -ne 1 ] ||
  [ -e bad_gather.npy ]; then
  echo "gather_nd bad row: status $status (single $single_status), stderr:" >&2
  cat dist_gather.err >&2
  exit 1
fi
echo "same error: gather_nd bad row"
