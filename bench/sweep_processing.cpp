// Sweep forms of the Processor (sweep.hpp): the image pipeline's chain, uint8 pixels of 3
// channels (shape [size, 3], the layout of a [224, 224, 3] frame: 50176 pixels, between the
// 2^15 and 2^16 points) -> per-channel normalize -> float32, and -> float16. Yardstick: a memcpy
// of the same traffic (3 bytes read and 12 or 6 written per pixel); on CUDA a device copy of it.
// Sizes stop at 2^24 pixels (48 MiB in, 192 MiB out).
#include <string>

#include "bench_support.hpp"
#include "sweep_forms.hpp"

namespace tensorbuf::bench {
namespace {

SweepCalls make_calls(std::int64_t pixels, DataType out_type, Device device) {
  const std::vector<std::int64_t> values = random_ints(pixels * 3, 0, 256, 41);
  TensorBuffer x = TensorBuffer::create_uninitialized(Shape{pixels, 3}, DataType::kUInt8);
  auto* p = x.overwrite_host<std::uint8_t>();
  for (std::size_t i = 0; i < values.size(); ++i) p[i] = static_cast<std::uint8_t>(values[i]);
  place_on(device, x);
  std::vector<ProcessStep> steps = {
      normalize_op({123.675f, 116.28f, 103.53f}, {58.395f, 57.12f, 57.375f})};
  if (out_type == DataType::kFloat16) steps.push_back(cast_op(DataType::kFloat16));
  auto processor = std::make_shared<Processor>(std::move(steps));
  auto input = std::make_shared<TensorBuffer>(std::move(x));
  ProcessOptions options;
  options.device = device;
  const double traffic =
      static_cast<double>(pixels) * 3.0 * (1.0 + static_cast<double>(type_size(out_type)));
  SweepCalls calls;
  calls.op = [processor, input, options] {
    TensorBuffer out = processor->run(*input, options);
    benchmark::DoNotOptimize(&out);
  };
  calls.yardstick = copy_yardstick(traffic, device);
  return calls;
}

SweepForm form(DataType out_type) {
  SweepForm f;
  f.name = std::string("processor_u8_hwc3_normalize_") + std::string(to_string(out_type));
  f.yardstick = "memcpy";
  f.unit = "pixels";
  f.max_size = std::int64_t{1} << 24;
  f.make = [out_type](std::int64_t size, Device device) {
    return make_calls(size, out_type, device);
  };
  return f;
}

}  // namespace

std::vector<SweepForm> processing_sweep_forms() {
  return {form(DataType::kFloat32), form(DataType::kFloat16)};
}

}  // namespace tensorbuf::bench
