// `tensorbuf run gather_nd`: TensorFlow's gather_nd / ONNX GatherND on .npy files
// (docs/gather_nd.md). No in-place form: the output has its own shape.
#include "cli.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::cli {
namespace {

int run_gather_nd(const Args& flags) {
  const auto options = options_from<GatherOptions>(flags);
  const std::string& out = flags.required("out");
  const TensorBuffer params = load_npy_tensor(flags.required("params"));
  const TensorBuffer indices = load_npy_tensor(flags.required("indices"));
  save_npy(out, gather_nd(params, indices, options));
  return kExitOk;
}

}  // namespace

std::vector<RunOp> gather_nd_run_ops() {
  return {
      {.name = "gather_nd",
       .synopsis = std::string("--params P.npy --indices I.npy --out O.npy [--batch-dims N]\n") +
                   kPolicyUsage + " " + kDeviceUsage,
       .about = "TensorFlow's tf.gather_nd, ONNX GatherND: with b = --batch-dims (default 0) and\n"
                "D = indices.shape[-1], out[i...] = params[i[:b]..., indices[i...]], shape\n"
                "indices.shape[:-1] + params.shape[b+D:]. indices: int32 or int64; negative\n"
                "components are out of range (error on the CPU by default; drop: zeros).\n",
       .run = run_gather_nd}};
}

}  // namespace tensorbuf::cli
