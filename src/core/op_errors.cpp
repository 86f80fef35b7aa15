#include "core/op_errors.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error_macros.hpp"
#include "core/plan_boolean_mask_update.hpp"

namespace tensorbuf::core {
namespace {

constexpr std::size_t kMaxShownBytes = 64;

// Python's repr() of a bytes object: b'...' (or b"..." when the bytes hold ' and no "),
// \\, \t, \n, \r, \xhh for other bytes outside 0x20..0x7e. Longer than kMaxShownBytes: the
// first kMaxShownBytes bytes, then "...".
std::string python_bytes_repr(std::string_view bytes) {
  const bool truncated = bytes.size() > kMaxShownBytes;
  if (truncated) bytes = bytes.substr(0, kMaxShownBytes);
  const bool has_single = bytes.find('\'') != std::string_view::npos;
  const bool has_double = bytes.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "b";
  out += quote;
  for (const char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (b < 0x20 || b >= 0x7f) {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xf];
    } else {
      out += ch;
    }
  }
  out += quote;
  if (truncated) out += "...";
  return out;
}

}  // namespace

std::string rejection_message(const ScatterNdPlan& plan, const ScatterNdResult& result) {
  const std::int64_t row = result.first_bad_index;
  const std::vector<std::int64_t>& components = result.bad_components;
  std::string out = "indices";
  const int batch_rank = plan.indices_dims.rank() - 1;
  if (batch_rank > 0) {
    // The unflattened position of `row` in indices.shape[:-1].
    std::vector<std::int64_t> position(static_cast<std::size_t>(batch_rank));
    std::int64_t rest = row;
    for (int i = batch_rank - 1; i >= 0; --i) {
      const std::int64_t dim = plan.indices_dims[static_cast<std::size_t>(i)];
      position[static_cast<std::size_t>(i)] = dim == 0 ? 0 : rest % dim;
      rest = dim == 0 ? 0 : rest / dim;
    }
    out += '[';
    for (int i = 0; i < batch_rank; ++i) {
      if (i != 0) out += ',';
      out += std::to_string(position[static_cast<std::size_t>(i)]);
    }
    out += ']';
  }
  out += " = [";
  for (std::size_t i = 0; i < components.size(); ++i) {
    if (i != 0) out += ", ";
    out += std::to_string(components[i]);
  }
  out += "] does not index into shape " + Shape(plan.tensor_dims.to_vector()).to_string();
  return out;
}

std::string rejection_message(const BooleanMaskUpdatePlan& plan,
                              const BooleanMaskUpdateResult& result) {
  const Shape target = mask_update_target_shape(plan, result.count);
  if (plan.broadcast) {
    return str_cat("Incompatible shapes: ", plan.updates_shape.to_string(), " vs. ",
                   target.to_string());
  }
  return str_cat("Updates shape ", plan.updates_shape.to_string(),
                 " is not equal to the target shape ", target.to_string(), " (broadcast = false).");
}

std::string rejection_message(const StringTensor& input, const SubstrResult& result) {
  return str_cat("pos ", result.bad_pos, " out of range for string ",
                 python_bytes_repr(input.at(result.bad_input_index)), " at index ",
                 result.first_bad_index);
}

}  // namespace tensorbuf::core
