#include "core/convert.hpp"

#include <cstring>

#include "core/dtype_dispatch.hpp"
#include "core/parallel.hpp"

namespace tensorbuf::core {
namespace {

constexpr std::int64_t kMinChunk = 1 << 16;

// float -> uint8, the hot path of image pipelines: the same rule as convert_element (clamp to
// [0, 255], truncate, NaN -> 0; clamping in float equals clamping in double for float inputs)
// written branch-free so that the compiler vectorises it (max/min, truncating convert, pack).
void float_to_uint8(const float* src, std::uint8_t* dst, std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) {
    float x = src[i];
    x = x > 0.0f ? x : 0.0f;  // NaN compares false: 0
    x = x < 255.0f ? x : 255.0f;
    dst[i] = static_cast<std::uint8_t>(static_cast<std::int32_t>(x));
  }
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
