// `tensorbuf run normalize | quantize | dequantize | cast | quantize_linear |
// dequantize_linear | process`: the pre- and post-processing ops on .npy files
// (docs/processing.md); `process` runs a Processor chain given as --steps.
// TFLite Support's ops take their parameters as numbers on the command line; ONNX's
// quantize_linear / dequantize_linear take tensors (per tensor or per axis) as .npy files.
#include <charconv>

#include "cli.hpp"
#include "tensorbuf/processing.hpp"
#include "tensorbuf/quantize_linear.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::cli {
namespace {

// One float, or several separated by commas (`--mean 123.675,116.28,103.53`).
std::vector<float> parse_floats(const std::string& flag, const std::string& text) {
  std::vector<float> values;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    float value = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + end, value);
    if (ec != std::errc() || ptr != text.data() + end || end == begin) {
      throw InvalidArgumentError("--" + flag + " must be numbers separated by commas, not '" +
                                 text + "'");
    }
    values.push_back(value);
    if (end == text.size()) return values;
    begin = end + 1;
  }
}

float parse_float(const std::string& flag, const std::string& text) {
  const std::vector<float> values = parse_floats(flag, text);
  if (values.size() != 1) throw InvalidArgumentError("--" + flag + " takes one number");
  return values.front();
}

// One chain step, `name:arguments` (parameters separated by ':', values by ','):
// normalize:M[,M...]:S[,S...], quantize:Z:S, dequantize:Z:S, cast:DTYPE.
ProcessStep parse_step(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t begin = 0;;) {
    const std::size_t end = std::min(text.find(':', begin), text.size());
    parts.push_back(text.substr(begin, end - begin));
    if (end == text.size()) break;
    begin = end + 1;
  }
  const std::string& name = parts[0];
  const std::size_t want = name == "cast" ? 2 : 3;
  if ((name != "normalize" && name != "quantize" && name != "dequantize" && name != "cast") ||
      parts.size() != want) {
    throw InvalidArgumentError(
        "--steps: '" + text +
        "' is not a step (normalize:M[,M...]:S[,S...], quantize:Z:S, dequantize:Z:S or "
        "cast:DTYPE)");
  }
  if (name == "cast") return cast_op(parse_spelling<DataType>(parts[1], "--steps cast"));
  if (name == "normalize") {
    const std::vector<float> means = parse_floats("steps", parts[1]);
    const std::vector<float> stddevs = parse_floats("steps", parts[2]);
    if (means.size() == 1 && stddevs.size() == 1) return normalize_op(means[0], stddevs[0]);
    return normalize_op(means, stddevs);
  }
  const float zero_point = parse_float("steps", parts[1]);
  const float scale = parse_float("steps", parts[2]);
  return name == "quantize" ? quantize_op(zero_point, scale) : dequantize_op(zero_point, scale);
}

// The chain of `--steps`: steps separated by '/'.
Processor parse_steps(const std::string& text) {
  std::vector<ProcessStep> steps;
  for (std::size_t begin = 0;;) {
    const std::size_t end = std::min(text.find('/', begin), text.size());
    steps.push_back(parse_step(text.substr(begin, end - begin)));
    if (end == text.size()) break;
    begin = end + 1;
  }
  return Processor(std::move(steps));
}

struct ProcessingCommand {
  const char* op;
  const char* usage;  // the flags besides --x, --out and --device
  const char* help;   // what the op computes
  TensorBuffer (*run)(const TensorBuffer& x, const Args& flags);
  const char* follows = "";  // a command that is no op of the table: the op it is listed after
};

