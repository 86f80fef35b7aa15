// The one place the CPU backend learns what this CPU offers its x86 fast paths, and the one
// switch tests use to run the portable twins on a CPU that has those features.
#pragma once

#include "tensorbuf/runtime.hpp"

namespace tensorbuf::cpu {

// What the CPU offers. What the code paths that cpu_code_paths() reports need is written in
// these names (TENSORBUF_CPU_CODE_PATHS, tensorbuf/runtime.hpp); other fast paths test them.
struct CpuFeatures {
  bool avx512bw = false;  // AVX-512F + AVX-512BW + POPCNT (also load_array's float -> bfloat16)
  bool bmi2 = false;      // BMI2
  bool f16c = false;      // AVX + F16C: load_array's float -> float16 conversion
  // AVX-512 VBMI as well (byte permutes): the Processor's byte tables
  bool avx512vbmi = false;

  // The code paths these features open: what the ops take and what cpu_code_paths() reports.
  CpuCodePaths code_paths() const;
};

// What the CPU has, detected once. All false in a TENSORBUF_PORTABLE or non-x86 build.
const CpuFeatures& detected_cpu_features();

// What the ops use now: the detected features, or none while a test has turned them off.
CpuFeatures cpu_features();

// Tests: false makes every op take its portable paths; true (the default) restores detection.
void set_simd_enabled(bool enabled);

}  // namespace tensorbuf::cpu
