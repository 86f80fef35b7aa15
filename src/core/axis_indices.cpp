#include "core/axis_indices.hpp"

#include <vector>

#include "core/error_macros.hpp"

namespace tensorbuf::core {

int normalize_axis(std::string_view op, int axis, std::string_view what, const Shape& shape) {
  const int rank = shape.rank();
  TENSORBUF_EXPECTS(axis >= -rank && axis < rank, InvalidArgumentError,
                    str_cat(op, ": axis = ", axis, " is out of range for ", what, " of rank ", rank,
                            " (shape ", shape.to_string(), ")"));
  return axis < 0 ? axis + rank : axis;
}

std::string bad_axis_index_message(const SmallDims& indices_dims, std::int64_t position,
                                   std::int64_t value, int axis, const SmallDims& shape) {
  std::string out = "indices";
  const int rank = indices_dims.rank();
  if (rank > 0) {
    std::vector<std::int64_t> coords(static_cast<std::size_t>(rank));
    std::int64_t rest = position;
    for (int d = rank - 1; d >= 0; --d) {
      const std::int64_t dim = indices_dims[static_cast<std::size_t>(d)];
      coords[static_cast<std::size_t>(d)] = dim == 0 ? 0 : rest % dim;
      rest = dim == 0 ? 0 : rest / dim;
    }
    out += '[';
    for (int d = 0; d < rank; ++d) {
      if (d != 0) out += ',';
      out += std::to_string(coords[static_cast<std::size_t>(d)]);
    }
    out += ']';
  }
  out += str_cat(" = ", value, " is out of range for axis ", axis, " of shape ",
                 Shape(shape.to_vector()).to_string());
  return out;
}

}  // namespace tensorbuf::core
