// substr's byte-unit offsets in one scan (SubstrByteOffsets::kScanOfSizes): the scan reads each
// element's size and out-of-range flag as it computes them from the strings' offsets and
// pos/len, and stores the output offsets, the begins, and the total with the first bad index
// (the one host read) as it writes its results. That replaces a fill, the sizes pass and the
// tail pass of the default (launches per call: docs/substr.md, "CUDA passes").
#pragma once

#include <cstdint>

#include "kernels/config.hpp"
#include "kernels/substr_map.hpp"
#include "kernels/substr_rules.hpp"

namespace tensorbuf::kernels {

// The scanned value: output bytes, and the smallest bad element index (kNoBadIndex: none).
struct SizeAndBad {
  std::int64_t size;
  std::int64_t first_bad;
};

inline constexpr std::int64_t kNoBadIndex = INT64_MAX;

// The scan's operator: sizes add, bad indices take the smallest (associative, with identity
// {0, kNoBadIndex}).
struct AddSizesMinBad {
  TENSORBUF_HOST_DEVICE SizeAndBad operator()(const SizeAndBad& a, const SizeAndBad& b) const {
    return {a.size + b.size, a.first_bad < b.first_bad ? a.first_bad : b.first_bad};
  }
};

// Element i's byte range (byte_range, spec rules 3-4); false when pos is out of range.
template <class Index>
TENSORBUF_HOST_DEVICE inline bool element_byte_range(const SubstrView<Index>& view, std::int64_t i,
                                                     std::int64_t* first, ByteRange* r) {
  std::int64_t in_i = 0;
  std::int64_t pos_i = 0;
  map_element(view.map, i, &in_i, &pos_i);
  *first = view.in_offsets[in_i];
  return byte_range(view.in_offsets[in_i + 1] - *first, static_cast<std::int64_t>(view.pos[pos_i]),
                    static_cast<std::int64_t>(view.len[pos_i]), r);
}

// The scan's input: element i's size (0 when out of range, kDrop's ""), and i as the bad index
// when out of range under kError; element n (one past the last) is the identity.
template <class Index>
struct ByteSizeOf {
  SubstrView<Index> view;
  std::int64_t n;
  bool report;
  TENSORBUF_HOST_DEVICE SizeAndBad operator()(std::int64_t i) const {
    if (i == n) return {0, kNoBadIndex};
    std::int64_t first = 0;
    ByteRange r;
    if (!element_byte_range(view, i, &first, &r)) return {0, report ? i : kNoBadIndex};
    return {r.end - r.begin, kNoBadIndex};
  }
};

// The scan's output, element i's exclusive prefix: out_offsets[i], begins[i] (absolute in the
// input chars; 0 out of range) and, at i = n, the tail [total, first bad] for one read.
template <class Index>
struct ByteOffsetsStore {
  SubstrView<Index> view;
  std::int64_t n;
  std::int64_t* out_offsets;
  std::int64_t* begins;
  std::int64_t* tail;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i, const SizeAndBad& before) const {
    out_offsets[i] = before.size;
    if (i == n) {
      tail[0] = before.size;
      tail[1] = before.first_bad;
      return;
    }
    std::int64_t first = 0;
    ByteRange r;
    begins[i] = element_byte_range(view, i, &first, &r) ? first + r.begin : 0;
  }
};

}  // namespace tensorbuf::kernels
