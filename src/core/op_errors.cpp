#include "core/op_errors.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/axis_indices.hpp"
#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/elements_plan.hpp"
#include "core/gather_plan.hpp"

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
  return bad_index_message(plan.indices_dims, result.first_bad_index, result.bad_components,
                           plan.tensor_dims.to_vector());
}

std::string rejection_message(const GatherPlan& plan, const AxisIndexResult& result) {
  return bad_axis_index_message(plan.indices_dims, result.first_bad_index, result.bad_value,
                                plan.axis, plan.params_dims);
}

std::string rejection_message(const GatherElementsPlan& plan, const AxisIndexResult& result) {
  return bad_axis_index_message(plan.layout.indices_dims, result.first_bad_index,
                                result.bad_value, plan.layout.axis, plan.layout.tensor_dims);
}

std::string rejection_message(const ScatterElementsPlan& plan, const AxisIndexResult& result) {
  return bad_axis_index_message(plan.layout.indices_dims, result.first_bad_index,
                                result.bad_value, plan.layout.axis, plan.layout.tensor_dims);
}

std::string rejection_message(const StringTensor& input, const SubstrResult& result) {
  return str_cat("pos ", result.bad_pos, " out of range for string ",
                 python_bytes_repr(input.at(result.bad_input_index)), " at index ",
                 result.first_bad_index);
}

}  // namespace tensorbuf::core
