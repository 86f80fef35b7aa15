#!/usr/bin/env bash
# The CPU library on 64-bit ARM (the host CPU of Grace Hopper systems), from an x86 machine:
# cross-compiled with aarch64-linux-gnu-g++ (-Werror; no CUDA), then `tensorbuf examples` and
# the CPU tests run under qemu-aarch64 user emulation. ARM differs from x86 where the code's
# portable paths and assumptions live: no x86 intrinsics (src/core/isa.hpp picks the portable
# twins and the `yield` spin hint), `char` unsigned, other alignment rules. The CLI tests
# (tests/tools/test_cli*.cpp) are not built: they start the CLI as a child process, which needs
# binfmt_misc for an ARM binary (tests/tools/CMakeLists.txt leaves them out under
# CMAKE_CROSSCOMPILING_EMULATOR).
# Usage: scripts/check_aarch64.sh [build-dir]   (as root: installs the cross toolchain and qemu)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/aarch64}
sysroot=/usr/aarch64-linux-gnu

scripts/install_deps.sh g++-aarch64-linux-gnu qemu-user

cross=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=Linux
       -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++
       -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc)

# Google Test for aarch64, from the sources libgtest-dev ships.
if [ ! -f "$build-gtest/install/lib/cmake/GTest/GTestConfig.cmake" ]; then
  cmake -S /usr/src/googletest -B "$build-gtest" "${cross[@]}" -DBUILD_GMOCK=OFF \
    -DCMAKE_INSTALL_PREFIX="$PWD/$build-gtest/install" > /dev/null
  cmake --build "$build-gtest" -j2 > /dev/null
  cmake --install "$build-gtest" > /dev/null
fi

cmake -S . -B "$build" "${cross[@]}" -DTENSORBUF_WITH_CUDA=OFF -DTENSORBUF_BUILD_BENCH=OFF \
  -DTENSORBUF_WERROR=ON -DCMAKE_PREFIX_PATH="$PWD/$build-gtest/install" \
  "-DCMAKE_CROSSCOMPILING_EMULATOR=qemu-aarch64;-L;$sysroot" > /dev/null
cmake --build "$build" -j2
qemu-aarch64 -L "$sysroot" "$build/apps/tensorbuf" examples | tail -1
ctest --test-dir "$build" -L cpu -j2 --output-on-failure
