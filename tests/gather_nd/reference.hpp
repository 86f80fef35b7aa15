// The independent reference of the gather_nd tests: TensorFlow's GatherNd with batch_dims on raw
// bytes, written out with full multi-indices (it shares no code with src/kernels or src/cpu),
// and the error text a bad row gets under kError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tensorbuf::testing::gathered {

struct Gathered {
  std::vector<std::int64_t> shape;
  std::vector<std::uint8_t> bytes;  // bad rows as zeros (kDrop)
  std::int64_t first_bad = -1;      // the first bad row in row-major order, or -1
  std::string first_bad_text;       // its kError message
};

inline std::string shape_text(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) s.append(",");
    s.append(std::to_string(dims[i]));
  }
  s.append("]");
  return s;
}

// `indices` holds the index values as int64 whatever their dtype; shapes are valid.
inline Gathered reference(const std::vector<std::uint8_t>& params,
                          const std::vector<std::int64_t>& pshape,
                          const std::vector<std::int64_t>& indices,
                          const std::vector<std::int64_t>& ishape, std::size_t esize,
                          int batch_dims) {
  const std::size_t b = static_cast<std::size_t>(batch_dims);
  const std::size_t depth = static_cast<std::size_t>(ishape.back());
  Gathered out;
  out.shape.assign(ishape.begin(), ishape.end() - 1);
  out.shape.insert(out.shape.end(), pshape.begin() + static_cast<std::ptrdiff_t>(b + depth),
                   pshape.end());
  std::int64_t rows = 1;
  for (std::size_t i = 0; i + 1 < ishape.size(); ++i) rows *= ishape[i];
  std::int64_t slice = 1;
  for (std::size_t i = b + depth; i < pshape.size(); ++i) slice *= pshape[i];
  out.bytes.assign(static_cast<std::size_t>(rows * slice) * esize, 0);
  const std::size_t row_rank = ishape.size() - 1;
  std::vector<std::int64_t> position(row_rank);
  for (std::int64_t row = 0; row < rows; ++row) {
    // The row's multi-index in indices.shape[:-1]; its first b entries pick the batch.
    std::int64_t rest = row;
    for (std::size_t d = row_rank; d-- > 0;) {
      position[d] = rest % ishape[d];
      rest /= ishape[d];
    }
    std::vector<std::int64_t> full(position.begin(),
                                   position.begin() + static_cast<std::ptrdiff_t>(b));
    bool good = true;
    for (std::size_t k = 0; k < depth; ++k) {
      const std::int64_t v = indices[static_cast<std::size_t>(row) * depth + k];
      good = good && v >= 0 && v < pshape[b + k];
      full.push_back(v);
    }
    if (!good) {
      if (out.first_bad < 0) {
        out.first_bad = row;
        std::string text = "indices";
        if (row_rank > 0) text.append(shape_text(position));
        text.append(" = [");
        for (std::size_t k = 0; k < depth; ++k) {
          if (k != 0) text.append(", ");
          text.append(std::to_string(indices[static_cast<std::size_t>(row) * depth + k]));
        }
        text.append("] does not index into shape ");
        text.append(shape_text(std::vector<std::int64_t>(
            pshape.begin() + static_cast<std::ptrdiff_t>(b), pshape.end())));
        out.first_bad_text = text;
      }
      continue;
    }
    // Each element of the slice: params[full..., tail...].
    for (std::int64_t t = 0; t < slice; ++t) {
      std::vector<std::int64_t> tail(pshape.size() - full.size());
      std::int64_t r = t;
      for (std::size_t d = tail.size(); d-- > 0;) {
        tail[d] = r % pshape[full.size() + d];
        r /= pshape[full.size() + d];
      }
      std::int64_t flat = 0;
      for (std::size_t d = 0; d < pshape.size(); ++d) {
        flat = flat * pshape[d] + (d < full.size() ? full[d] : tail[d - full.size()]);
      }
      std::memcpy(out.bytes.data() + static_cast<std::size_t>(row * slice + t) * esize,
                  params.data() + static_cast<std::size_t>(flat) * esize, esize);
    }
  }
  return out;
}

}  // namespace tensorbuf::testing::gathered
