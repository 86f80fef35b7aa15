// Text forms of tensors for `tensorbuf examples`, and the small input builders.
#include <charconv>
#include <cmath>
#include <cstdio>

#include "cli_examples.hpp"

namespace tensorbuf::cli {
namespace {

std::string float_text(double value, bool is_double) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  const auto result = is_double ? std::to_chars(buf, buf + sizeof buf, value)
                                : std::to_chars(buf, buf + sizeof buf, static_cast<float>(value));
  return std::string(buf, result.ptr);
}

// Writes the nested-list form of dims[level:] starting at flat element `*next`.
void nest(std::string& out, const std::vector<std::int64_t>& dims, std::size_t level,
          std::int64_t& next, const std::function<std::string(std::int64_t)>& element) {
  if (level == dims.size()) {
    out += element(next++);
    return;
  }
  out += '[';
  for (std::int64_t i = 0; i < dims[level]; ++i) {
    if (i != 0) out += ',';
    nest(out, dims, level + 1, next, element);
  }
  out += ']';
}

std::string nested(const Shape& shape, const std::function<std::string(std::int64_t)>& element) {
  std::string out;
  std::int64_t next = 0;
  nest(out, shape.dims(), 0, next, element);
  return out;
}

}  // namespace

std::string format_tensor(const TensorBuffer& tensor) {
  const DataType type = tensor.data_type();
  const bool is_float = type == DataType::kFloat16 || type == DataType::kBFloat16 ||
                        type == DataType::kFloat32 || type == DataType::kFloat64;
  if (type == DataType::kFloat64) {
    const auto* p = static_cast<const double*>(tensor.host_bytes());
    return nested(tensor.shape(), [&](std::int64_t i) { return float_text(p[i], true); });
  }
  if (type == DataType::kInt64) {
    const auto* p = static_cast<const std::int64_t*>(tensor.host_bytes());
    return nested(tensor.shape(), [&](std::int64_t i) { return std::to_string(p[i]); });
  }
  if (is_float) {
    const std::vector<float> v = tensor.get_float_array();
    return nested(tensor.shape(), [&](std::int64_t i) {
      return float_text(v[static_cast<std::size_t>(i)], false);
    });
  }
  const std::vector<std::int32_t> v = tensor.get_int_array();
  return nested(tensor.shape(),
                [&](std::int64_t i) { return std::to_string(v[static_cast<std::size_t>(i)]); });
}

std::string bytes_literal(std::string_view s) {
  std::string out = "b'";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  return out + "'";
}

std::string format_strings(const StringTensor& strings) {
  const std::vector<std::string> v = strings.to_strings();
  return nested(strings.shape(),
                [&](std::int64_t i) { return bytes_literal(v[static_cast<std::size_t>(i)]); });
}

std::string format_floats(const std::vector<float>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out += ',';
    out += float_text(values[i], false);
  }
  return out + "]";
}

std::string format_ints(const std::vector<std::int32_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != 0) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "]";
}

void settle(TensorBuffer& tensor, Device device) {
  if (!device.is_cuda()) return;
  tensor.sync_to(device);
  tensor.mutable_device_bytes();  // the host copy is now stale: formatting reads it back
}

TensorBuffer make(DataType type, const std::vector<double>& values, const Shape& shape) {
  TensorBuffer out = TensorBuffer::create_uninitialized(shape, type);
  if (type == DataType::kFloat64 || type == DataType::kInt64) {
    void* dst = out.overwrite_host_bytes();
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (type == DataType::kFloat64) {
        static_cast<double*>(dst)[i] = values[i];
      } else {
        static_cast<std::int64_t*>(dst)[i] = static_cast<std::int64_t>(values[i]);
      }
    }
    return out;
  }
  std::vector<float> f(values.begin(), values.end());
  TensorBuffer dynamic = TensorBuffer::create_dynamic(type);
  dynamic.load_array(std::span<const float>(f), shape);
  return TensorBuffer::create_from(dynamic, type);  // fixed-size, like an op's input
}

TensorBuffer i32(const std::vector<double>& values, const Shape& shape) {
  return make(DataType::kInt32, values, shape);
}
TensorBuffer f32(const std::vector<double>& values, const Shape& shape) {
  return make(DataType::kFloat32, values, shape);
}
TensorBuffer boolean(const std::vector<int>& values, const Shape& shape) {
  return make(DataType::kBool, std::vector<double>(values.begin(), values.end()), shape);
}
StringTensor strings(const std::vector<std::string>& values, const Shape& shape) {
  return StringTensor::from_strings(values, shape);
}

}  // namespace tensorbuf::cli
