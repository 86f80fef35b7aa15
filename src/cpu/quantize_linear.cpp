// quantize_linear on the CPU: y = saturate(round_half_even(x / s) + z) per run of one channel's
// elements, NaN -> z. The portable loop is the rule as written; the AVX-512 loop does the same
// IEEE operations 16 at a time (division and rounding in the current rounding mode, round to
// nearest even by default, as nearbyint), so the same bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

// One thread of the dev VM, float32 -> uint8 from memory: ~0.1 ns per element with AVX-512;
// the portable loop several times that.
constexpr double kNsPerElement = 0.15;

template <class Real, class Out>
void quantize_portable(const Real* x, Out* y, std::int64_t n, Real s, Real z) {
  constexpr double lo = std::numeric_limits<Out>::min();
  constexpr double hi = std::numeric_limits<Out>::max();
  for (std::int64_t i = 0; i < n; ++i) {
    const Real q = std::nearbyint(x[i] / s) + z;  // default mode: half to even
    const double v = std::isnan(q) ? static_cast<double>(z) : static_cast<double>(q);
    y[i] = static_cast<Out>(std::clamp(v, lo, hi));
  }
}

#if defined(TENSORBUF_ISA_X86_64)
// q is integral or +-inf (or NaN, replaced by z first); the bounds are exact in float, so
// clamping in float equals the portable loop's clamping in double, and the truncating convert
// of a clamped q is exact.
template <class Out>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void quantize_avx512(const float* x, Out* y,
                                                                          std::int64_t n, float s,
                                                                          float z) {
  const __mmask16 all =
      0xffff;  // maskz forms: g++ 12 warns on the plain forms (see processing.cpp)
  const __m512 scale = _mm512_set1_ps(s);
  const __m512 zero = _mm512_set1_ps(z);
  const __m512 lo = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Out>::min()));
  const __m512 hi = _mm512_set1_ps(static_cast<float>(std::numeric_limits<Out>::max()));
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 q = _mm512_div_ps(_mm512_loadu_ps(x + i), scale);
    q = _mm512_maskz_roundscale_ps(all, q, _MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC);
    q = _mm512_add_ps(q, zero);
    q = _mm512_mask_mov_ps(q, _mm512_cmp_ps_mask(q, q, _CMP_UNORD_Q), zero);
    q = _mm512_maskz_min_ps(all, _mm512_maskz_max_ps(all, q, lo), hi);
    const __m512i v = _mm512_maskz_cvttps_epi32(all, q);
    if constexpr (sizeof(Out) == 1) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_maskz_cvtepi32_epi8(all, v));
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm512_maskz_cvtepi32_epi16(all, v));
    }
  }
  quantize_portable(x + i, y + i, n - i, s, z);
}
#endif

template <class Real, class Out>
void quantize_span(const Real* x, Out* y, std::int64_t n, Real s, Real z,
                   [[maybe_unused]] bool avx512) {
#if defined(TENSORBUF_ISA_X86_64)
  if constexpr (std::is_same_v<Real, float>) {
    if (avx512) return quantize_avx512(x, y, n, s, z);
  }
#endif
  quantize_portable(x, y, n, s, z);
}

// Over [begin, end): runs of `inner` elements share a channel, (i / inner) % channels.
template <class Real, class Out>
void quantize_range(const Real* x, Out* y, std::int64_t begin, std::int64_t end,
                    const core::LinearPlan& plan, const std::vector<Real>& scale,
                    const std::vector<Real>& zero, bool avx512) {
  if (plan.channels == 1)
    return quantize_span(x + begin, y + begin, end - begin, scale[0], zero[0], avx512);
  std::int64_t i = begin;
  while (i < end) {
    const std::int64_t outer = i / plan.inner;
    const auto c = static_cast<std::size_t>(outer % plan.channels);
    const std::int64_t run_end = std::min(end, (outer + 1) * plan.inner);
    quantize_span(x + i, y + i, run_end - i, scale[c], zero[c], avx512);
    i = run_end;
  }
}

template <class Real, class Out>
void quantize_all(const Real* x, Out* y, const core::LinearPlan& plan) {
  const std::vector<Real> scale(plan.scale.begin(), plan.scale.end());
  const std::vector<Real> zero(plan.zero_point.begin(), plan.zero_point.end());
  const bool avx512 = cpu_features().avx512bw;
  core::parallel_for_chunks(plan.elements, core::min_chunk_for(kNsPerElement),
                            [&](int, std::int64_t begin, std::int64_t end) {
                              quantize_range(x, y, begin, end, plan, scale, zero, avx512);
                            });
}

template <class Real>
void quantize_to(const Real* x, void* y, const core::LinearPlan& plan) {
  switch (plan.y_type) {
    case DataType::kUInt8:
      return quantize_all(x, static_cast<std::uint8_t*>(y), plan);
    case DataType::kInt8:
      return quantize_all(x, static_cast<std::int8_t*>(y), plan);
    default:
      return quantize_all(x, static_cast<std::int16_t*>(y), plan);
  }
}

}  // namespace

void quantize_linear(const core::LinearPlan& plan, const core::LinearBuffers& buffers) {
  if (plan.elements <= 0) return;
  if (plan.x_type == DataType::kFloat64) {
    quantize_to(static_cast<const double*>(buffers.x), buffers.y, plan);
  } else {
    quantize_to(static_cast<const float*>(buffers.x), buffers.y, plan);
  }
}

}  // namespace tensorbuf::cpu
