#!/usr/bin/env bash
# Makes the Debian packages of a built shared tree configured with -DCMAKE_INSTALL_PREFIX=/usr
# (cmake/TensorbufCPack.cmake; CI: build/shared of .ci/run, nothing compiled here) with cpack,
# checks their names, control fields and contents, that apt could install them here (simulated),
# unpacks them all with dpkg-deb -x into an empty root and builds and runs against that root
# alone: the pkg-config consumers of scripts/check_pkgconfig.sh (C, make, C++17, C++20,
# Fortran, MPI), the CMake C++ consumer, a CMake C consumer with libtensorbuf0.1 and
# libtensorbuf-dev alone, and `import tensorbuf` from python3-tensorbuf: with
# python3-tensorbuf-torch the torch accelerator loaded, without it the pure path.
# usage: scripts/check_deb.sh BUILD_DIR WORK_DIR
set -euo pipefail
build_dir=$(cd "$1" && pwd)
mkdir -p "$2"
work_dir=$(cd "$2" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "check_deb: $*" >&2; exit 1; }
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"; }
[ "$(cache CMAKE_INSTALL_PREFIX)" = /usr ] ||
  fail "$build_dir: configure it with -DCMAKE_INSTALL_PREFIX=/usr (Debian's layout)"
[ "$(cache BUILD_SHARED_LIBS)" = ON ] || fail "$build_dir: configure it with -DBUILD_SHARED_LIBS=ON"

