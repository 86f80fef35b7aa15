// `tensorbuf run boolean_mask_update`, `boolean_mask` and `compress`: the mask ops on .npy
// files (docs/boolean_mask.md). Only the update has an in-place form: the others' output has
// its own shape.
#include "cli.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::cli {
namespace {

int run_boolean_mask_update(const Args& flags) {
  const auto options = options_from<BooleanMaskUpdateOptions>(flags);
  TensorArg tensor = load_tensor_arg(flags);
  const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));
  if (!tensor.out) {
    boolean_mask_update_in_place(tensor.tensor, mask, updates, options);
  } else {
    save_npy(*tensor.out, boolean_mask_update(tensor.tensor, mask, updates, options));
  }
  return kExitOk;
}

int run_boolean_mask(const Args& flags) {
  const auto options = options_from<BooleanMaskOptions>(flags);
  const std::string& out = flags.required("out");
  const TensorBuffer tensor = load_npy_tensor(flags.required("tensor"));
  const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
  save_npy(out, boolean_mask(tensor, mask, options));
  return kExitOk;
}

int run_compress(const Args& flags) {
  const auto options = options_from<CompressOptions>(flags);
  const std::string& out = flags.required("out");
  const TensorBuffer input = load_npy_tensor(flags.required("input"));
  const TensorBuffer condition = load_npy_tensor(flags.required("condition"));
  save_npy(out, compress(input, condition, options));
  return kExitOk;
}

}  // namespace

std::vector<RunOp> mask_run_ops() {
  const std::string device = kDeviceUsage;
  return {
      {.name = "boolean_mask_update",
       .synopsis = "--tensor T.npy --mask M.npy --updates U.npy (--out O.npy | --in-place)\n"
                   "[--axis N] [--no-broadcast] " +
                   device,
       .about = "NumPy's out[(slice(None),)*axis + (mask,)] = updates on a copy of tensor. mask:\n"
                "bool, shape tensor.shape[axis:axis+mask.rank]; updates: tensor's dtype,\n"
                "broadcast to the target shape unless --no-broadcast. --in-place: T.npy's data\n"
                "is updated in the file itself (mapped, no copy).\n",
       .run = run_boolean_mask_update},
      {.name = "boolean_mask",
       .synopsis = "--tensor T.npy --mask M.npy --out O.npy [--axis N] " + device,
       .about = "NumPy's tensor[(slice(None),)*axis + (mask,)], TensorFlow's tf.boolean_mask.\n"
                "mask: bool, shape tensor.shape[axis:axis+K]; the output has shape\n"
                "tensor.shape[:axis] + [n] + tensor.shape[axis+K:], n the count of true "
                "entries.\n",
       .run = run_boolean_mask},
      {.name = "compress",
       .synopsis = "--input X.npy --condition C.npy --out O.npy [--axis N] " + device,
       .about = "ONNX Compress: the slices of input along --axis whose 1-D bool condition entry\n"
                "is true (no --axis: the elements of the flattened input). A shorter condition\n"
                "is false past its end; a longer one may only be false there.\n",
       .run = run_compress},
  };
}

}  // namespace tensorbuf::cli
