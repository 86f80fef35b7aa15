"""The wheel's build: the extension tensorbuf._tensorbuf comes from the project's CMake.

setuptools packs python/tensorbuf (pyproject.toml); build_ext below runs CMake instead of a
compiler, in one of two build trees:
  - TENSORBUF_CMAKE_BUILD_DIR set (relative to this directory, or absolute): an existing,
    configured build tree of this project with the Python package and a static library (CI:
    build/default); only the target _tensorbuf is brought up to date, usually nothing to do;
  - otherwise a fresh one under build/pip: the static library and the extension alone (no
    tests, tool, benchmarks, MPI or Fortran), the CUDA backend when CMake finds nvcc, for the
    Python that runs this build. TENSORBUF_CMAKE_ARGS adds configure arguments
    (e.g. "-DTENSORBUF_WITH_CUDA=OFF").
Where that tree builds the torch accelerator tensorbuf._torch_fast (CMake decides: the torch this
Python imports has matching C++ headers), the wheel carries it with its loader and the record of
that torch; another torch at run time makes the package take the pure path.
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
BUILD_BASE = "build/pip"  # setuptools' own build/ would mix with the presets' build trees


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(tensorbuf VERSION ([0-9.]+)", text).group(1)


def cache_value(build_dir, name):
    for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    return ""


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        given = os.environ.get("TENSORBUF_CMAKE_BUILD_DIR")
        if given:
            build_dir = ROOT / given
            self.check_given(build_dir)
        else:
            build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
            self.configure(build_dir)
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "_tensorbuf"])
        package = build_dir / "python" / "tensorbuf"
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = package / ("_tensorbuf" + suffix)
        if not built.is_file():
            sys.exit(f"setup.py: {built} was not built: {build_dir} builds the extension for "
                     f"{cache_value(build_dir, 'Python_EXECUTABLE')}, not {sys.executable}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        # _tensorbuf depends on _torch_fast: the build above made it too, where it is on. Where
        # it is off, an earlier build's copy must not stay in setuptools' build directory.
        with_torch_fast = cache_value(build_dir, "TENSORBUF_WITH_TORCH_FAST") == "ON"
        for name in ("_torch_fast" + suffix, "_torch_fast_build.py", "_torch_fast_loader.py"):
            if with_torch_fast:
                shutil.copyfile(package / name, target.parent / name)
            else:
                (target.parent / name).unlink(missing_ok=True)

    @staticmethod
    def check_given(build_dir):
        if not (build_dir / "CMakeCache.txt").is_file():
            sys.exit(f"setup.py: TENSORBUF_CMAKE_BUILD_DIR={build_dir} is not a configured build tree")
        if cache_value(build_dir, "TENSORBUF_WITH_PYTHON") != "ON":
            sys.exit(f"setup.py: {build_dir} is configured without the Python package "
                     "(TENSORBUF_WITH_PYTHON=OFF)")
        # A wheel carries the extension alone: it must have the library inside.
        if cache_value(build_dir, "BUILD_SHARED_LIBS") == "ON":
            sys.exit(f"setup.py: {build_dir} builds a shared libtensorbuf, which the wheel "
                     "would not carry: use a static build")

    @staticmethod
    def configure(build_dir):
        args = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                "-DBUILD_SHARED_LIBS=OFF", "-DTENSORBUF_WITH_PYTHON=ON",
                f"-DPython_EXECUTABLE={sys.executable}", "-DTENSORBUF_BUILD_TESTS=OFF",
                "-DTENSORBUF_BUILD_APPS=OFF", "-DTENSORBUF_BUILD_BENCH=OFF",
                "-DTENSORBUF_WITH_MPI=OFF", "-DTENSORBUF_WITH_FORTRAN=OFF"]
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("TENSORBUF_CMAKE_ARGS", ""))
        subprocess.check_call(args)


os.makedirs(ROOT / BUILD_BASE, exist_ok=True)
# The package's layout here, not in pyproject.toml's [tool.setuptools] (beta in setuptools 66).
setup(
    version=project_version(),
    packages=["tensorbuf"],
    package_dir={"tensorbuf": "python/tensorbuf"},
    package_data={"tensorbuf": ["py.typed", "*.pyi"]},
    include_package_data=False,
    ext_modules=[Extension("tensorbuf._tensorbuf", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
)
