// The fused Processor over an executor (executor.hpp): src/cuda runs it with the CUDA executor,
// tests with the host executor. One pass: each element is loaded once, carried through every
// stage of the plan in registers (rounded to each stage's dtype, as the CPU backend rounds into
// its scratch blocks), and stored once. The dtypes are run-time values (convert_value.hpp), so
// one instantiation serves every chain and every dtype pair; the image pipeline (uint8 ->
// normalize -> float32 / float16) needs nothing else. No host wait: capturable.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/processing_plan.hpp"
#include "kernels/config.hpp"
#include "kernels/convert_value.hpp"
#include "kernels/processing.hpp"
#include "kernels/store_table.hpp"

namespace tensorbuf::kernels {

// Stages carried by one launch's functor; a longer chain runs as several launches through
// intermediate buffers (still each element once per launch).
inline constexpr int kChainStages = 8;
// Means and stddevs of up to this many channels travel in the functor; more go to a table.
inline constexpr int kInlineChannels = 4;

struct ChainStage {
  core::ProcessStageKind kind = core::ProcessStageKind::kConvert;
  DataType to = DataType::kFloat32;
  std::int64_t channels = 1;
  const float* means = nullptr;  // executor-side, when channels > kInlineChannels
  const float* stddevs = nullptr;
  float mean[kInlineChannels] = {};
  float stddev[kInlineChannels] = {};

  // The stage applied to v, the element `index` of the chain's input.
  TENSORBUF_HOST_DEVICE Value apply(const Value& v, std::int64_t index) const {
    if (kind == core::ProcessStageKind::kConvert) return convert_value(v, to);
    std::int64_t c = 0;
    if (channels > 1) {
      std::int64_t q = 0;
      divide(index, channels, q, c);
    }
    const bool inline_values = channels <= kInlineChannels;
    const float m = inline_values ? mean[c] : means[c];
    const float s = inline_values ? stddev[c] : stddevs[c];
    // The input is uint8 or float32 (the plan converts anything else first): float(v) exact.
    const float y = normalize_element(to_float(v), m, s);
    if (to == DataType::kFloat16) {
      return floating_value(detail::half_bits_to_float(detail::float_to_half_bits(y)));
    }
    return floating_value(y);
  }
};

struct ProcessChainFunctor {
  const void* in = nullptr;
  void* out = nullptr;
  DataType in_type = DataType::kFloat32;
  DataType out_type = DataType::kFloat32;  // a final conversion is the store itself
  int count = 0;
  ChainStage stages[kChainStages];

  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
    Value v = load_value(in, in_type, i);
    for (int s = 0; s < count; ++s) v = stages[s].apply(v, i);
    store_value(out, out_type, i, v);
  }
};

// The stage for the functor: parameters inline, or tables written into executor memory.
template <class Executor>
ChainStage chain_stage(Executor& ex, const core::ProcessStage& stage) {
  ChainStage out;
  out.kind = stage.kind;
  out.to = stage.to;
  if (stage.kind != core::ProcessStageKind::kNormalize) return out;
  out.channels = stage.channels;
  // ProcessStage repeats the values over its period from channel 0: the first `channels`.
  if (stage.channels <= kInlineChannels) {
    for (std::int64_t c = 0; c < stage.channels; ++c) {
      out.mean[c] = stage.means[c];
      out.stddev[c] = stage.stddevs[c];
    }
  } else {
    out.means = store_table(ex, stage.means, stage.channels);
    out.stddevs = store_table(ex, stage.stddevs, stage.channels);
  }
  return out;
}

// out[i] = the plan's stages applied to in[i], for every i.
template <class Executor>
void run_process(Executor& ex, const core::ProcessPlan& plan, const core::ProcessBuffers& buffers) {
  const std::int64_t n = plan.elements;
  if (n <= 0) return;
  const auto total = static_cast<std::int64_t>(plan.stages.size());
  if (total == 0) {  // every step an identity for this dtype: a copy
    ex.copy(buffers.out, buffers.in, static_cast<std::size_t>(n) * type_size(plan.in_type));
    return;
  }
  const void* in = buffers.in;
  DataType in_type = plan.in_type;
  for (std::int64_t first = 0; first < total; first += kChainStages) {
    const std::int64_t last = first + kChainStages < total ? first + kChainStages : total;
    ProcessChainFunctor f;
    f.in = in;
    f.in_type = in_type;
    for (std::int64_t s = first; s < last; ++s) {
      f.stages[f.count++] = chain_stage(ex, plan.stages[static_cast<std::size_t>(s)]);
    }
    f.out_type = plan.stages[static_cast<std::size_t>(last - 1)].to;
    // A final conversion is what the store does: not repeated in registers.
    if (f.stages[f.count - 1].kind == core::ProcessStageKind::kConvert) --f.count;
    f.out = last == total ? buffers.out : static_cast<void*>(ex.template scratch<std::uint64_t>(n));
    ex.for_each_index(n, f);
    in = f.out;
    in_type = f.out_type;
  }
}

}  // namespace tensorbuf::kernels
