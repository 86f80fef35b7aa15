// The P* examples: the inference pipeline of spec/processing.md through the Processor -- a uint8
// image normalized per channel to float32 (and float16), and a model's int8 output dequantized
// to float32 (TFLite Support's DequantizeOp, and ONNX's dequantize_linear).
#include "cli_examples.hpp"

namespace tensorbuf::cli {
namespace {

// A [1, 2, 3] uint8 image (two RGB pixels).
TensorBuffer image() { return make(DataType::kUInt8, {0, 128, 255, 51, 102, 204}, {1, 2, 3}); }

Example chain(std::string id, std::string input, std::string expected,
              std::function<TensorBuffer()> x, std::vector<ProcessStep> steps) {
  return {std::move(id), std::move(input), std::move(expected), [=](Device d) {
            ProcessOptions options;
            options.device = d;
            TensorBuffer out = Processor(steps).run(x(), options);
            settle(out, d);
            return format_tensor(out);
          }};
}

std::vector<Example> processing_examples() {
  std::vector<Example> v;
  const std::vector<float> half_range = {127.5f, 127.5f, 127.5f};
  v.push_back(chain("P1", "uint8 [[[0,128,255],[51,102,204]]] -> normalize (127.5, 127.5) per "
                          "channel -> float32",
                    "[[[-1,0.003921569,1],[-0.6,-0.2,0.6]]]", image,
                    {normalize_op(half_range, half_range)}));
  v.push_back(chain("P2", "the same image -> normalize -> cast float16",
                    "[[[-1,0.003921509,1],[-0.60009766,-0.19995117,0.60009766]]]", image,
                    {normalize_op(half_range, half_range), cast_op(DataType::kFloat16)}));
  v.push_back(chain("P3", "int8 model output [-128,-1,0,127] -> dequantize (zero_point -1, "
                          "scale 0.5) -> float32",
                    "[-63.5,0,0.5,64]",
                    [] { return make(DataType::kInt8, {-128, -1, 0, 127}, {4}); },
                    {dequantize_op(-1.0f, 0.5f)}));
  v.push_back({"P4", "the same int8 output -> dequantize_linear (scale 0.5, zero_point -1)",
               "[-63.5,0,0.5,64]", [](Device d) {
                 QuantizeLinearOptions options;
                 options.device = d;
                 TensorBuffer out = dequantize_linear(
                     make(DataType::kInt8, {-128, -1, 0, 127}, {4}),
                     make(DataType::kFloat32, {0.5}, {}), make(DataType::kInt8, {-1}, {}), options);
                 settle(out, d);
                 return format_tensor(out);
               }});
  return v;
}

}  // namespace

const ExampleGroupRegistration registration({"P", "processing pipelines", &processing_examples});

}  // namespace tensorbuf::cli
