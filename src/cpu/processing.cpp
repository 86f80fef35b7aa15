// The fused Processor on the CPU. The elements are cut into blocks of kProcessBlock; a block
// goes through every stage before the next one starts: the first stage reads the input, each
// stage writes its result (rounded to its dtype) into one of two cache-resident scratch blocks
// on the stack, and the last one writes the output (or a scratch block then streamed out with
// non-temporal stores when the output is far beyond the caches). So memory is read once and
// written once, and each stage's loop is a plain vectorisable loop over one block.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "core/convert.hpp"
#include "core/convert_backends.hpp"
#include "core/isa.hpp"
#include "core/parallel.hpp"
#include "core/processing_backends.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/streaming_copy.hpp"
#include "kernels/processing.hpp"
#include "tensorbuf/half.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>
#endif

namespace tensorbuf::cpu {
namespace {

constexpr std::int64_t kBlock = core::kProcessBlock;

// Measured on one thread of the dev VM (uint8 -> normalize -> float32 from memory): ~0.35 ns
// per element, plus ~0.25 ns per element for each further stage.
constexpr double kNsPerElement = 0.35;
constexpr double kNsPerStageElement = 0.25;

// y[j] = normalize(float32(x[j])) over one run of means and stddevs; x and y never overlap
// (the stages write the other scratch block, run_into computes aliased outputs apart).
template <class From>
[[gnu::always_inline]] inline void normalize_span(const From* __restrict x, float* __restrict y,
                                                  std::int64_t n, const float* __restrict mean,
                                                  const float* __restrict stddev) {
  for (std::int64_t j = 0; j < n; ++j) {
    y[j] = kernels::normalize_element(static_cast<float>(x[j]), mean[j], stddev[j]);
  }
}

template <class From>
[[gnu::always_inline]] inline void normalize_scalar(const From* __restrict x, float* __restrict y,
                                                    std::int64_t n, float mean, float stddev) {
  for (std::int64_t j = 0; j < n; ++j) {
    y[j] = kernels::normalize_element(static_cast<float>(x[j]), mean, stddev);
  }
}

// The loops above compiled for AVX-512 (16 lanes a division) where the CPU has it: a block's
// arithmetic is then well under its memory time. Same IEEE operations, so the same bits.
#if defined(TENSORBUF_ISA_X86_64)
// (g++ uses 256-bit vectors for AVX-512 unless told; clang has no such target option.)
#if defined(__clang__)
#define TENSORBUF_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))
#else
#define TENSORBUF_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,prefer-vector-width=512")))
#endif
template <class From>
TENSORBUF_AVX512 void normalize_span_avx512(const From* x, float* y, std::int64_t n,
                                            const float* mean, const float* stddev) {
  normalize_span(x, y, n, mean, stddev);
}
template <class From>
TENSORBUF_AVX512 void normalize_scalar_avx512(const From* x, float* y, std::int64_t n, float mean,
                                              float stddev) {
  normalize_scalar(x, y, n, mean, stddev);
}
#undef TENSORBUF_AVX512
#endif

#if defined(TENSORBUF_ISA_X86_64)
// normalize_span with each float32 result rounded to float16 (vcvtps2ph: round to nearest even,
// overflow to inf, NaN quieted keeping its payload's top bits, the rule of float16(float) and of
// convert_half.cpp's F16C path, bit for bit) and stored as such: the chain's float16 pipeline
// in one loop.
template <class From>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void normalize_half_avx512(
    const From* x, std::uint16_t* y, std::int64_t n, const float* mean, const float* stddev) {
  // The maskz forms with a full mask: g++ 12 warns that the plain forms' undefined source is
  // uninitialised (as in convert_half.cpp).
  const __mmask16 all = 0xffff;
  std::int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 v;
    if constexpr (std::is_same_v<From, std::uint8_t>) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + j));
      v = _mm512_maskz_cvtepi32_ps(all, _mm512_maskz_cvtepu8_epi32(all, bytes));
    } else {
      v = _mm512_loadu_ps(x + j);
    }
    v = _mm512_div_ps(_mm512_sub_ps(v, _mm512_loadu_ps(mean + j)), _mm512_loadu_ps(stddev + j));
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(y + j),
        _mm512_maskz_cvtps_ph(all, v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  for (; j < n; ++j) {
    y[j] = detail::float_to_half_bits(
        kernels::normalize_element(static_cast<float>(x[j]), mean[j], stddev[j]));
  }
}
#endif

// y[j] = To(normalize(float32(x[j]))), To float32 or float16 (as its bits), for the n elements of
// a block starting at global index `first`.
template <class From, class To>
void normalize_block(const From* x, To* y, std::int64_t n, std::int64_t first,
                     const core::ProcessStage& stage, [[maybe_unused]] bool avx512) {
  if constexpr (std::is_same_v<To, float>) {
    if (stage.channels == 1) {
#if defined(TENSORBUF_ISA_X86_64)
      if (avx512) return normalize_scalar_avx512(x, y, n, stage.means[0], stage.stddevs[0]);
#endif
      return normalize_scalar(x, y, n, stage.means[0], stage.stddevs[0]);
    }
  }
  // The repeated means start at any channel and cover a whole block (period_for), so one
  // segment does it; channels longer than a block wrap at the end of the period.
  std::int64_t phase = first % stage.channels;
  while (n > 0) {
    const std::int64_t len = std::min(n, stage.period - phase);
    const float* mean = stage.means + phase;
    const float* stddev = stage.stddevs + phase;
    if constexpr (std::is_same_v<To, float>) {
#if defined(TENSORBUF_ISA_X86_64)
      if (avx512) {
        normalize_span_avx512(x, y, len, mean, stddev);
      } else {
        normalize_span(x, y, len, mean, stddev);
      }
#else
      normalize_span(x, y, len, mean, stddev);
#endif
    } else {
#if defined(TENSORBUF_ISA_X86_64)
      if (avx512) {
        normalize_half_avx512(x, y, len, mean, stddev);
      } else
#endif
      {
        alignas(64) float block[kBlock];
        normalize_span(x, block, len, mean, stddev);
        float_to_half_bits(block, y, 0, len);  // convert_elements' float -> float16
      }
    }
    x += len;
    y += len;
    n -= len;
    phase = 0;
  }
}

template <class From>
void normalize_stage(const core::ProcessStage& stage, const From* src, void* dst, std::int64_t n,
                     std::int64_t first, bool avx512) {
  if (stage.to == DataType::kFloat16) {
    normalize_block(src, static_cast<std::uint16_t*>(dst), n, first, stage, avx512);
  } else {
    normalize_block(src, static_cast<float*>(dst), n, first, stage, avx512);
  }
}

void run_stage(const core::ProcessStage& stage, const void* src, void* dst, std::int64_t n,
               std::int64_t first, bool avx512) {
  if (stage.kind == core::ProcessStageKind::kConvert) {
    core::convert_elements(src, stage.from, dst, stage.to, n);
  } else if (stage.from == DataType::kUInt8) {
    normalize_stage(stage, static_cast<const std::uint8_t*>(src), dst, n, first, avx512);
  } else {
    normalize_stage(stage, static_cast<const float*>(src), dst, n, first, avx512);
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
  const bool avx512 = cpu_features().avx512bw;
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
            run_stage(plan.stages[static_cast<std::size_t>(s)], src, dst, len, first, avx512);
            src = dst;
          }
          if (stream) copy_streaming(target, src, static_cast<std::size_t>(len) * out_size);
        }
        if (stream) streaming_fence();
      });
}

}  // namespace tensorbuf::cpu
