// A uint8 normalize step without the division: (x - mean) / stddev as a product by 1 / stddev
// with one FMA correction, or for float16 outputs the bare product, each taken only for steps
// where it was checked to give the division's bits for every one of the 256 inputs of every
// channel (AVX-512 only; elsewhere the division).
#pragma once

#include <cstdint>
#include <vector>

#include "core/isa.hpp"
#include "core/processing_plan.hpp"

namespace tensorbuf::cpu {

// A stage's forms and their checks, which depend on its parameters alone (a Processor keeps
// them, core/process_memos.hpp): 1 / stddev over the stage's period (as its means and stddevs),
// empty where the stage cannot take a form (no AVX-512, a stage not a normalize from uint8);
// exact when the corrected form gave the division's bits for every byte of every channel;
// half_exact (float16 stages) when the bare product n * (1 / stddev) rounded to float16 gave
// the division's float16 bits for all of them (the float32 results may differ by an ulp: what
// matters is the rounding to float16).
struct NormalizeReciprocals {
  std::vector<float> values;
  bool exact = false;
  bool half_exact = false;
};
NormalizeReciprocals check_normalize_reciprocals(const core::ProcessStage& stage, bool avx512);

// How a run computes a uint8 normalize stage: recip null, the division; else by the
// reciprocals, corrected by two FMAs or (product) the bare product.
struct NormalizeForm {
  const float* recip = nullptr;
  bool product = false;
};

// The form a run takes: the cheapest checked one (the bare product, then the corrected form,
// then the division), unless the switch in processing_tuning.hpp says never or unchecked (the
// corrected form).
NormalizeForm normalize_form_to_use(const NormalizeReciprocals& reciprocals);

// Whether a run without a Processor's memos checks its stages: not one shorter than the check
// (256 x channels) under the default switch.
bool normalize_check_pays(std::int64_t elements, std::int64_t channels);

#if defined(TENSORBUF_ISA_X86_64)
// y[j] = normalize(float32(x[j])) rounded to float32 (y float*) or float16 (y uint16_t*, as
// vcvtps2ph), by the reciprocals of check_normalize_reciprocals.
// mean, stddev and recip start at x[0]'s channel and cover n elements (a period's run).
void normalize_u8_by_reciprocal(const std::uint8_t* x, float* y, std::int64_t n,
                                std::int64_t channels, const float* mean, const float* stddev,
                                const float* recip);
void normalize_u8_by_reciprocal(const std::uint8_t* x, std::uint16_t* y, std::int64_t n,
                                std::int64_t channels, const float* mean, const float* stddev,
                                const float* recip);
// The bare product's float16 bits (where half_exact).
void normalize_u8_by_product(const std::uint8_t* x, std::uint16_t* y, std::int64_t n,
                             std::int64_t channels, const float* mean, const float* stddev,
                             const float* recip);
#endif

}  // namespace tensorbuf::cpu
