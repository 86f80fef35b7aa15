// Sweep forms of substr (sweep.hpp): `size` strings of 7..21 characters (one in eight the
// 2-byte "é"), units byte and utf8, pos/len scalars (2, 8) or per string (pos -6..6, len
// -1..12). Yardstick: a serial memcpy of the same traffic, counted as the offsets read and
// written, pos/len read, and twice the substrings' bytes (read, written); a UTF-8 substr must
// read more than that (the characters before pos), so its ratio is a little pessimistic; on CUDA
// a device copy of it. Sizes stop at 2^22 strings (about 64 MiB of characters).
#include <numeric>
#include <string>

#include "bench_support.hpp"
#include "sweep_forms.hpp"

namespace tensorbuf::bench {
namespace {

struct Data {
  StringTensor input;
  TensorBuffer pos, len;
};

StringTensor make_strings(std::int64_t strings) {
  const std::vector<std::int64_t> chars = random_ints(strings, 7, 22, 31);
  std::vector<std::uint8_t> bytes;
  TensorBuffer offsets = TensorBuffer::create_uninitialized(Shape{strings + 1}, DataType::kInt64);
  auto* off = offsets.overwrite_host<std::int64_t>();
  off[0] = 0;
  std::int64_t global = 0;
  for (std::int64_t i = 0; i < strings; ++i) {
    for (std::int64_t c = 0; c < chars[static_cast<std::size_t>(i)]; ++c, ++global) {
      const std::uint64_t bits = random_bits(32, global);
      if (bits % 8 == 0) {
        bytes.push_back(0xC3);
        bytes.push_back(0xA9);
      } else {
        bytes.push_back(static_cast<std::uint8_t>('a' + bits % 26));
      }
    }
    off[i + 1] = static_cast<std::int64_t>(bytes.size());
  }
  TensorBuffer chars_buffer =
      TensorBuffer::create_uninitialized(Shape{off[strings]}, DataType::kUInt8);
  std::memcpy(chars_buffer.overwrite_host_bytes(), bytes.data(), bytes.size());
  return StringTensor::from_buffers(std::move(offsets), std::move(chars_buffer), Shape{strings});
}

SweepCalls make_calls(std::int64_t strings, SubstrUnit unit, bool elementwise, Device device) {
  auto data = std::make_shared<Data>(
      elementwise ? Data{make_strings(strings),
                         make_index_buffer(random_ints(strings, -6, 7, 33), Shape{strings},
                                           DataType::kInt32),
                         make_index_buffer(random_ints(strings, -1, 13, 34), Shape{strings},
                                           DataType::kInt32)}
                  : Data{make_strings(strings), make_index_buffer({2}, Shape{}, DataType::kInt32),
                         make_index_buffer({8}, Shape{}, DataType::kInt32)});
  place_on(device, data->input, data->pos, data->len);
  const SubstrOptions options{
      .device = device, .unit = unit, .out_of_bounds = OutOfBoundsPolicy::kDrop};
  const StringTensor first = substr(data->input, data->pos, data->len, options);
  const double n = static_cast<double>(strings);
  const double traffic =
      16.0 * (n + 1) + (elementwise ? 8.0 * n : 8.0) + 2.0 * static_cast<double>(first.num_chars());
  SweepCalls calls;
  calls.op = [data, options] {
    StringTensor out = substr(data->input, data->pos, data->len, options);
    benchmark::DoNotOptimize(&out);
  };
  calls.yardstick = copy_yardstick(traffic, device);
  return calls;
}

SweepForm form(SubstrUnit unit, bool elementwise) {
  SweepForm f;
  f.name = std::string("substr_") + (unit == SubstrUnit::kByte ? "byte" : "utf8") +
           (elementwise ? "_elementwise" : "_scalar");
  f.yardstick = "memcpy";
  f.unit = "strings";
  f.max_size = std::int64_t{1} << 22;
  f.make = [unit, elementwise](std::int64_t size, Device device) {
    return make_calls(size, unit, elementwise, device);
  };
  return f;
}

std::vector<SweepForm> substr_sweep_forms() {
  std::vector<SweepForm> forms;
  for (const SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    for (const bool elementwise : {false, true}) forms.push_back(form(unit, elementwise));
  }
  return forms;
}

}  // namespace

const SweepAreaRegistration registration(spelling(OpFamily::kSubstr), &substr_sweep_forms);

}  // namespace tensorbuf::bench
