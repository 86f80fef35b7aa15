// substr on the CPU: two passes over contiguous chunks of the output (ranges and chunk sums,
// then chunk bases, one output allocation and the copy), on core::parallel_for.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/dtype_dispatch.hpp"
#include "core/parallel.hpp"
#include "core/plan_substr.hpp"
#include "kernels/substr.hpp"

namespace tensorbuf::cpu {
namespace {

using kernels::ByteRange;
using kernels::SubstrMap;

constexpr std::int64_t kMinChunk = 1 << 14;
constexpr std::int64_t kPrefetchAhead = 8;

// Walks output elements in row-major order from `flat`, tracking the input and pos indices
// without a division per element.
class MapCursor {
 public:
  MapCursor(const SubstrMap& map, std::int64_t flat) : map_(map) {
    map.map(flat, &input_, &pos_);
    for (int d = map.rank - 1; d >= 0; --d) {
      digits_[d] = flat % map.dims[d];
      flat /= map.dims[d];
    }
  }
  std::int64_t input() const { return input_; }
  std::int64_t pos() const { return pos_; }
  void next() {
    for (int d = map_.rank - 1; d >= 0; --d) {
      input_ += map_.input_strides[d];
      pos_ += map_.pos_strides[d];
      if (++digits_[d] < map_.dims[d]) return;
      input_ -= map_.input_strides[d] * map_.dims[d];
      pos_ -= map_.pos_strides[d] * map_.dims[d];
      digits_[d] = 0;
    }
  }

