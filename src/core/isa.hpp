// Which instruction-set-specific paths the host code compiles. Every such path has a portable
// twin; the TENSORBUF_PORTABLE build (CMake option and preset `portable`) compiles the twins
// alone, so that an x86 machine builds and tests exactly what a non-x86 CPU runs.
#pragma once

#if !defined(TENSORBUF_PORTABLE) && defined(__x86_64__) && \
    (defined(__GNUC__) || defined(__clang__))
// GNU intrinsics, __builtin_cpu_supports, AVX-512 by target attribute
#define TENSORBUF_ISA_X86_64 1
#endif

#if !defined(TENSORBUF_PORTABLE) && defined(__SSE2__)
#define TENSORBUF_ISA_SSE2 1  // non-temporal stores, SSE2 packs
#endif

#if !defined(TENSORBUF_PORTABLE) && (defined(__x86_64__) || defined(__i386__))
#define TENSORBUF_ISA_X86_PAUSE 1  // the spin-wait hint
#endif

#if !defined(TENSORBUF_PORTABLE) && defined(__aarch64__) && \
    (defined(__GNUC__) || defined(__clang__))
#define TENSORBUF_ISA_ARM64_YIELD 1  // the spin-wait hint (as Linux's cpu_relax on arm64)
#endif
