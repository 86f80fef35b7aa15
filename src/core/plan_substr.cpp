#include "core/plan_substr.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error_macros.hpp"
#include "core/string_tensor_access.hpp"

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


// Row-major strides of `shape` aligned to the right of a rank-`rank` output, 0 where the
// operand's dim is 1 (or missing) and so broadcast.
std::vector<std::int64_t> broadcast_strides(const Shape& shape, int rank) {
  std::vector<std::int64_t> strides(static_cast<std::size_t>(rank), 0);
  std::int64_t stride = 1;
  for (int d = shape.rank() - 1; d >= 0; --d) {
    const int out_d = rank - shape.rank() + d;
    strides[static_cast<std::size_t>(out_d)] = shape[d] == 1 ? 0 : stride;
    stride *= shape[d];
  }
  return strides;
}

}  // namespace

SubstrPlan plan_substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                       const SubstrOptions& options) {
  const DataType pos_type = pos.data_type();
  TENSORBUF_EXPECTS(pos_type == DataType::kInt32 || pos_type == DataType::kInt64,
                    InvalidArgumentError,
                    str_cat("pos must be int32 or int64, got: ", to_string(pos_type)));
  TENSORBUF_EXPECTS(len.data_type() == pos_type, InvalidArgumentError,
                    str_cat("pos and len should have the same dtype, got: ", to_string(pos_type),
                            " vs. ", to_string(len.data_type())));
  TENSORBUF_EXPECTS(pos.shape() == len.shape(), InvalidArgumentError,
                    str_cat("pos and len should have the same shape, got: ",
                            pos.shape().to_string(), " vs. ", len.shape().to_string()));
  TENSORBUF_EXPECTS(options.unit == SubstrUnit::kByte || options.unit == SubstrUnit::kUtf8Char,
                    InvalidArgumentError, "unknown SubstrUnit");
  TENSORBUF_EXPECTS(options.out_of_bounds == OutOfBoundsPolicy::kDeviceDefault ||
                        options.out_of_bounds == OutOfBoundsPolicy::kError ||
                        options.out_of_bounds == OutOfBoundsPolicy::kDrop,
                    InvalidArgumentError, "unknown OutOfBoundsPolicy");

  // NumPy broadcasting of input.shape against pos.shape, at any rank.
  const Shape in_shape = input.shape();
  const Shape pos_shape = pos.shape();
  const int rank = std::max(in_shape.rank(), pos_shape.rank());
  std::vector<std::int64_t> out_dims(static_cast<std::size_t>(rank));
  for (int d = 0; d < rank; ++d) {
    const int di = d - (rank - in_shape.rank());
    const int dp = d - (rank - pos_shape.rank());
    const std::int64_t a = di >= 0 ? in_shape[di] : 1;
    const std::int64_t b = dp >= 0 ? pos_shape[dp] : 1;
    TENSORBUF_EXPECTS(
        a == b || a == 1 || b == 1, InvalidArgumentError,
        str_cat("Incompatible shapes: ", in_shape.to_string(), " vs. ", pos_shape.to_string()));
    out_dims[static_cast<std::size_t>(d)] = a == 1 ? b : a;
  }

  SubstrPlan plan;
  plan.out_shape = Shape(out_dims);
  plan.out_size = plan.out_shape.num_elements();
  TENSORBUF_EXPECTS(plan.out_size < INT64_MAX / 8, InvalidArgumentError,
                    str_cat("a substr output of shape ", plan.out_shape.to_string(),
                            " has more offsets than int64 can count"));
  plan.in_size = input.size();
  plan.in_chars = StringTensorAccess::chars_bound(input);  // an untrimmed input's capacity
  plan.index_type = pos_type;
  plan.unit = options.unit;
  // Broadcasting repeats each input string out_size / in_size times, which bounds the output's
  // bytes; the backends add sizes and offsets in int64 without checks.
  const std::int64_t repeats = plan.in_size == 0 ? 0 : plan.out_size / plan.in_size;
  TENSORBUF_EXPECTS(repeats == 0 || plan.in_chars <= INT64_MAX / repeats, InvalidArgumentError,
                    str_cat("a substr output of shape ", plan.out_shape.to_string(), " from ",
                            plan.in_chars, " input bytes in ", plan.in_size,
                            " strings may hold more bytes than int64 can count"));

  SubstrMap& map = plan.map;
  map.rank = 0;
  if (plan.out_size == 0) return plan;  // nothing to map
  // The map: drop output dims of 1, merge neighbours whose strides chain for both operands.
  // (Strides only now: with no zero dim in the output they cannot overflow.)
  const std::vector<std::int64_t> in_strides = broadcast_strides(in_shape, rank);
  const std::vector<std::int64_t> pos_strides = broadcast_strides(pos_shape, rank);
  for (int d = 0; d < rank; ++d) {
    const auto du = static_cast<std::size_t>(d);
    if (out_dims[du] == 1) continue;
    if (map.rank > 0) {
      const int last = map.rank - 1;
      if (map.input_strides[last] == in_strides[du] * out_dims[du] &&
          map.pos_strides[last] == pos_strides[du] * out_dims[du]) {
        map.dims[last] *= out_dims[du];
        map.input_strides[last] = in_strides[du];
        map.pos_strides[last] = pos_strides[du];
        continue;
      }
    }
    TENSORBUF_EXPECTS(map.rank < kSubstrMaxRank, InternalError,
                      "substr broadcast map exceeds its rank bound");
    map.dims[map.rank] = out_dims[du];
    map.input_strides[map.rank] = in_strides[du];
    map.pos_strides[map.rank] = pos_strides[du];
    ++map.rank;
  }
  return plan;
}

const char* substr_capture_blocker(const SubstrPlan& plan) {
  if (plan.policy == OutOfBoundsPolicy::kError) {
    return "kError reads the first bad element back to the host";
  }
  if (substr_chars_bound(plan) < 0) {
    return "the output's total size is read back to allocate its chars (input broadcast more "
           "than 4 times: no bound is allocated)";
  }
  return nullptr;
}

std::int64_t substr_chars_bound(const SubstrPlan& plan) {
  if (plan.policy == OutOfBoundsPolicy::kError) return -1;
  if (plan.in_size == 0 || plan.out_size == 0) return 0;
  const std::int64_t factor = plan.out_size / plan.in_size;  // exact: NumPy broadcasting
  if (factor > kSubstrBoundFactor) return -1;
  return plan.in_chars * factor;  // <= 4 * in_chars: no overflow below 2^61 bytes
}

std::string rejection_message(const StringTensor& input, const SubstrResult& result) {
  return str_cat("pos ", result.bad_pos, " out of range for string ",
                 python_bytes_repr(input.at(result.bad_input_index)), " at index ",
                 result.first_bad_index);
}

}  // namespace tensorbuf::core
