// A uint8 normalize step without the division: (x - mean) / stddev as a product by 1 / stddev
// with one FMA correction, taken only for steps where it was checked to give the division's
// bits for every one of the 256 inputs of every channel (AVX-512 only; elsewhere the division).
#pragma once

#include <cstdint>
#include <vector>

#include "core/isa.hpp"
#include "core/processing_plan.hpp"

namespace tensorbuf::cpu {

// A stage's form and its check, which depend on its parameters alone (a Processor keeps them,
// core/process_memos.hpp): 1 / stddev over the stage's period (as its means and stddevs), empty
// where the stage cannot take the form (no AVX-512, a stage not a normalize from uint8); exact
// when the form gave the division's bits for every byte of every channel.
struct NormalizeReciprocals {
  std::vector<float> values;
  bool exact = false;
};
NormalizeReciprocals check_normalize_reciprocals(const core::ProcessStage& stage, bool avx512);

// The reciprocals a run takes, or null (the division): exact ones, unless the switch in
// processing_tuning.hpp says never or unchecked.
const float* normalize_reciprocals_to_use(const NormalizeReciprocals& reciprocals);

// The same for a run without a Processor's memos, checked on the call: empty where the
// division stays, also for a run too short to pay for the check (256 x channels).
std::vector<float> normalize_reciprocals(const core::ProcessStage& stage, std::int64_t elements,
                                         bool avx512);

#if defined(TENSORBUF_ISA_X86_64)
// y[j] = normalize(float32(x[j])) rounded to float32 (y float*) or float16 (y uint16_t*, as
// vcvtps2ph), by the reciprocals of normalize_reciprocals.
// mean, stddev and recip start at x[0]'s channel and cover n elements (a period's run).
void normalize_u8_by_reciprocal(const std::uint8_t* x, float* y, std::int64_t n,
                                std::int64_t channels, const float* mean, const float* stddev,
                                const float* recip);
void normalize_u8_by_reciprocal(const std::uint8_t* x, std::uint16_t* y, std::int64_t n,
                                std::int64_t channels, const float* mean, const float* stddev,
                                const float* recip);
#endif

}  // namespace tensorbuf::cpu
