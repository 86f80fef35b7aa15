// `tensorbuf run boolean_mask`, `boolean_mask_into` and `compress`: the mask ops on .npy files
// (docs/boolean_mask.md). No in-place form: the output has its own shape.
#include <charconv>

#include "cli.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::cli {
namespace {

std::int64_t parse_capacity(const std::string& text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) {
    throw InvalidArgumentError("--capacity must be an integer >= 0, not '" + text + "'");
  }
  return value;
}

// boolean_mask_into's out: tensor.shape[:axis] + [capacity] + tensor.shape[axis+K:], zeros.
// An axis the mask does not fit at gets [capacity], for the op to refuse with its own message.
TensorBuffer zeroed_out(const TensorBuffer& tensor, const TensorBuffer& mask, int axis,
                        std::int64_t capacity) {
  const Shape& shape = tensor.shape();
  const int rank = shape.rank();
  const int k = mask.shape().rank();
  const int first = axis < 0 ? axis + rank : axis;
  std::vector<std::int64_t> dims{capacity};
  if (k >= 1 && first >= 0 && first + k <= rank) {
    dims.assign(shape.dims().begin(), shape.dims().begin() + first);
    dims.push_back(capacity);
    dims.insert(dims.end(), shape.dims().begin() + first + k, shape.dims().end());
  }
  return TensorBuffer::create_fixed_size(Shape(dims), tensor.data_type());
}

int run_boolean_mask_into(const Args& flags) {
  const auto options = options_from<BooleanMaskOptions>(flags);
  const std::int64_t capacity = parse_capacity(flags.required("capacity"));
  const std::string& out_path = flags.required("out");
  const std::string& count_path = flags.required("count");
  const TensorBuffer tensor = load_npy_tensor(flags.required("tensor"));
  const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
  TensorBuffer out = zeroed_out(tensor, mask, options.axis, capacity);
  TensorBuffer count = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt64);
  boolean_mask_into(tensor, mask, out, count, options);
  save_npy(out_path, out);
  save_npy(count_path, count);
  return kExitOk;
}

#if TENSORBUF_CLI_WITH_MPI
// tensor[mask] along axis 0 with the mask split as the tensor; along another axis the mask is
// whole on every rank and each rank selects in its rows.
int run_boolean_mask_distributed(const Args& flags) {
  const auto options = options_from<BooleanMaskOptions>(flags);
  const std::string& out = flags.required("out");
  const dist::Comm comm(MPI_COMM_WORLD);
  const dist::ShardedTensor tensor = dist::load_npy(comm, flags.required("tensor"));
  const int rank = tensor.global_shape().rank();
  if (options.axis == 0 || options.axis == -rank) {
    const dist::ShardedTensor mask = dist::load_npy(comm, flags.required("mask"));
    dist::save_npy(out, dist::boolean_mask(tensor, mask, options));
  } else {
    const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
    dist::save_npy(out, dist::boolean_mask(tensor, mask, options));
  }
  return kExitOk;
}
#endif

std::vector<RunOp> mask_run_ops() {
  const std::string device = kDeviceUsage;
  return {
      {.name = "boolean_mask",
       .synopsis = "--tensor T.npy --mask M.npy --out O.npy [--axis N] " + device,
       .about = "NumPy's tensor[(slice(None),)*axis + (mask,)], TensorFlow's tf.boolean_mask.\n"
                "mask: bool, shape tensor.shape[axis:axis+K]; the output has shape\n"
                "tensor.shape[:axis] + [n] + tensor.shape[axis+K:], n the count of true "
                "entries.\n",
       .run = [](const Args& f) { return run_to_out(f, "tensor", "mask", &boolean_mask); },
       .distributed = TENSORBUF_CLI_DISTRIBUTED(run_boolean_mask_distributed)},
      {.name = "boolean_mask_into",
       .synopsis = "--tensor T.npy --mask M.npy --capacity C --out O.npy --count N.npy\n"
                   "[--axis N] " +
                   device,
       .about = "boolean_mask into an output of fixed capacity: O.npy has the shape\n"
                "tensor.shape[:axis] + [C] + tensor.shape[axis+K:]; its first min(n, C) slices\n"
                "are the selected ones, the rest zeros. N.npy: n, a 0-d int64 (n > C is not an\n"
                "error: compare it with C). The op never waits on the device.\n",
       .run = run_boolean_mask_into},
      {.name = "compress",
       .synopsis = "--input X.npy --condition C.npy --out O.npy [--axis N] " + device,
       .about = "ONNX Compress: the slices of input along --axis whose 1-D bool condition entry\n"
                "is true (no --axis: the elements of the flattened input). A shorter condition\n"
                "is false past its end; a longer one may only be false there.\n",
       .run = [](const Args& f) { return run_to_out(f, "input", "condition", &compress); }},
  };
}

const RunOpRegistration registration(&mask_run_ops);

}  // namespace
}  // namespace tensorbuf::cli
