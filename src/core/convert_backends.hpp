// The CPU's float -> float16 / bfloat16 over a range, the storage types of inference models: the
// rule of float16(float) / bfloat16(float) (round to nearest even, overflow to inf, NaN stays a
// quiet NaN with its payload's top bits), bit for bit, at memory speed. Declared here and defined
// by src/cpu/convert_half.cpp (its F16C / AVX-512 paths stay in the backend), the way every
// backend entry point is: core/convert.cpp calls these and includes no backend header.
#pragma once

#include <cstdint>

namespace tensorbuf::cpu {

// dst[i] = float16(src[i]).bits for i in [begin, end): F16C where the CPU has it (and SIMD is
// enabled), else a branch-free loop the compiler vectorises.
void float_to_half_bits(const float* src, std::uint16_t* dst, std::int64_t begin,
                        std::int64_t end);
// dst[i] = bfloat16(src[i]).bits: AVX-512 where the CPU has it (and SIMD is enabled), else a
// branch-free loop the compiler vectorises.
void float_to_bfloat16_bits(const float* src, std::uint16_t* dst, std::int64_t begin,
                            std::int64_t end);

}  // namespace tensorbuf::cpu