version=$(cache CMAKE_PROJECT_VERSION)
major=${version%%.*} minor=${version#*.}
soversion=$major
[ "$major" != 0 ] || soversion=$major.${minor%%.*}
deb_version=$version-1
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=usr/lib/$multiarch
pydir=usr/lib/python3/dist-packages/tensorbuf

rm -rf "$work_dir/debs" "$work_dir/root" "$work_dir/root-dev" "$work_dir/root-py" \
  "$work_dir/consumer" "$work_dir/consumer_c"
(cd "$build_dir" && cpack -G DEB -B "$work_dir/debs" > "$work_dir/cpack.log" 2>&1) || {
  cat "$work_dir/cpack.log" >&2
  fail "cpack failed"
}

# package # the files it must hold (grep -E patterns, space-separated) # the only files it may
# hold (directories aside) # what its Depends must contain (literal strings, ;-separated)
runtime=libtensorbuf$soversion
v="(= $deb_version)"
checks=(
  "$runtime#/$libdir/libtensorbuf\.so\.$soversion\$#/$libdir/libtensorbuf\.so\.[0-9.]+\$#libc6 (>=;libstdc++6 (>="
  "libtensorbuf-dev#/usr/include/tensorbuf/c_api\.h\$ /$libdir/libtensorbuf\.so\$ /$libdir/pkgconfig/tensorbuf\.pc\$ /$libdir/cmake/tensorbuf/tensorbufConfig\.cmake\$#/usr/include/tensorbuf/.* /$libdir/libtensorbuf\.so\$ /$libdir/pkgconfig/tensorbuf\.pc\$ /$libdir/cmake/tensorbuf/tensorbuf(Config|ConfigVersion|Targets|Targets-[a-z]+)\.cmake\$#$runtime $v"
)
if [ "$(cache TENSORBUF_WITH_MPI)" = ON ]; then
  checks+=(
    "libtensorbuf-mpi$soversion#/$libdir/libtensorbuf_mpi\.so\.$soversion\$#/$libdir/libtensorbuf_mpi\.so\.[0-9.]+\$#$runtime $v;libopenmpi"
    "libtensorbuf-mpi-dev#/usr/include/tensorbuf/dist\.hpp\$ /$libdir/pkgconfig/tensorbuf-mpi\.pc\$#/usr/include/tensorbuf/dist\.hpp\$ /$libdir/libtensorbuf_mpi\.so\$ /$libdir/pkgconfig/tensorbuf-mpi\.pc\$ /$libdir/cmake/tensorbuf/tensorbufMpiTargets(-[a-z]+)?\.cmake\$#libtensorbuf-mpi$soversion $v;libtensorbuf-dev $v;libopenmpi-dev"
  )
fi
if [ "$(cache TENSORBUF_WITH_FORTRAN)" = ON ]; then
  checks+=(
    "libtensorbuf-fortran$soversion#/$libdir/libtensorbuf_f\.so\.$soversion\$#/$libdir/libtensorbuf_f\.so\.[0-9.]+\$#$runtime $v;libgfortran"
    "libtensorbuf-fortran-dev#/usr/include/tensorbuf/fortran/tensorbuf_f\.mod\$ /$libdir/pkgconfig/tensorbuf-fortran\.pc\$#/usr/include/tensorbuf/fortran/tensorbuf_[cf]\.mod\$ /$libdir/libtensorbuf_f\.so\$ /$libdir/pkgconfig/tensorbuf-fortran\.pc\$ /$libdir/cmake/tensorbuf/tensorbufFortranTargets(-[a-z]+)?\.cmake\$#libtensorbuf-fortran$soversion $v;libtensorbuf-dev $v;gfortran-mod-"
  )
fi
if [ "$(cache TENSORBUF_WITH_PYTHON)" = ON ]; then
  checks+=(
    "python3-tensorbuf#/$pydir/__init__\.py\$ /$pydir/_tensorbuf\..*\.so\$ /$pydir/py\.typed\$#/$pydir/(__init__\.pyi?|_tensorbuf\.pyi|py\.typed|_tensorbuf\..*\.so)\$#$runtime $v;python3 (>=;python3 (<<;python3-numpy"
  )
fi
# The torch accelerator: its own package, for the torch package (and upstream version) that
# installed the torch it was built against; none when no Debian package did.
torch_package=
if [ "$(cache TENSORBUF_WITH_PYTHON)" = ON ] && [ "$(cache TENSORBUF_WITH_TORCH_FAST)" = ON ]; then
  torch_dir=$(sed -n 's/^TORCH_DIR = "\(.*\)"$/\1/p' "$build_dir/python/tensorbuf/_torch_fast_build.py")
  torch_package=$(dpkg-query -S "$torch_dir/__init__.py" 2>/dev/null | sed 's/:.*//') || true
fi
if [ -n "$torch_package" ]; then
  torch_upstream=$(dpkg-query -W -f='${Version}' "$torch_package" | sed 's/-[^-]*$//')
  checks+=(
    "python3-tensorbuf-torch#/$pydir/_torch_fast\..*\.so\$ /$pydir/_torch_fast_build\.py\$ /$pydir/_torch_fast_loader\.py\$#/$pydir/_torch_fast(\..*\.so|_build\.py|_loader\.py)\$#python3-tensorbuf $v;libtorch;$torch_package (>= $torch_upstream);$torch_package (<< $torch_upstream-z)"
  )
fi
if [ "$(cache TENSORBUF_BUILD_APPS)" = ON ]; then
  checks+=("tensorbuf-tools#/usr/bin/tensorbuf\$#/usr/bin/tensorbuf\$#$runtime $v")
fi

# Exactly the expected files, nothing else.
expected=()
for check in "${checks[@]}"; do expected+=("${check%%#*}_${deb_version}_$arch.deb"); done
made=$(cd "$work_dir/debs" && printf '%s\n' *.deb | sort)
if [ "$made" != "$(printf '%s\n' "${expected[@]}" | sort)" ]; then
  fail "cpack made [${made//$'\n'/ }], expected [${expected[*]}]"
fi

: > "$work_dir/debs/all-files"
for check in "${checks[@]}"; do
  IFS='#' read -r package must only depends <<< "$check"
  deb=$work_dir/debs/${package}_${deb_version}_$arch.deb
  for field in "Package:$package" "Version:$deb_version" "Architecture:$arch"; do
    [ "$(dpkg-deb -f "$deb" "${field%%:*}")" = "${field#*:}" ] ||
      fail "$package: ${field%%:*} is '$(dpkg-deb -f "$deb" "${field%%:*}")', expected '${field#*:}'"
  done
  for field in Maintainer Description Section; do
    [ -n "$(dpkg-deb -f "$deb" "$field")" ] || fail "$package: no $field"
  done
  deps=$(dpkg-deb -f "$deb" Depends)
  IFS=';' read -r -a wanted <<< "$depends"
  for dep in "${wanted[@]}"; do
    grep -qF "$dep" <<< "$deps" || fail "$package: Depends '$deps' lacks '$dep'"
  done
  files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's/^\.//')
  for pattern in $must; do
    grep -qE "^$pattern" <<< "$files" || fail "$package: holds no file matching $pattern"
  done
  stray=$(grep -vE "^($(tr ' ' '|' <<< "$only"))" <<< "$files" || true)
  [ -z "$stray" ] || fail "$package: holds files of another package: $stray"
  printf '%s\n' "$files" >> "$work_dir/debs/all-files"
  echo "check_deb: $package $deb_version: $(wc -l <<< "$files") files; Depends: $deps"
done
dupes=$(sort "$work_dir/debs/all-files" | uniq -d)
[ -z "$dupes" ] || fail "files in more than one package: $dupes"
# Packages built on the runtime libraries get their dependency from its shlibs file.
dpkg-deb --ctrl-tarfile "$work_dir/debs/${runtime}_${deb_version}_$arch.deb" |
  tar -xO ./shlibs | grep -qxF "libtensorbuf $soversion $runtime (>= $deb_version)" ||
  fail "$runtime: no shlibs line 'libtensorbuf $soversion $runtime (>= $deb_version)'"

