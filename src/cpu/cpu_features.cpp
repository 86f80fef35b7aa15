#include "cpu/cpu_features.hpp"

#include <atomic>

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <cpuid.h>
#endif
#include "tensorbuf/runtime.hpp"

namespace tensorbuf {
namespace cpu {
namespace {

std::atomic<bool> g_simd_enabled{true};

CpuFeatures detect() {
  CpuFeatures f;
#if defined(TENSORBUF_ISA_X86_64)
  f.avx512bw = __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512bw") != 0 &&
               __builtin_cpu_supports("popcnt") != 0;
  f.bmi2 = __builtin_cpu_supports("bmi2") != 0;
  f.avx512vbmi = f.avx512bw && __builtin_cpu_supports("avx512vbmi") != 0;
  // F16C is CPUID.1:ECX bit 29 (clang's __builtin_cpu_supports has no "f16c"); the "avx" test
  // also checks that the OS saves the YMM state.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool f16c_bit = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && ((ecx >> 29) & 1u) != 0;
  f.f16c = __builtin_cpu_supports("avx") != 0 && f16c_bit;
#endif
  return f;
}

}  // namespace

const CpuFeatures& detected_cpu_features() {
  static const CpuFeatures features = detect();
  return features;
}

CpuFeatures cpu_features() {
  return g_simd_enabled.load(std::memory_order_relaxed) ? detected_cpu_features() : CpuFeatures{};
}

void set_simd_enabled(bool enabled) { g_simd_enabled.store(enabled, std::memory_order_relaxed); }

// Each entry's requirement is an expression of these members.
CpuCodePaths CpuFeatures::code_paths() const {
  CpuCodePaths paths;
#define TENSORBUF_CPU_CODE_PATH_TAKEN(field, what, needs) paths.field = (needs);
  TENSORBUF_CPU_CODE_PATHS(TENSORBUF_CPU_CODE_PATH_TAKEN)
#undef TENSORBUF_CPU_CODE_PATH_TAKEN
  return paths;
}

}  // namespace cpu

CpuCodePaths cpu_code_paths() { return cpu::detected_cpu_features().code_paths(); }

}  // namespace tensorbuf
