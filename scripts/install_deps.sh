#!/usr/bin/env bash
# Installs the Debian packages tensorbuf's build, tests and CI need, and any named as arguments
# (idempotent; run as root). nvcc (CUDA 13) is expected from the machine's CUDA toolkit; without
# it the CPU library builds.
set -euo pipefail
# libopenmpi-dev + openmpi-bin: tensorbuf::mpi and its tests (mpiexec); gfortran: the Fortran
# module; without them the rest builds (TENSORBUF_WITH_MPI / TENSORBUF_WITH_FORTRAN off).
# libdlpack-dev: the system DLPack header (tensorbuf's own declarations are used without it).
# python3-dev pybind11-dev python3-numpy python3-pytest python3-torch: the Python package and its
# tests (TENSORBUF_WITH_PYTHON off without the first two), and the benchmarks' NumPy / PyTorch peers.
# pkgconf: scripts/check_pkgconfig.sh (the installed .pc files, used without CMake).
# mypy: the type stubs' checks (tests/python/test_stubs.py; they skip without it).
# python3-onnx libonnx-testdata: the ONNX node tests of tests/processing (they skip without them).
# python3-pip python3-setuptools python3-wheel: the wheel (pyproject.toml, scripts/check_wheel.sh);
# dpkg-dev: dpkg-shlibdeps and dpkg-architecture for the .deb packages (scripts/check_deb.sh).
# libtorch-dev: torch's C++ headers, for the optional accelerator tensorbuf._torch_fast
# (python/torch_fast; not built without them, about 4 MB to download, 42 MB unpacked).
packages=(cmake ninja-build g++ gfortran libgtest-dev libbenchmark-dev libdlpack-dev python3 clang
          python3-dev pybind11-dev python3-numpy python3-pytest python3-torch mypy
          libclang-rt-14-dev libopenmpi-dev openmpi-bin python3-onnx libonnx-testdata pkgconf
          python3-pip python3-setuptools python3-wheel dpkg-dev libtorch-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi
if ! command -v nvcc > /dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "note: nvcc is at /usr/local/cuda/bin; add it to PATH to build the CUDA backend" >&2
fi
