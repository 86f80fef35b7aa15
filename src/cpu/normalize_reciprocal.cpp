// The division-free uint8 normalize (normalize_reciprocal.hpp). With r = float(1 / s), q0 = n r
// is within an ulp or two of n / s, e = n - q0 s is then exact (one FMA), and q0 + e r (another)
// is the correctly rounded quotient except near overflow, underflow, a zero or infinite s, NaNs
// and rare ties. Rather than argue those away, each channel's 256 numerators (a uint8 input
// gives float(x) - mean only 256 values) are run through both forms by the very instructions of
// the loop; a step whose every channel agrees bit for bit takes the form (a multiply and two
// FMAs, against vdivps, which bounds the direct loop), any other keeps the division. A float16
// output needs less: only the float16 rounding of the quotient is kept, and the bare product
// n * r, within an ulp of the quotient in float32, mostly rounds to the same float16; where it
// does for all 256 numerators of every channel (checked the same way, vcvtps2ph of both), the
// loop is a multiply (the correction was most of its arithmetic after vcvtps2ph).
#include "cpu/normalize_reciprocal.hpp"

#include <atomic>
#include <cstddef>
#include <numeric>

#include "cpu/cpu_features.hpp"
#include "cpu/processing_tuning.hpp"
#include "kernels/processing.hpp"
#include "tensorbuf/half.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>
#endif

