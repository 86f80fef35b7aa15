// `tensorbuf run gather`, `run gather_elements` and `run scatter_elements`: ONNX Gather,
// GatherElements and ScatterElements on .npy files (docs/elements.md). scatter_elements also
// runs in place (T.npy mapped), as the scatter ops do.
#include "cli.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::cli {
namespace {

int run_scatter_elements(const Args& flags) {
  return run_tensor_update<ScatterElementsOptions>(
      flags, "indices",
      [](TensorBuffer& t, const TensorBuffer& i, const TensorBuffer& u, const auto& o) {
        scatter_elements_in_place(t, i, u, o);
      },
      [](const TensorBuffer& t, const TensorBuffer& i, const TensorBuffer& u, const auto& o) {
        return scatter_elements(t, i, u, o);
      });
}

std::vector<RunOp> elements_run_ops() {
  const std::string policy_device = std::string(kPolicyUsage) + " " + kDeviceUsage;
  return {
      {.name = "gather",
       .synopsis = "--params P.npy --indices I.npy --out O.npy [--axis N] [--batch-dims N]\n" +
                   policy_device,
       .about = "ONNX Gather, np.take(params, indices, axis), tf.gather: the output has shape\n"
                "params.shape[:axis] + indices.shape[b:] + params.shape[axis+1:], b =\n"
                "--batch-dims (default 0: leading dims shared by params and indices). indices:\n"
                "int32 or int64; -s <= i < 0 means i + s (s = params.shape[axis]); anything\n"
                "else outside [0, s) is out of range (error on the CPU by default; drop: zeros).\n",
       .run = [](const Args& f) { return run_to_out(f, "params", "indices", &gather); }},
      {.name = "gather_elements",
       .synopsis = "--params P.npy --indices I.npy --out O.npy [--axis N]\n" + policy_device,
       .about = "ONNX GatherElements, torch.gather, np.take_along_axis: out[p] = params[p with\n"
                "p[axis] = indices[p]], shape indices.shape (params' rank, indices.shape[d] <=\n"
                "params.shape[d] off the axis). Negative indices and --out-of-bounds as "
                "gather's.\n",
       .run = [](const Args& f) { return run_to_out(f, "params", "indices", &gather_elements); }},
      {.name = "scatter_elements",
       .synopsis = "--tensor T.npy --indices I.npy --updates U.npy (--out O.npy | --in-place)\n"
                   "[--axis N] [--reduction " +
                   spelling_list<Reduction>("|", "|") + "] [--deterministic]\n" + policy_device,
       .about = "ONNX ScatterElements, torch scatter_reduce_ (include_self): out = tensor; for\n"
                "each position p of indices in row-major order, out[p with p[axis] = indices[p]]\n"
                "= combine(that, updates[p]) (none: assign, the last duplicate wins on the CPU).\n"
                "indices: int32 or int64; updates: tensor's dtype, indices' shape. Negative\n"
                "indices and --out-of-bounds as gather's (drop: skipped). --deterministic: CUDA\n"
                "results equal the CPU's bit for bit. --in-place: T.npy's data is updated in the\n"
                "file itself (mapped, no copy).\n",
       .run = run_scatter_elements},
  };
}

const RunOpRegistration registration(&elements_run_ops);

}  // namespace
}  // namespace tensorbuf::cli
