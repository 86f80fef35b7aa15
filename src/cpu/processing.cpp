// The fused Processor on the CPU. The elements are cut into blocks of kProcessBlock; a block
// goes through every stage before the next one starts: the first stage reads the input, each
// stage writes its result (rounded to its dtype) into one of two cache-resident scratch blocks
// on the stack, and the last one writes the output (or a scratch block then streamed out with
// non-temporal stores when the output is far beyond the caches). So memory is read once and
// written once, and each stage's loop is a plain vectorisable loop over one block.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/convert.hpp"
#include "core/parallel.hpp"
#include "core/processing_backends.hpp"
#include "cpu/streaming_copy.hpp"
#include "kernels/processing.hpp"

namespace tensorbuf::cpu {
namespace {

constexpr std::int64_t kBlock = core::kProcessBlock;

// Measured on one thread of the dev VM (uint8 -> normalize -> float32 from memory): ~0.35 ns
// per element, plus ~0.25 ns per element for each further stage.
constexpr double kNsPerElement = 0.35;
constexpr double kNsPerStageElement = 0.25;

// y[j] = normalize(float32(x[j])) for the n elements from global index `first`; x may be y.
template <class From>
void normalize_block(const From* x, float* y, std::int64_t n, std::int64_t first,
                     const core::ProcessStage& stage) {
  if (stage.channels == 1) {
    const float mean = stage.means[0];
    const float stddev = stage.stddevs[0];
    for (std::int64_t j = 0; j < n; ++j) {
      y[j] = kernels::normalize_element(static_cast<float>(x[j]), mean, stddev);
    }
    return;
  }
  // The repeated means start at any channel and cover a whole block (period_for), so one
  // segment does it; channels longer than a block wrap at the end of the period.
  std::int64_t phase = first % stage.channels;
  while (n > 0) {
    const std::int64_t len = std::min(n, stage.period - phase);
    const float* mean = stage.means + phase;
    const float* stddev = stage.stddevs + phase;
    for (std::int64_t j = 0; j < len; ++j) {
      y[j] = kernels::normalize_element(static_cast<float>(x[j]), mean[j], stddev[j]);
    }
    x += len;
    y += len;
    n -= len;
    phase = 0;
  }
}

void run_stage(const core::ProcessStage& stage, const void* src, void* dst, std::int64_t n,
               std::int64_t first) {
  if (stage.kind == core::ProcessStageKind::kConvert) {
    core::convert_elements(src, stage.from, dst, stage.to, n);
  } else if (stage.from == DataType::kUInt8) {
    normalize_block(static_cast<const std::uint8_t*>(src), static_cast<float*>(dst), n, first,
                    stage);
  } else {
    normalize_block(static_cast<const float*>(src), static_cast<float*>(dst), n, first, stage);
  }
}

}  // namespace

void process(const core::ProcessPlan& plan, const core::ProcessBuffers& buffers) {
  const std::int64_t n = plan.elements;
  if (n <= 0) return;
  const std::size_t in_size = type_size(plan.in_type);
  const std::size_t out_size = type_size(plan.out_type);
  const auto* in = static_cast<const std::uint8_t*>(buffers.in);
  auto* out = static_cast<std::uint8_t*>(buffers.out);
  const bool stream = static_cast<std::int64_t>(out_size) * n >= kStreamOutputBytes;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  const auto stages = static_cast<std::int64_t>(plan.stages.size());
  const double ns_per_block =
      static_cast<double>(kBlock) *
      (kNsPerElement +
       kNsPerStageElement * static_cast<double>(std::max<std::int64_t>(0, stages - 1)));
  core::parallel_for_chunks(
      blocks, core::min_chunk_for(ns_per_block), [&](int, std::int64_t begin, std::int64_t end) {
        // Two scratch blocks of the widest dtype, line-aligned for the streamed copy.
        alignas(64) std::uint8_t scratch[2][kBlock * 8];
        for (std::int64_t b = begin; b < end; ++b) {
          const std::int64_t first = b * kBlock;
          const std::int64_t len = std::min(kBlock, n - first);
          std::uint8_t* target = out + static_cast<std::size_t>(first) * out_size;
          const void* src = in + static_cast<std::size_t>(first) * in_size;
          if (stages == 0) {  // every step an identity for this dtype: a copy
            if (stream) {
              copy_streaming(target, src, static_cast<std::size_t>(len) * out_size);
            } else {
              std::memcpy(target, src, static_cast<std::size_t>(len) * out_size);
            }
            continue;
          }
          for (std::int64_t s = 0; s < stages; ++s) {
            void* dst = (s == stages - 1 && !stream) ? static_cast<void*>(target)
                                                     : static_cast<void*>(scratch[s % 2]);
            run_stage(plan.stages[static_cast<std::size_t>(s)], src, dst, len, first);
            src = dst;
          }
          if (stream) copy_streaming(target, src, static_cast<std::size_t>(len) * out_size);
        }
        if (stream) streaming_fence();
      });
}

}  // namespace tensorbuf::cpu
