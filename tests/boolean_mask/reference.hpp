// The independent reference of the boolean_mask tests: NumPy's
// tensor[(slice(None),)*axis + (mask,)] on raw bytes, written out with full multi-indices (it
// shares no code with src/kernels or src/cpu), and its capacity-bounded form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tensorbuf::testing::masked {

struct Masked {
  std::vector<std::int64_t> shape;
  std::vector<std::uint8_t> bytes;
  std::int64_t count = 0;
};

// `mask` covers dims [axis, axis + mshape.size()) of tshape (the caller checked the shapes).
// `capacity` >= 0: the output has that many rows in the mask's place, `into` holding its
// previous bytes; rows past the count keep them, selected rows past the capacity are dropped.
inline Masked reference(const std::vector<std::uint8_t>& tensor,
                        const std::vector<std::int64_t>& tshape,
                        const std::vector<std::uint8_t>& mask,
                        const std::vector<std::int64_t>& mshape, std::size_t esize, int axis,
                        std::int64_t capacity = -1, const std::vector<std::uint8_t>& into = {}) {
  const int rank = static_cast<int>(tshape.size());
  const int k = static_cast<int>(mshape.size());
  std::vector<std::int64_t> rank_of(mask.size(), -1);
  Masked out;
  for (std::size_t m = 0; m < mask.size(); ++m) {
    if (mask[m] != 0) rank_of[m] = out.count++;
  }
  const std::int64_t rows = capacity >= 0 ? capacity : out.count;
  out.shape.assign(tshape.begin(), tshape.begin() + axis);
  out.shape.push_back(rows);
  out.shape.insert(out.shape.end(), tshape.begin() + axis + k, tshape.end());
  std::int64_t out_elements = 1;
  for (std::int64_t d : out.shape) out_elements *= d;
  out.bytes = capacity >= 0 ? into
                            : std::vector<std::uint8_t>(static_cast<std::size_t>(out_elements) *
                                                        esize);
  std::int64_t total = 1;
  for (std::int64_t d : tshape) total *= d;
  std::vector<std::int64_t> index(static_cast<std::size_t>(rank));
  for (std::int64_t e = 0; e < total; ++e) {
    std::int64_t rest = e;
    for (int d = rank - 1; d >= 0; --d) {
      index[static_cast<std::size_t>(d)] = rest % tshape[static_cast<std::size_t>(d)];
      rest /= tshape[static_cast<std::size_t>(d)];
    }
    std::int64_t m = 0;
    for (int i = 0; i < k; ++i) {
      m = m * mshape[static_cast<std::size_t>(i)] + index[static_cast<std::size_t>(axis + i)];
    }
    const std::int64_t j = rank_of[static_cast<std::size_t>(m)];
    if (j < 0 || j >= rows) continue;
    std::vector<std::int64_t> oindex(index.begin(), index.begin() + axis);
    oindex.push_back(j);
    oindex.insert(oindex.end(), index.begin() + axis + k, index.end());
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < oindex.size(); ++d) flat = flat * out.shape[d] + oindex[d];
    std::memcpy(out.bytes.data() + static_cast<std::size_t>(flat) * esize,
                tensor.data() + static_cast<std::size_t>(e) * esize, esize);
  }
  return out;
}

}  // namespace tensorbuf::testing::masked
