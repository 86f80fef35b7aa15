// Sweep forms of boolean_mask_update (sweep.hpp): f32, a random mask of density 0.5, out of
// place and in place, with
//  elements: a [size] tensor and a [size] mask;
//  rows:     a [size / 8, 8] tensor and a [size / 8] mask (rows of 32 bytes).
// Yardstick: a serial memcpy of the same traffic (bench/bench_boolean_mask_update.cpp's bytes:
// out of place the tensor read, the output written, mask and updates read; in place the mask,
// the updates read and the masked rows written); on CUDA a device copy of it.
#include <string>

#include "bench_support.hpp"
#include "sweep_forms.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::int64_t kRowWidth = 8;

struct Data {
  TensorBuffer tensor, mask, updates;
};

SweepCalls make_calls(std::int64_t size, std::int64_t inner, bool in_place, Device device) {
  const std::int64_t rows = std::max<std::int64_t>(1, size / inner);
  const std::vector<std::uint8_t> mask_bytes = random_bools(rows, 0.5, 12);
  std::int64_t n = 0;
  for (const std::uint8_t b : mask_bytes) n += b;
  auto data = std::make_shared<Data>(
      Data{make_buffer(random_floats(rows * inner, -1.0, 1.0, 11),
                       inner == 1 ? Shape{rows} : Shape{rows, inner}, DataType::kFloat32),
           TensorBuffer::create_uninitialized(Shape{rows}, DataType::kBool),
           make_buffer(random_floats(n * inner, 2.0, 3.0, 13),
                       inner == 1 ? Shape{n} : Shape{n, inner}, DataType::kFloat32)});
  std::memcpy(data->mask.overwrite_host_bytes(), mask_bytes.data(), mask_bytes.size());
  place_on(device, data->tensor, data->mask, data->updates);
  const double tensor_bytes = 4.0 * static_cast<double>(rows * inner);
  const double updates_bytes = 4.0 * static_cast<double>(n * inner);
  SweepCalls calls;
  const BooleanMaskUpdateOptions options{.device = device};
  if (in_place) {
    calls.op = [data, options] {
      boolean_mask_update_in_place(data->tensor, data->mask, data->updates, options);
    };
    calls.yardstick = copy_yardstick(static_cast<double>(rows) + 2 * updates_bytes, device);
  } else {
    calls.op = [data, options] {
      TensorBuffer out = boolean_mask_update(data->tensor, data->mask, data->updates, options);
      benchmark::DoNotOptimize(&out);
    };
    calls.yardstick =
        copy_yardstick(2 * tensor_bytes + static_cast<double>(rows) + updates_bytes, device);
  }
  return calls;
}

SweepForm form(bool rows, bool in_place) {
  SweepForm f;
  f.name = std::string("boolean_mask_update_f32_") + (rows ? "rows" : "elements") +
           (in_place ? "_in_place" : "");
  f.yardstick = "memcpy";
  f.unit = "tensor elements";
  f.max_size = std::int64_t{1} << 26;
  const std::int64_t inner = rows ? kRowWidth : 1;
  f.make = [inner, in_place](std::int64_t size, Device device) {
    return make_calls(size, inner, in_place, device);
  };
  return f;
}

std::vector<SweepForm> forms() {
  std::vector<SweepForm> forms;
  for (const bool rows : {false, true}) {
    for (const bool in_place : {false, true}) forms.push_back(form(rows, in_place));
  }
  return forms;
}

}  // namespace

const SweepAreaRegistration registration(spelling(OpFamily::kBooleanMaskUpdate), &forms);

}  // namespace tensorbuf::bench
