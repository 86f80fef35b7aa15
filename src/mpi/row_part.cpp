#include "mpi/row_part.hpp"

#include <cstddef>
#include <vector>

namespace tensorbuf::dist::detail {

const TensorBuffer& row_part(const TensorBuffer& operand, int target_rank, bool broadcast,
                             std::int64_t begin, std::int64_t count, TensorBuffer& view) {
  std::vector<std::int64_t> dims = operand.shape().dims();
  const int shift = static_cast<int>(dims.size()) - target_rank;
  if (shift < 0 || (broadcast && dims[static_cast<std::size_t>(shift)] == 1)) return operand;
  // The dims before `shift` are all 1 (broadcasting checked it): the rows are contiguous.
  std::int64_t row_elems = 1;
  for (std::size_t i = static_cast<std::size_t>(shift) + 1; i < dims.size(); ++i) {
    row_elems *= dims[i];
  }
  dims[static_cast<std::size_t>(shift)] = count;
  const std::size_t row_bytes = static_cast<std::size_t>(row_elems) * operand.type_size();
  const auto* base = static_cast<const std::byte*>(operand.host_bytes());
  view = TensorBuffer::create_dynamic(operand.data_type());
  view.load_buffer({base + static_cast<std::size_t>(begin) * row_bytes,
                    static_cast<std::size_t>(count) * row_bytes},
                   Shape(dims));
  return view;
}

}  // namespace tensorbuf::dist::detail