 private:
  const SubstrMap& map_;
  std::int64_t input_ = 0;
  std::int64_t pos_ = 0;
  std::int64_t digits_[kernels::kSubstrMaxRank] = {};
};

// Calls body(i, input index, pos index) for i in [b, e) in order, returning early when body
// returns false. Rank 0 and 1 maps (same shapes, scalar pos or input) use two local strides.
template <class Body>
inline void for_each_element(const SubstrMap& map, std::int64_t b, std::int64_t e, Body&& body) {
  if (map.rank <= 1) {
    const std::int64_t in_stride = map.rank == 1 ? map.input_strides[0] : 0;
    const std::int64_t pos_stride = map.rank == 1 ? map.pos_strides[0] : 0;
    for (std::int64_t i = b; i < e; ++i) {
      if (!body(i, i * in_stride, i * pos_stride)) return;
    }
    return;
  }
  MapCursor cursor(map, b);
  for (std::int64_t i = b; i < e; ++i, cursor.next()) {
    if (!body(i, cursor.input(), cursor.pos())) return;
  }
}

// Short copies without a call: two overlapping loads cover 4..16 bytes.
inline void copy_bytes(std::uint8_t* dst, const std::uint8_t* src, std::int64_t n) {
  if (n <= 16) {
    if (n >= 8) {
      std::uint64_t a;
      std::uint64_t b;
      std::memcpy(&a, src, 8);
      std::memcpy(&b, src + n - 8, 8);
      std::memcpy(dst, &a, 8);
      std::memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
      std::uint32_t a;
      std::uint32_t b;
      std::memcpy(&a, src, 4);
      std::memcpy(&b, src + n - 4, 4);
      std::memcpy(dst, &a, 4);
      std::memcpy(dst + n - 4, &b, 4);
    } else {
      for (std::int64_t j = 0; j < n; ++j) dst[j] = src[j];
    }
    return;
  }
  std::memcpy(dst, src, static_cast<std::size_t>(n));
}

struct ChunkState {
  std::int64_t total = 0;
  std::int64_t first_bad = -1;
};

template <class Index, bool kUtf8, bool kError>
core::SubstrResult run(const core::SubstrPlan& plan, const core::SubstrArgs& args) {
  const std::int64_t n = plan.out_size;
  const std::int64_t* in_offsets = args.in_offsets;
  const std::uint8_t* in_chars = args.in_chars;
  const auto* pos = static_cast<const Index*>(args.pos);
  const auto* len = static_cast<const Index*>(args.len);
  std::int64_t* out_offsets = args.out_offsets;
  out_offsets[0] = 0;
  const int chunks = core::chunk_count(n, kMinChunk);
  std::vector<ChunkState> state(static_cast<std::size_t>(chunks));

  // Pass 1: each element's range. Its start (absolute in the input chars; -1 when dropped) is
  // parked in out_offsets[i + 1], which no one else reads before pass 2 overwrites it, so the
  // op needs no scratch; the chunk sums the sizes.
  core::parallel_for_chunks(n, kMinChunk, [&](int c, std::int64_t b, std::int64_t e) {
    // Locals, not captures: the byte stores below may alias anything reached by reference.
    const std::int64_t* const offs = in_offsets;
    const std::uint8_t* const chars = in_chars;
    const Index* const ps = pos;
    const Index* const ls = len;
    std::int64_t* const out = out_offsets;
    const std::int64_t in_size = plan.in_size;
    std::int64_t total = 0;
    std::int64_t first_bad = -1;
    for_each_element(plan.map, b, e, [&](std::int64_t i, std::int64_t in_i, std::int64_t pos_i) {
      const std::int64_t first = offs[in_i];
      const std::int64_t size = offs[in_i + 1] - first;
      const auto p = static_cast<std::int64_t>(ps[pos_i]);
      const auto l = static_cast<std::int64_t>(ls[pos_i]);
      ByteRange r;
      bool ok;
      if constexpr (kUtf8) {
        // Long strings: each element's first bytes are a fresh cache miss; fetch ahead.
        __builtin_prefetch(chars + offs[std::min(in_i + kPrefetchAhead, in_size)]);
        ok = kernels::utf8_range(chars + first, size, p, l, &r);
      } else {
        ok = kernels::byte_range(size, p, l, &r);
      }
      if (!ok) {
        if constexpr (kError) {
          first_bad = i;  // the first in this chunk; chunks are in row-major order
          return false;
        }
        out[i + 1] = -1;
        return true;
      }
      out[i + 1] = first + r.begin;
      total += r.end - r.begin;
      return true;
    });
    state[static_cast<std::size_t>(c)] = ChunkState{total, first_bad};
  });

  core::SubstrResult result;
  std::vector<std::int64_t> base(static_cast<std::size_t>(chunks));
  for (int c = 0; c < chunks; ++c) {
    const ChunkState& st = state[static_cast<std::size_t>(c)];
    if (kError && st.first_bad >= 0) {
      result.first_bad_index = st.first_bad;
      return result;
    }
    base[static_cast<std::size_t>(c)] = result.total_bytes;
    result.total_bytes += st.total;
  }
  std::uint8_t* out_chars = args.allocate_chars(result.total_bytes);

  // Pass 2: each element's end again from its start (UTF-8: a scan over its len characters
  // only), the copy, and the global offsets. A chunk touches only out_offsets(b, e].
  core::parallel_for_chunks(n, kMinChunk, [&](int c, std::int64_t b, std::int64_t e) {
    const std::int64_t* const offs = in_offsets;
    const std::uint8_t* const chars = in_chars;
    const Index* const ls = len;
    std::int64_t* const out = out_offsets;
    std::uint8_t* const dst = out_chars;
    std::int64_t at = base[static_cast<std::size_t>(c)];
    for_each_element(plan.map, b, e, [&](std::int64_t i, std::int64_t in_i, std::int64_t pos_i) {
      const std::int64_t start = out[i + 1];
      if (start >= 0) {
        const std::int64_t first = offs[in_i];
        const std::int64_t size = offs[in_i + 1] - first;
        const std::int64_t begin = start - first;
        const auto l = static_cast<std::int64_t>(ls[pos_i]);
        std::int64_t end;
        if constexpr (kUtf8) {
          end = kernels::is_short_ascii(chars + first, size)
                    ? ((l < 0 || l >= size - begin) ? size : begin + l)
                    : kernels::utf8_advance(chars + first, size, begin, l);
        } else {
          end = (l < 0 || l >= size - begin) ? size : begin + l;
        }
        copy_bytes(dst + at, chars + start, end - begin);
        at += end - begin;
      }
      out[i + 1] = at;
      return true;
    });
  });
  return result;
}

}  // namespace

core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrArgs& args) {
  if (plan.out_size == 0) {
    args.out_offsets[0] = 0;
    args.allocate_chars(0);
    return {};
  }
  const bool utf8 = plan.unit == SubstrUnit::kUtf8Char;
  const bool error = plan.policy == OutOfBoundsPolicy::kError;
  return core::dispatch_index_type(plan.index_type, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    if (utf8) {
      return error ? run<Index, true, true>(plan, args) : run<Index, true, false>(plan, args);
    }
    return error ? run<Index, false, true>(plan, args) : run<Index, false, false>(plan, args);
  });
}

}  // namespace tensorbuf::cpu
