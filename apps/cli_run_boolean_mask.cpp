// `tensorbuf run boolean_mask` and `tensorbuf run compress`: the read side of the mask ops on
// .npy files (docs/boolean_mask.md). No in-place form: the output has its own shape.
#include <iostream>

#include "cli.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::cli {

const std::vector<FlagSpec> kBooleanMaskRunFlags = {
    {"tensor", true}, {"mask", true}, {"out", true}, {"axis", true}, {"device", true}};

namespace {

const std::vector<FlagSpec> kCompressRunFlags = {
    {"input", true}, {"condition", true}, {"out", true}, {"axis", true}, {"device", true}};

}  // namespace

int run_boolean_mask(const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run boolean_mask";
  const Args flags(args, kBooleanMaskRunFlags, command);
  if (flags.help()) {
    std::cout << "usage: " << command
              << " --tensor T.npy --mask M.npy --out O.npy [--axis N] [--device cpu|cuda]\n\n"
                 "NumPy's tensor[(slice(None),)*axis + (mask,)], TensorFlow's tf.boolean_mask.\n"
                 "mask: bool, shape tensor.shape[axis:axis+K]; the output has shape\n"
                 "tensor.shape[:axis] + [n] + tensor.shape[axis+K:], n the count of true entries.\n";
    return kExitOk;
  }
  BooleanMaskOptions options;
  options.device = run_device(flags);
  if (auto axis = flags.optional("axis")) options.axis = parse_axis(*axis);
  const std::string& out = flags.required("out");
  const TensorBuffer tensor = load_npy_tensor(flags.required("tensor"));
  const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
  save_npy(out, boolean_mask(tensor, mask, options));
  return kExitOk;
}

int run_compress(const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run compress";
  const Args flags(args, kCompressRunFlags, command);
  if (flags.help()) {
    std::cout << "usage: " << command
              << " --input X.npy --condition C.npy --out O.npy [--axis N] [--device cpu|cuda]\n\n"
                 "ONNX Compress: the slices of input along --axis whose 1-D bool condition entry\n"
                 "is true (no --axis: the elements of the flattened input). A shorter condition\n"
                 "is false past its end; a longer one may only be false there.\n";
    return kExitOk;
  }
  CompressOptions options;
  options.device = run_device(flags);
  if (auto axis = flags.optional("axis")) options.axis = parse_axis(*axis);
  const std::string& out = flags.required("out");
  const TensorBuffer input = load_npy_tensor(flags.required("input"));
  const TensorBuffer condition = load_npy_tensor(flags.required("condition"));
  save_npy(out, compress(input, condition, options));
  return kExitOk;
}

}  // namespace tensorbuf::cli
