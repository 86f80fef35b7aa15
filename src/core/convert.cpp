#include "core/convert.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_SSE2)
#include <emmintrin.h>
#endif

#include "core/convert_backends.hpp"
#include "core/dtype_dispatch.hpp"
#include "core/parallel.hpp"

namespace tensorbuf::core {
namespace {

constexpr std::int64_t kMinChunk = 1 << 16;
static_assert(sizeof(float16) == 2 && std::is_standard_layout_v<float16>);
static_assert(sizeof(bfloat16) == 2 && std::is_standard_layout_v<bfloat16>);

// float -> uint8, the hot path of image pipelines: the same rule as convert_element (clamp to
// [0, 255], truncate, NaN -> 0; clamping in float equals clamping in double for float inputs)
// written branch-free so that the compiler vectorises it (max/min, truncating convert, pack).
inline std::uint8_t float_to_uint8_element(float x) {
  x = x > 0.0f ? x : 0.0f;  // NaN compares false: 0
  x = x < 255.0f ? x : 255.0f;
  return static_cast<std::uint8_t>(static_cast<std::int32_t>(x));
}

// Ranges this long write far more than the caches hold: their output goes around the caches
// (non-temporal stores), which saves the read-for-ownership of every output line.
constexpr std::int64_t kStreamingElements = std::int64_t{1} << 20;

void float_to_uint8(const float* src, std::uint8_t* dst, std::int64_t begin, std::int64_t end) {
  std::int64_t i = begin;
#if defined(TENSORBUF_ISA_SSE2)
  if (end - begin >= kStreamingElements) {
    for (; i < end && reinterpret_cast<std::uintptr_t>(dst + i) % 16 != 0; ++i) {
      dst[i] = float_to_uint8_element(src[i]);
    }
    const __m128 zero = _mm_setzero_ps();
    const __m128 top = _mm_set1_ps(255.0f);
    // _mm_max_ps(x, 0) returns its second operand for NaN: 0, as the scalar rule.
    auto clamp = [&](const float* p) {
      return _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(_mm_loadu_ps(p), zero), top));
    };
    for (; i + 16 <= end; i += 16) {
      const __m128i lo = _mm_packs_epi32(clamp(src + i), clamp(src + i + 4));
      const __m128i hi = _mm_packs_epi32(clamp(src + i + 8), clamp(src + i + 12));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), _mm_packus_epi16(lo, hi));
    }
    _mm_sfence();  // the streamed stores are visible before the caller reads the buffer
  }
#endif
  for (; i < end; ++i) dst[i] = float_to_uint8_element(src[i]);
}

template <class To, class From>
void convert_range(const From* src, To* dst, bool src_is_bool, bool dst_is_bool,
                   std::int64_t begin, std::int64_t end) {
  if constexpr (std::is_same_v<From, float> && std::is_same_v<To, std::uint8_t>) {
    if (!dst_is_bool) {
      float_to_uint8(src, dst, begin, end);
      return;
    }
  }
  // float16 and bfloat16 are a single std::uint16_t (standard layout): their bits are written.
  if constexpr (std::is_same_v<From, float> && std::is_same_v<To, float16>) {
    cpu::float_to_half_bits(src, reinterpret_cast<std::uint16_t*>(dst), begin, end);
    return;
  }
  if constexpr (std::is_same_v<From, float> && std::is_same_v<To, bfloat16>) {
    cpu::float_to_bfloat16_bits(src, reinterpret_cast<std::uint16_t*>(dst), begin, end);
    return;
  }
  if (dst_is_bool) {
    // Nonzero (NaN included) is true; compared in the source's own type.
    for (std::int64_t i = begin; i < end; ++i) {
      dst[i] = static_cast<To>(widen(src[i]) != 0 ? 1 : 0);
    }
  } else if (src_is_bool) {
    for (std::int64_t i = begin; i < end; ++i) {
      dst[i] = convert_element<To>(static_cast<std::uint8_t>(widen(src[i]) != 0 ? 1 : 0));
    }
  } else {
    for (std::int64_t i = begin; i < end; ++i) dst[i] = convert_element<To>(src[i]);
  }
}

}  // namespace

void convert_elements(const void* src, DataType src_type, void* dst, DataType dst_type,
                      std::int64_t n) {
  if (n <= 0) return;
  if (src_type == dst_type) {
    std::memcpy(dst, src, static_cast<std::size_t>(n) * type_size(src_type));
    return;
  }
  const bool src_is_bool = src_type == DataType::kBool;
  const bool dst_is_bool = dst_type == DataType::kBool;
  dispatch_type(src_type, [&](auto src_tag) {
    using From = typename decltype(src_tag)::type;
    dispatch_type(dst_type, [&](auto dst_tag) {
      using To = typename decltype(dst_tag)::type;
      convert_range(static_cast<const From*>(src), static_cast<To*>(dst), src_is_bool,
                    dst_is_bool, 0, n);
    });
  });
}

void convert_buffer(const void* src, DataType src_type, void* dst, DataType dst_type,
                    std::int64_t n) {
  if (n <= 0) return;
  if (src_type == dst_type) {
    std::memcpy(dst, src, static_cast<std::size_t>(n) * type_size(src_type));
    return;
  }
  const bool src_is_bool = src_type == DataType::kBool;
  const bool dst_is_bool = dst_type == DataType::kBool;
  dispatch_type(src_type, [&](auto src_tag) {
    using From = typename decltype(src_tag)::type;
    dispatch_type(dst_type, [&](auto dst_tag) {
      using To = typename decltype(dst_tag)::type;
      parallel_for(n, kMinChunk, [&](std::int64_t begin, std::int64_t end) {
        convert_range(static_cast<const From*>(src), static_cast<To*>(dst), src_is_bool,
                      dst_is_bool, begin, end);
      });
    });
  });
}

}  // namespace tensorbuf::core