const ProcessingCommand kCommands[] = {
    {"normalize", "--mean M[,M...] --stddev S[,S...]",
     "TFLite Support's NormalizeOp: (float32(x) - mean) / stddev in float32. One number each,\n"
     "or one per channel (x's last axis); mean 0 with stddev 1 is the identity.\n",
     [](const TensorBuffer& x, const Args& flags) {
       const std::vector<float> means = parse_floats("mean", flags.required("mean"));
       const std::vector<float> stddevs = parse_floats("stddev", flags.required("stddev"));
       if (means.size() == 1 && stddevs.size() == 1) {
         return normalize(x, means[0], stddevs[0], options_from<ProcessOptions>(flags));
       }
       return normalize(x, means, stddevs, options_from<ProcessOptions>(flags));
     }},
    {"quantize", "--zero-point Z --scale S",
     "TFLite Support's QuantizeOp: normalize(x, -zero_point * scale, scale), float32.\n",
     [](const TensorBuffer& x, const Args& flags) {
       return quantize(x, parse_float("zero-point", flags.required("zero-point")),
                       parse_float("scale", flags.required("scale")),
                       options_from<ProcessOptions>(flags));
     }},
    {"dequantize", "--zero-point Z --scale S",
     "TFLite Support's DequantizeOp: normalize(x, zero_point, 1 / scale), float32.\n",
     [](const TensorBuffer& x, const Args& flags) {
       return dequantize(x, parse_float("zero-point", flags.required("zero-point")),
                         parse_float("scale", flags.required("scale")),
                         options_from<ProcessOptions>(flags));
     }},
    {"cast", "--dtype bool|uint8|int8|...|float64",
     "TFLite Support's CastOp, for every pair of dtypes (saturating, NaN to 0).\n",
     [](const TensorBuffer& x, const Args& flags) {
       return cast(x, parse_spelling<DataType>(flags.required("dtype"), "--dtype"),
                   options_from<ProcessOptions>(flags));
     }},
    {"quantize_linear", "--scale S.npy --zero-point Z.npy [--axis N]",
     "ONNX QuantizeLinear (opset 13): saturate(round_half_even(x / scale) + zero_point) in the\n"
     "zero point's dtype; scale and zero point of one element (per tensor) or 1-D along --axis\n"
     "(default 1).\n",
     [](const TensorBuffer& x, const Args& flags) {
       return quantize_linear(x, load_npy_tensor(flags.required("scale")),
                              load_npy_tensor(flags.required("zero-point")),
                              options_from<QuantizeLinearOptions>(flags));
     }},
    {"dequantize_linear", "--scale S.npy --zero-point Z.npy [--axis N]",
     "ONNX DequantizeLinear (opset 13): (float32(x) - zero_point) * scale in float32.\n",
     [](const TensorBuffer& x, const Args& flags) {
       return dequantize_linear(x, load_npy_tensor(flags.required("scale")),
                                load_npy_tensor(flags.required("zero-point")),
                                options_from<QuantizeLinearOptions>(flags));
     }},
    {"process", "--steps STEP[/STEP...]",
     "A Processor: the steps in one pass, bit-equal to the single ops one by one. A step is\n"
     "normalize:M[,M...]:S[,S...], quantize:Z:S, dequantize:Z:S or cast:DTYPE, e.g.\n"
     "--steps normalize:127.5,127.5,127.5:127.5,127.5,127.5/cast:float16\n",
     [](const TensorBuffer& x, const Args& flags) {
       return parse_steps(flags.required("steps")).run(x, options_from<ProcessOptions>(flags));
     },
     "dequantize_linear"},
};

std::vector<RunOp> processing_run_ops() {
  std::vector<RunOp> ops;
  for (const ProcessingCommand& command : kCommands) {
    ops.push_back(
        {.name = command.op,
         .synopsis = std::string("--x X.npy ") + command.usage + " --out O.npy " + kDeviceUsage,
         .about = command.help,
         .run =
             [run = command.run](const Args& flags) {
               const std::string& out = flags.required("out");
               save_npy(out, run(load_npy_tensor(flags.required("x")), flags));
               return kExitOk;
             },
         .follows = command.follows});
  }
  return ops;
}

const RunOpRegistration registration(&processing_run_ops);

}  // namespace
}  // namespace tensorbuf::cli
