// `tensorbuf run gather_nd`: TensorFlow's gather_nd / ONNX GatherND on .npy files
// (docs/gather_nd.md). No in-place form: the output has its own shape.
#include "cli.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::cli {
namespace {

#if TENSORBUF_CLI_WITH_MPI
// The embedding lookup: params and indices split by rows, each rank asks for its block of
// index rows and writes its rows of the answer (the rank-order concatenation is the whole).
int run_gather_nd_distributed(const Args& flags) {
  const auto options = options_from<GatherOptions>(flags);
  const std::string& out = flags.required("out");
  const dist::Comm comm(MPI_COMM_WORLD);
  const dist::ShardedTensor params = dist::load_npy(comm, flags.required("params"));
  const dist::ShardedTensor indices = dist::load_npy(comm, flags.required("indices"));
  TensorBuffer local = dist::gather_nd(params, indices.local(), options);
  const std::int64_t rows = local.shape()[0];  // indices have rank >= 2: the result rank >= 1
  dist::save_npy(
      out, dist::ShardedTensor(comm, dist::RowLayout::from_local(comm, rows), std::move(local)));
  return kExitOk;
}
#endif

std::vector<RunOp> gather_nd_run_ops() {
  return {
      {.name = "gather_nd",
       .synopsis = std::string("--params P.npy --indices I.npy --out O.npy [--batch-dims N]\n") +
                   kPolicyUsage + " " + kDeviceUsage,
       .about = "TensorFlow's tf.gather_nd, ONNX GatherND: with b = --batch-dims (default 0) and\n"
                "D = indices.shape[-1], out[i...] = params[i[:b]..., indices[i...]], shape\n"
                "indices.shape[:-1] + params.shape[b+D:]. indices: int32 or int64; negative\n"
                "components are out of range (error on the CPU by default; drop: zeros).\n",
       .run = [](const Args& f) { return run_to_out(f, "params", "indices", &gather_nd); },
       .distributed = TENSORBUF_CLI_DISTRIBUTED(run_gather_nd_distributed)}};
}

const RunOpRegistration registration(&gather_nd_run_ops);

}  // namespace
}  // namespace tensorbuf::cli
