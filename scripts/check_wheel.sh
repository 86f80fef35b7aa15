#!/usr/bin/env bash
# Builds the wheel of the Python package offline with Debian's pip and setuptools
# (`pip wheel --no-build-isolation`, pyproject.toml and setup.py), reusing a built tree for the
# extension (TENSORBUF_CMAKE_BUILD_DIR: nothing compiled when it is up to date), checks its
# metadata and contents, installs it with `pip install --no-deps --target` into an empty
# directory and runs the pytest suite (tests/python) against that install alone. Where the build
# tree builds the torch accelerator (TENSORBUF_WITH_TORCH_FAST), the wheel must carry it and the
# suite must find it loaded (TENSORBUF_EXPECT_TORCH_FAST=1: its tests fail instead of skipping).
# usage: scripts/check_wheel.sh BUILD_DIR WORK_DIR  (CI: build/default)
set -euo pipefail
build_dir=$(cd "$1" && pwd)
mkdir -p "$2"
work_dir=$(cd "$2" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "check_wheel: $*" >&2; exit 1; }
python=/usr/bin/python3  # Debian's, with its pip: never the first python3 / pip on PATH
rm -rf "$work_dir/wheel" "$work_dir/site"
torch_fast=$(sed -n 's/^TENSORBUF_WITH_TORCH_FAST:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
expect_torch_fast=0
[ "$torch_fast" != ON ] || expect_torch_fast=1

(cd "$src" && TENSORBUF_CMAKE_BUILD_DIR="$build_dir" "$python" -m pip wheel --no-build-isolation \
  --no-deps --no-index -w "$work_dir/wheel" . > "$work_dir/pip-wheel.log" 2>&1) || {
  cat "$work_dir/pip-wheel.log" >&2
  fail "pip wheel failed"
}
wheel=$(compgen -G "$work_dir/wheel/tensorbuf-*.whl") || fail "no wheel in $work_dir/wheel"
version=$(sed -n 's/^project(tensorbuf VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
tag=$("$python" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
case $(basename "$wheel") in
  "tensorbuf-$version-$tag-$tag-linux_"*.whl) ;;
  *) fail "$(basename "$wheel"): expected tensorbuf-$version-$tag-$tag-linux_<arch>.whl" ;;
esac

"$python" -m pip install --root-user-action=ignore --no-deps --no-index --target "$work_dir/site" "$wheel" > /dev/null
# The metadata of the installed copy: version, NumPy, torch as an extra, docs/python.md as its
# description; the stubs beside the extension.
"$python" - "$work_dir/site" "$version" "$expect_torch_fast" <<'EOF'
import email, pathlib, re, sys
site, version, torch_fast = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
meta = email.message_from_string((site / f"tensorbuf-{version}.dist-info" / "METADATA").read_text())
assert meta["Name"] == "tensorbuf" and meta["Version"] == version, (meta["Name"], meta["Version"])
requires = meta.get_all("Requires-Dist")
# Spelled "torch ; extra == 'torch'" or "torch; extra == \"torch\"" by the tools.
assert sorted(re.sub(r"[\s()'\"]", "", r) for r in requires) == ["numpy", "torch;extra==torch"], requires
assert meta.get_all("Provides-Extra") == ["torch"], meta.get_all("Provides-Extra")
assert meta["Description-Content-Type"] == "text/markdown"
assert meta.get_payload().startswith("# Python: `import tensorbuf`"), meta.get_payload()[:80]
files = sorted(p.name for p in (site / "tensorbuf").iterdir() if p.is_file())
for name in ("__init__.py", "__init__.pyi", "_tensorbuf.pyi", "py.typed"):
    assert name in files, files
assert any(f.startswith("_tensorbuf.cpython-") and f.endswith(".so") for f in files), files
# The accelerator: its module, loader and the torch it was built for, all or nothing.
accelerator = [f for f in files if f.startswith("_torch_fast")]
assert len(accelerator) == (3 if torch_fast else 0), (torch_fast, accelerator)
if torch_fast:
    build = (site / "tensorbuf" / "_torch_fast_build.py").read_text()
    print("check_wheel: the accelerator is built for", re.findall(r'^\w+ = "(.*)"$', build, re.M))
print(f"check_wheel: tensorbuf {version}, Requires-Dist {requires}, files {files}")
EOF

# pytest from outside the source tree, the install first on the path: the tests must import it,
# not build/*/python.
cd "$work_dir"
PYTHONPATH="$work_dir/site" "$python" -c '
import sys, tensorbuf
assert tensorbuf.__file__ == sys.argv[1], tensorbuf.__file__' "$work_dir/site/tensorbuf/__init__.py"
PYTHONPATH="$work_dir/site" TENSORBUF_TEST_DATA_DIR="$src/tests/data" \
  TENSORBUF_EXPECT_TENSORBUF_FROM="$work_dir/site" TENSORBUF_EXPECT_TORCH_FAST=$expect_torch_fast \
  "$python" -m pytest -q -p no:cacheprovider "$src/tests/python"
echo "check_wheel: $(basename "$wheel") installed with pip --target, the pytest suite passed against it"
