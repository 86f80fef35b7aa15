// Fuzzes TensorBuffer loads and reads: any sequence of loads either succeeds with the
// reference's contents or throws a tensorbuf::Error and leaves the buffer as it was.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "fuzz/input.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;

constexpr DataType kTypes[] = {DataType::kBool,    DataType::kUInt8,   DataType::kInt8,
                               DataType::kInt16,   DataType::kInt32,   DataType::kInt64,
                               DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                               DataType::kFloat64};

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_tensor_buffer: %s\n", what);
  std::abort();
}

// Reference for float -> int32 reads of integer buffers (truncate, saturate, NaN -> 0), written
// independently of src/core/convert.hpp.
std::int64_t saturate(double d, std::int64_t low, std::int64_t high) {
  if (std::isnan(d)) return 0;
  if (d <= static_cast<double>(low)) return low;
  if (d >= static_cast<double>(high)) return high;
  return static_cast<std::int64_t>(std::trunc(d));
}

void check_integer_load(DataType type, const std::vector<float>& values, const TensorBuffer& b) {
  std::int64_t low = 0, high = 0;
  switch (type) {
    case DataType::kUInt8: low = 0; high = 255; break;
    case DataType::kInt8: low = -128; high = 127; break;
    case DataType::kInt16: low = -32768; high = 32767; break;
    case DataType::kInt32:
    case DataType::kInt64:
      low = std::numeric_limits<std::int32_t>::min();
      high = std::numeric_limits<std::int32_t>::max();
      break;
    default: return;
  }
  const std::vector<std::int32_t> got = b.get_int_array();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (got[i] != saturate(values[i], low, high)) fail("integer conversion differs");
  }
}

struct Snapshot {
  DataType type;
  Shape shape;
  bool dynamic;
  std::vector<std::uint8_t> bytes;
};

Snapshot snapshot(const TensorBuffer& b) {
  const auto* p = static_cast<const std::uint8_t*>(b.host_bytes());
  return {b.data_type(), b.shape(), b.is_dynamic(),
          std::vector<std::uint8_t>(p, p + b.size_bytes())};
}

void expect_unchanged(const Snapshot& s, const TensorBuffer& b) {
  const Snapshot now = snapshot(b);
  if (now.type != s.type || now.shape != s.shape || now.dynamic != s.dynamic ||
      now.bytes != s.bytes) {
    fail("a failed call changed the buffer");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in(data, size);
  const DataType type = kTypes[in.range(0, 9)];
  TensorBuffer b = in.take<std::uint8_t>() % 2 ? TensorBuffer::create_dynamic(type)
                                               : [&] {
                                                   try {
                                                     return TensorBuffer::create_fixed_size(
                                                         Shape(in.dims(3, 6)), type);
                                                   } catch (const Error&) {
                                                     return TensorBuffer::create_dynamic(type);
                                                   }
                                                 }();
  std::vector<std::vector<std::uint8_t>> keep_alive;  // bytes referenced by load_buffer
  for (int step = 0; step < 8 && !in.empty(); ++step) {
    const Snapshot before = snapshot(b);
    const int action = static_cast<int>(in.range(0, 5));
    std::vector<std::int64_t> dims = in.dims(3, 6);
    if (in.take<std::uint8_t>() == 0xff && !dims.empty()) dims[0] = -dims[0] - 1;  // negative dim
    if (in.take<std::uint8_t>() == 0xfe && !dims.empty()) dims[0] = std::int64_t{1} << 62;
    try {
      switch (action) {
        case 0: {  // load_array(float, shape)
          std::vector<float> values(static_cast<std::size_t>(in.range(0, 40)));
          for (float& v : values) v = in.take<float>();
          b.load_array(values, Shape(dims));
          if (b.flat_size() != static_cast<std::int64_t>(values.size())) fail("size after load");
          check_integer_load(type, values, b);
          break;
        }
        case 1: {  // load_array(int32, shape)
          std::vector<std::int32_t> values(static_cast<std::size_t>(in.range(0, 40)));
          for (auto& v : values) v = in.take<std::int32_t>();
          b.load_array(values, Shape(dims));
          break;
        }
        case 2: {  // load_array(float) with the current shape
          std::vector<float> values(static_cast<std::size_t>(in.range(0, 40)));
          for (float& v : values) v = in.take<float>();
          b.load_array(values);
          break;
        }
        case 3: {  // load_buffer(bytes, shape): referenced, never written
          keep_alive.push_back(in.bytes(static_cast<std::size_t>(in.range(0, 80))));
          const std::vector<std::uint8_t> copy = keep_alive.back();
          b.load_buffer(std::as_bytes(std::span<const std::uint8_t>(keep_alive.back())), Shape(dims));
          b.mutable_host_bytes();
          if (keep_alive.back() != copy) fail("caller bytes were written");
          break;
        }
        case 4: {  // create_from / clone
          TensorBuffer c = TensorBuffer::create_from(b, kTypes[in.range(0, 9)]);
          if (c.shape() != b.shape() || c.is_dynamic() != b.is_dynamic()) fail("create_from shape");
          TensorBuffer d = b.clone();
          if (snapshot(d).bytes != snapshot(b).bytes) fail("clone differs");
          break;
        }
        case 5: {  // reads
          const std::int64_t i = in.range(-2, 50);
          const bool inside = i >= 0 && i < b.flat_size();
          try {
            b.get_float_value(i);
            b.get_int_value(i);
            if (!inside) fail("out-of-range read did not throw");
          } catch (const OutOfRangeError&) {
            if (inside) fail("in-range read threw");
          }
          b.get_float_array();
          b.get_int_array();
          break;
        }
      }
    } catch (const InvalidArgumentError&) {
      expect_unchanged(before, b);
    }
  }
  return 0;
}
