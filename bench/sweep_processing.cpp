// Sweep forms of the Processor (sweep.hpp): the image pipeline's chain, uint8 pixels of 3
// channels (shape [size, 3], the layout of a [224, 224, 3] frame: 50176 pixels, between the
// 2^15 and 2^16 points) -> per-channel normalize -> float32, and -> float16. Yardstick: a memcpy
// of the same traffic (3 bytes read and 12 or 6 written per pixel); on CUDA a device copy of it.
// Sizes stop at 2^24 pixels (48 MiB in, 192 MiB out). Then each single op, `size` elements:
// quantize and dequantize (zero point 128, scale 0.02) and dequantize_linear of uint8 -> float32
// (5 bytes per element), quantize_linear float32 -> uint8 (5) and cast float32 -> float16 (6).
#include <array>
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

enum class Single { kQuantize, kDequantize, kCast, kQuantizeLinear, kDequantizeLinear };

TensorBuffer scalar_of(DataType type, double value) {
  TensorBuffer t = TensorBuffer::create_fixed_size({}, type);
  if (type == DataType::kUInt8) {
    t.mutable_host<std::uint8_t>()[0] = static_cast<std::uint8_t>(value);
  } else {
    t.mutable_host<float>()[0] = static_cast<float>(value);
  }
  return t;
}

SweepCalls single_calls(Single op, std::int64_t n, Device device) {
  const bool float_in = op == Single::kCast || op == Single::kQuantizeLinear;
  TensorBuffer x = float_in
                       ? make_buffer(random_floats(n, -3.0, 3.0, 42), Shape{n}, DataType::kFloat32)
                       : TensorBuffer::create_uninitialized(Shape{n}, DataType::kUInt8);
  if (!float_in) {
    const std::vector<std::int64_t> values = random_ints(n, 0, 256, 41);
    auto* p = x.overwrite_host<std::uint8_t>();
    for (std::size_t i = 0; i < values.size(); ++i) p[i] = static_cast<std::uint8_t>(values[i]);
  }
  place_on(device, x);
  auto in = std::make_shared<std::array<TensorBuffer, 3>>(std::array<TensorBuffer, 3>{
      std::move(x), scalar_of(DataType::kFloat32, 0.02), scalar_of(DataType::kUInt8, 128)});
  ProcessOptions process;
  process.device = device;
  QuantizeLinearOptions linear;
  linear.device = device;
  std::function<TensorBuffer()> call;
  switch (op) {
    case Single::kQuantize:
      call = [in, process] { return quantize((*in)[0], 128, 0.02f, process); };
      break;
    case Single::kDequantize:
      call = [in, process] { return dequantize((*in)[0], 128, 0.02f, process); };
      break;
    case Single::kCast:
      call = [in, process] { return cast((*in)[0], DataType::kFloat16, process); };
      break;
    case Single::kQuantizeLinear:
      call = [in, linear] { return quantize_linear((*in)[0], (*in)[1], (*in)[2], linear); };
      break;
    case Single::kDequantizeLinear:
      call = [in, linear] { return dequantize_linear((*in)[0], (*in)[1], (*in)[2], linear); };
      break;
  }
  const double per_element = op == Single::kCast ? 6.0 : 5.0;
  return {[call] {
            TensorBuffer out = call();
            benchmark::DoNotOptimize(&out);
          },
          copy_yardstick(per_element * static_cast<double>(n), device)};
}

SweepForm single_form(Single op, std::string name) {
  SweepForm f;
  f.name = std::move(name);
  f.yardstick = "memcpy";
  f.unit = "elements";
  f.max_size = std::int64_t{1} << 24;
  f.make = [op](std::int64_t size, Device device) { return single_calls(op, size, device); };
  return f;
}

std::vector<SweepForm> processing_sweep_forms() {
  return {form(DataType::kFloat32),
          form(DataType::kFloat16),
          single_form(Single::kQuantize, "quantize_u8_f32"),
          single_form(Single::kDequantize, "dequantize_u8_f32"),
          single_form(Single::kCast, "cast_f32_f16"),
          single_form(Single::kQuantizeLinear, "quantize_linear_f32_u8"),
          single_form(Single::kDequantizeLinear, "dequantize_linear_u8_f32")};
}

}  // namespace

const SweepAreaRegistration registration("normalize", &processing_sweep_forms);

}  // namespace tensorbuf::bench
