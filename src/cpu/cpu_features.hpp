// The one place the CPU backend learns what this CPU offers its x86 fast paths, and the one
// switch tests use to run the portable twins on a CPU that has those features.
#pragma once

namespace tensorbuf::cpu {

struct CpuFeatures {
  bool avx512bw = false;  // AVX-512F + AVX-512BW + POPCNT: boolean_mask_update's expand-load
                          // path, load_array's float -> bfloat16, scatter's float / double
                          // rows and its kError index check (cpu/scatter_nd_check.hpp)
  bool bmi2 = false;      // BMI2 as well: substr's short UTF-8 scans need both
  bool f16c = false;      // AVX + F16C: load_array's float -> float16 conversion
  // AVX-512 VBMI as well (byte permutes): the Processor's byte tables
  bool avx512vbmi = false;
};

// What the CPU has, detected once. All false in a TENSORBUF_PORTABLE or non-x86 build.
const CpuFeatures& detected_cpu_features();

// What the ops use now: the detected features, or none while a test has turned them off.
CpuFeatures cpu_features();

// Tests: false makes every op take its portable paths; true (the default) restores detection.
void set_simd_enabled(bool enabled);

}  // namespace tensorbuf::cpu
