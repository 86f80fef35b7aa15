// dequantize_linear on the CPU: y = (float32(x) - float32(z)) * s in float32, two IEEE
// operations per element (no fused form exists for this order), so every loop below gives the
// bits of the rule as written. Channel runs of at least kMinRun elements take one (s, z) pair
// per run; shorter runs (a last or near-last axis) read s and z from tables repeating the
// period (inner * channels), indexed by i % their length, so no element divides; only runs
// too short for the one and periods too long for the other go run by run in short spans.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/isa.hpp"
#include "core/parallel.hpp"
#include "core/quantize_linear_backends.hpp"
#include "cpu/cpu_features.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>
#endif

namespace tensorbuf::cpu {
namespace {

// One thread of the dev VM, uint8 -> float32 from memory: memory bound (5 bytes an element).
constexpr double kNsPerElement = 0.15;
// Runs shorter than this use the period tables (when those are short enough).
constexpr std::int64_t kMinRun = 32;
// The longest table (lcm(inner * channels, 16) entries of s and of z: 64 KiB each, L2-resident).
constexpr std::int64_t kMaxTable = 16384;

template <class In>
void span_portable(const In* x, float* y, std::int64_t n, float s, float z) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = (static_cast<float>(x[i]) - z) * s;
}

#if defined(TENSORBUF_ISA_X86_64)
// 16 elements of x as int32 lanes (exact), then to float32 (int32 rounds to nearest even, as
// static_cast<float>).
template <class In>
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline __m512 load16(const In* x) {
  const __mmask16 all = 0xffff;  // maskz forms: g++ 12 warns on the plain forms (processing.cpp)
  __m512i v;
  if constexpr (sizeof(In) == 4) {
    v = _mm512_loadu_si512(x);
  } else if constexpr (sizeof(In) == 2) {
    v = _mm512_maskz_cvtepi16_epi32(all, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x)));
  } else if constexpr (std::is_signed_v<In>) {
    v = _mm512_maskz_cvtepi8_epi32(all, _mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
  } else {
    v = _mm512_maskz_cvtepu8_epi32(all, _mm_loadu_si128(reinterpret_cast<const __m128i*>(x)));
  }
  return _mm512_maskz_cvtepi32_ps(all, v);
}

template <class In>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void span_avx512(const In* x, float* y,
                                                                      std::int64_t n, float s,
                                                                      float z) {
  const __m512 scale = _mm512_set1_ps(s);
  const __m512 zero = _mm512_set1_ps(z);
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_sub_ps(load16(x + i), zero), scale));
  }
  span_portable(x + i, y + i, n - i, s, z);
}

// Element i reads scales[i % length] (the tables hold length + 16 entries, so 16 from any
// offset below length are there); length is a multiple of 16.
template <class In>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void periodic_avx512(
    const In* x, float* y, std::int64_t begin, std::int64_t end, const float* scales,
    const float* zeros, std::int64_t length) {
  std::int64_t o = begin % length;
  std::int64_t i = begin;
  for (; i + 16 <= end; i += 16) {
    const __m512 v = _mm512_sub_ps(load16(x + i), _mm512_loadu_ps(zeros + o));
    _mm512_storeu_ps(y + i, _mm512_mul_ps(v, _mm512_loadu_ps(scales + o)));
    o += 16;
    if (o >= length) o -= length;
  }
  for (; i < end; ++i, ++o) y[i] = (static_cast<float>(x[i]) - zeros[o]) * scales[o];
}
#endif

template <class In>
void span(const In* x, float* y, std::int64_t n, float s, float z, [[maybe_unused]] bool avx512) {
#if defined(TENSORBUF_ISA_X86_64)
  if (avx512) return span_avx512(x, y, n, s, z);
#endif
  span_portable(x, y, n, s, z);
}

template <class In>
void periodic(const In* x, float* y, std::int64_t begin, std::int64_t end, const float* scales,
              const float* zeros, std::int64_t length, [[maybe_unused]] bool avx512) {
#if defined(TENSORBUF_ISA_X86_64)
  if (avx512) return periodic_avx512(x, y, begin, end, scales, zeros, length);
#endif
  std::int64_t o = begin % length;
  for (std::int64_t i = begin; i < end; ++i) {
    y[i] = (static_cast<float>(x[i]) - zeros[o]) * scales[o];
    if (++o == length) o = 0;
  }
}

struct Params {
  std::vector<float> scale;
  std::vector<float> zero;
  // The period tables (empty unless used): entry o is channel (o % period) / inner's.
  std::vector<float> scales;
  std::vector<float> zeros;
  std::int64_t length = 0;
};

Params params(const core::LinearPlan& plan) {
  Params p;
  // float32(zero_point): int16 and smaller are exact; an int32 one is zero.
  p.scale.assign(plan.scale.begin(), plan.scale.end());
  p.zero.assign(plan.zero_point.begin(), plan.zero_point.end());
  const std::int64_t period = plan.inner * plan.channels;
  const std::int64_t length = std::lcm(period, std::int64_t{16});
  if (plan.channels > 1 && plan.inner < kMinRun && length <= kMaxTable && length <= plan.elements) {
    p.length = length;
    const auto size = static_cast<std::size_t>(p.length + 16);
    p.scales.resize(size);
    p.zeros.resize(size);
    for (std::size_t o = 0; o < size; ++o) {
      const auto c = static_cast<std::size_t>(static_cast<std::int64_t>(o) % period / plan.inner);
      p.scales[o] = p.scale[c];
      p.zeros[o] = p.zero[c];
    }
  }
  return p;
}

// Over [begin, end): runs of `inner` elements share a channel, (i / inner) % channels.
template <class In>
void range(const In* x, float* y, std::int64_t begin, std::int64_t end,
           const core::LinearPlan& plan, const Params& p, bool avx512) {
  if (plan.channels == 1) return span(x + begin, y + begin, end - begin, p.scale[0], p.zero[0], avx512);
  if (p.length > 0) return periodic(x, y, begin, end, p.scales.data(), p.zeros.data(), p.length, avx512);
  std::int64_t outer = begin / plan.inner;
  auto c = static_cast<std::size_t>(outer % plan.channels);
  const auto channels = static_cast<std::size_t>(plan.channels);
  std::int64_t i = begin;
  while (i < end) {
    const std::int64_t run_end = std::min(end, (outer + 1) * plan.inner);
    span(x + i, y + i, run_end - i, p.scale[c], p.zero[c], avx512);
    i = run_end;
    ++outer;
    if (++c == channels) c = 0;
  }
}

template <class In>
void dequantize_all(const In* x, float* y, const core::LinearPlan& plan) {
  const Params p = params(plan);
  const bool avx512 = cpu_features().avx512bw;
  core::parallel_for_chunks(plan.elements, core::min_chunk_for(kNsPerElement),
                            [&](int, std::int64_t begin, std::int64_t end) {
                              range(x, y, begin, end, plan, p, avx512);
                            });
}

}  // namespace

void dequantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers) {
  if (plan.elements <= 0) return;
  float* y = static_cast<float*>(buffers.y);
  switch (plan.x_type) {
    case DataType::kUInt8:
      return dequantize_all(static_cast<const std::uint8_t*>(buffers.x), y, plan);
    case DataType::kInt8:
      return dequantize_all(static_cast<const std::int8_t*>(buffers.x), y, plan);
    case DataType::kInt16:
      return dequantize_all(static_cast<const std::int16_t*>(buffers.x), y, plan);
    default:
      return dequantize_all(static_cast<const std::int32_t*>(buffers.x), y, plan);
  }
}

}  // namespace tensorbuf::cpu