namespace tensorbuf::cpu {
namespace {

std::atomic<ProcessDivideUse> g_divide_use{ProcessDivideUse::kAuto};

#if defined(TENSORBUF_ISA_X86_64)
#define TENSORBUF_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

// n / s from r = 1 / s: the product and its FMA correction (explicit FMAs, so no contraction
// can change the checked sequence).
TENSORBUF_AVX512 inline __m512 divide_by_reciprocal(__m512 n, __m512 s, __m512 r) {
  const __m512 q0 = _mm512_mul_ps(n, r);
  const __m512 e = _mm512_fnmadd_ps(q0, s, n);
  return _mm512_fmadd_ps(e, r, q0);
}

// Every uint8 input x of one channel: the form's bits against vdivps's.
TENSORBUF_AVX512 bool reciprocal_exact(float mean, float stddev, float recip) {
  const __mmask16 all = 0xffff;
  const __m512 m = _mm512_set1_ps(mean);
  const __m512 s = _mm512_set1_ps(stddev);
  const __m512 r = _mm512_set1_ps(recip);
  const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (int first = 0; first < 256; first += 16) {
    const __m512 x =
        _mm512_maskz_cvtepi32_ps(all, _mm512_add_epi32(lanes, _mm512_set1_epi32(first)));
    const __m512 n = _mm512_sub_ps(x, m);
    const __m512i by_division = _mm512_castps_si512(_mm512_div_ps(n, s));
    const __m512i by_reciprocal = _mm512_castps_si512(divide_by_reciprocal(n, s, r));
    if (_mm512_cmpneq_epi32_mask(by_division, by_reciprocal) != 0) return false;
  }
  return true;
}

// Every uint8 input x of one channel: the bare product's float16 bits against the division's.
TENSORBUF_AVX512 bool half_product_exact(float mean, float stddev, float recip) {
  const __mmask16 all = 0xffff;
  const __m512 m = _mm512_set1_ps(mean);
  const __m512 s = _mm512_set1_ps(stddev);
  const __m512 r = _mm512_set1_ps(recip);
  const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  for (int first = 0; first < 256; first += 16) {
    const __m512 x =
        _mm512_maskz_cvtepi32_ps(all, _mm512_add_epi32(lanes, _mm512_set1_epi32(first)));
    const __m512 n = _mm512_sub_ps(x, m);
    const __m256i by_division = _mm512_maskz_cvtps_ph(all, _mm512_div_ps(n, s), kRound);
    const __m256i by_product = _mm512_maskz_cvtps_ph(all, _mm512_mul_ps(n, r), kRound);
    if (_mm256_cmpneq_epi16_mask(by_division, by_product) != 0) return false;
  }
  return true;
}

// 16 outputs from 16 input bytes (Product: the bare product, float16 outputs only).
template <bool Product = false, class To>
TENSORBUF_AVX512 inline void step16(const std::uint8_t* x, To* y, __m512 mean, __m512 stddev,
                                    __m512 recip) {
  // The maskz forms with a full mask: g++ 12 warns that the plain forms' undefined source is
  // uninitialised (as in convert_half.cpp).
  const __mmask16 all = 0xffff;
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x));
  const __m512 v = _mm512_maskz_cvtepi32_ps(all, _mm512_maskz_cvtepu8_epi32(all, bytes));
  const __m512 n = _mm512_sub_ps(v, mean);
  const __m512 q = Product ? _mm512_mul_ps(n, recip) : divide_by_reciprocal(n, stddev, recip);
  if constexpr (sizeof(To) == 4) {
    _mm512_storeu_ps(y, q);
  } else {
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(y),
        _mm512_maskz_cvtps_ph(all, q, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
}

// The lanes' channels repeat every K vectors (K = C / gcd(C, 16)): for K of 1 or 3 (1, 2, 4, 8,
// 16, 3, 6, 12 channels) the parameters stay in registers, as loading three streams of them
// bounds the loop on CPUs with one 512-bit load a cycle (Zen 4).
template <int K, bool Product, class To>
TENSORBUF_AVX512 std::int64_t by_reciprocal_registers(const std::uint8_t* x, To* y, std::int64_t n,
                                                      const float* mean, const float* stddev,
                                                      const float* recip) {
  __m512 m[K];
  __m512 s[K];
  __m512 r[K];
  for (int k = 0; k < K; ++k) {
    m[k] = _mm512_loadu_ps(mean + 16 * k);
    s[k] = _mm512_loadu_ps(stddev + 16 * k);
    r[k] = _mm512_loadu_ps(recip + 16 * k);
  }
  std::int64_t j = 0;
  for (; j + 16 * K <= n; j += 16 * K) {
    for (int k = 0; k < K; ++k) {
      step16<Product>(x + j + 16 * k, y + j + 16 * k, m[k], s[k], r[k]);
    }
  }
  return j;
}

template <bool Product, class To>
TENSORBUF_AVX512 void by_reciprocal(const std::uint8_t* x, To* y, std::int64_t n,
                                    std::int64_t channels, const float* mean, const float* stddev,
                                    const float* recip) {
  std::int64_t j = 0;
  const std::int64_t k = channels / std::gcd(channels, std::int64_t{16});
  if (k == 1 && n >= 16) j = by_reciprocal_registers<1, Product>(x, y, n, mean, stddev, recip);
  if (k == 3 && n >= 48) j = by_reciprocal_registers<3, Product>(x, y, n, mean, stddev, recip);
  for (; j + 16 <= n; j += 16) {
    step16<Product>(x + j, y + j, _mm512_loadu_ps(mean + j), _mm512_loadu_ps(stddev + j),
                    _mm512_loadu_ps(recip + j));
  }
  // The tail by the division: the same bits where the form was checked.
  for (; j < n; ++j) {
    const float q = kernels::normalize_element(static_cast<float>(x[j]), mean[j], stddev[j]);
    if constexpr (sizeof(To) == 4) {
      y[j] = q;
    } else {
      y[j] = detail::float_to_half_bits(q);
    }
  }
}
#undef TENSORBUF_AVX512
#endif

}  // namespace

void set_process_divide_use(ProcessDivideUse use) {
  g_divide_use.store(use, std::memory_order_relaxed);
}

bool normalize_half_product_exact([[maybe_unused]] float mean, [[maybe_unused]] float stddev) {
#if defined(TENSORBUF_ISA_X86_64)
  if (cpu_features().avx512bw) return half_product_exact(mean, stddev, 1.0f / stddev);
#endif
  return false;
}

bool normalize_reciprocal_exact([[maybe_unused]] float mean, [[maybe_unused]] float stddev) {
#if defined(TENSORBUF_ISA_X86_64)
  if (cpu_features().avx512bw) return reciprocal_exact(mean, stddev, 1.0f / stddev);
#endif
  return false;
}

NormalizeReciprocals check_normalize_reciprocals(const core::ProcessStage& stage, bool avx512) {
  NormalizeReciprocals reciprocals;
  if (!avx512 || stage.from != DataType::kUInt8 ||
      stage.kind != core::ProcessStageKind::kNormalize) {
    return reciprocals;
  }
#if defined(TENSORBUF_ISA_X86_64)
  std::vector<float>& recip = reciprocals.values;
  recip.resize(static_cast<std::size_t>(stage.period));
  // The period repeats the first `channels` values: one division each.
  const auto channels = static_cast<std::size_t>(stage.channels);
  for (std::size_t k = 0; k < recip.size(); ++k) {
    recip[k] = k < channels ? 1.0f / stage.stddevs[k] : recip[k - channels];
  }
  reciprocals.exact = true;
  reciprocals.half_exact = stage.to == DataType::kFloat16;
  for (std::int64_t c = 0; c < stage.channels; ++c) {
    const float r = recip[static_cast<std::size_t>(c)];
    reciprocals.exact = reciprocals.exact && reciprocal_exact(stage.means[c], stage.stddevs[c], r);
    reciprocals.half_exact =
        reciprocals.half_exact && half_product_exact(stage.means[c], stage.stddevs[c], r);
  }
#endif
  return reciprocals;
}

NormalizeForm normalize_form_to_use(const NormalizeReciprocals& reciprocals) {
  if (reciprocals.values.empty()) return {};
  const float* recip = reciprocals.values.data();
  switch (g_divide_use.load(std::memory_order_relaxed)) {
    case ProcessDivideUse::kNever:
      return {};
    case ProcessDivideUse::kUnchecked:
      return {recip, false};
    case ProcessDivideUse::kAuto:
      break;
  }
  if (reciprocals.half_exact) return {recip, true};
  return reciprocals.exact ? NormalizeForm{recip, false} : NormalizeForm{};
}

bool normalize_check_pays(std::int64_t elements, std::int64_t channels) {
  // The check costs 256 divisions a channel: no more than the run's own.
  return g_divide_use.load(std::memory_order_relaxed) != ProcessDivideUse::kAuto ||
         elements >= 256 * channels;
}

#if defined(TENSORBUF_ISA_X86_64)
void normalize_u8_by_reciprocal(const std::uint8_t* x, float* y, std::int64_t n,
                                std::int64_t channels, const float* mean, const float* stddev,
                                const float* recip) {
  by_reciprocal<false>(x, y, n, channels, mean, stddev, recip);
}
void normalize_u8_by_reciprocal(const std::uint8_t* x, std::uint16_t* y, std::int64_t n,
                                std::int64_t channels, const float* mean, const float* stddev,
                                const float* recip) {
  by_reciprocal<false>(x, y, n, channels, mean, stddev, recip);
}
void normalize_u8_by_product(const std::uint8_t* x, std::uint16_t* y, std::int64_t n,
                             std::int64_t channels, const float* mean, const float* stddev,
                             const float* recip) {
  by_reciprocal<true>(x, y, n, channels, mean, stddev, recip);
}
#endif

}  // namespace tensorbuf::cpu