# apt can install them all on this machine: every Depends resolves (simulated: nothing installed).
apt-get install --simulate --no-download "$work_dir"/debs/*.deb > "$work_dir/apt.log" 2>&1 || {
  cat "$work_dir/apt.log" >&2
  fail "apt-get install --simulate of the packages failed"
}
[ "$(grep -c '^Conf ' "$work_dir/apt.log")" = "${#checks[@]}" ] || fail "apt: $(cat "$work_dir/apt.log")"

# Everything unpacked into an empty root: the consumers find tensorbuf there alone.
for deb in "$work_dir"/debs/*.deb; do dpkg-deb -x "$deb" "$work_dir/root"; done
# Stripped (Debian policy 10.1): no symbol table beyond the dynamic one.
while IFS= read -r -d '' object; do
  if readelf -S "$object" | grep -q '\.symtab'; then fail "$object is not stripped"; fi
done < <(find "$work_dir/root" -name '*.so*' -type f -print0)
while IFS= read -r -d '' object; do
  if env -u LD_LIBRARY_PATH ldd "$object" | grep 'not found'; then
    fail "$object does not find the libraries above in the unpacked packages"
  fi
done < <(find "$work_dir/root" -name '*.so*' -type f -print0)
"$src/scripts/check_pkgconfig.sh" "$work_dir/root/usr" "$work_dir"
cmake -S "$src/tests/consumer" -B "$work_dir/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work_dir/root/usr" > /dev/null
cmake --build "$work_dir/consumer" > /dev/null
"$work_dir/consumer/consumer"
# libtensorbuf-dev needs none of the MPI, Fortran or Python packages.
for package in "$runtime" libtensorbuf-dev; do
  dpkg-deb -x "$work_dir/debs/${package}_${deb_version}_$arch.deb" "$work_dir/root-dev"
done
cmake -S "$src/tests/consumer_c" -B "$work_dir/consumer_c" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work_dir/root-dev/usr" > /dev/null
cmake --build "$work_dir/consumer_c" > /dev/null
"$work_dir/consumer_c/consumer_c"
if [ "$(cache TENSORBUF_WITH_PYTHON)" = ON ]; then
  python=$(cache Python_EXECUTABLE)
  (cd "$work_dir" && PYTHONPATH="$work_dir/root/$pydir/.." "$python" -c '
import numpy as np, tensorbuf as tb
assert tb.__file__.startswith("'"$work_dir/root/"'"), tb.__file__
a = np.zeros((4, 2), np.float32)
tb.tensor_scatter_nd_add_in_place(a, [[1]], [[1.0, 2.0]])
assert a.tolist() == [[0, 0], [1, 2], [0, 0], [0, 0]], a
print("check_deb: import tensorbuf from", tb.__file__)')
  # The accelerator: loaded from the root for the torch it was built against, and used; from a
  # root without python3-tensorbuf-torch, the pure path. (Where there is no torch: neither.)
  roots=()
  if "$python" -c 'import torch' 2>/dev/null; then roots+=("$work_dir/root"); fi
  if [ -n "$torch_package" ]; then
    for package in "$runtime" python3-tensorbuf; do
      dpkg-deb -x "$work_dir/debs/${package}_${deb_version}_$arch.deb" "$work_dir/root-py"
    done
    roots+=("$work_dir/root-py")
  fi
  for root in ${roots[@]+"${roots[@]}"}; do
    status="not built"
    [ "$root" != "$work_dir/root" ] || [ -z "$torch_package" ] || status=loaded
    (cd "$work_dir" && PYTHONPATH="$root/$pydir/.." "$python" - "$root" "$status" <<'EOF'
import sys
import torch
import tensorbuf as tb
root, expected = sys.argv[1], sys.argv[2]
assert tb.__file__.startswith(root + "/"), tb.__file__
x = torch.zeros(4)
tb.tensor_scatter_nd_add_in_place(x, torch.tensor([[1]]), torch.tensor([2.0]))
state = tb._tensorbuf._torch_fast_state()
assert x.tolist() == [0, 2, 0, 0] and x._version == 1, (x, x._version)
assert state["status"] == expected, (state, expected)
assert (state["reads"], state["bumps"]) == ((3, 1) if expected == "loaded" else (0, 0)), state
print(f"check_deb: torch {torch.__version__} from {root}: accelerator {state['status']}")
EOF
    )
  done
fi
echo "check_deb: ${#checks[@]} packages checked, unpacked and built against"
