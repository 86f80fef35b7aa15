// `tensorbuf run boolean_mask_update`: the masked update on .npy files
// (docs/boolean_mask_update.md), in place (T.npy mapped) or to --out.
#include "cli.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::cli {
namespace {

int run_boolean_mask_update(const Args& flags) {
  return run_tensor_update<BooleanMaskUpdateOptions>(
      flags, "mask",
      [](TensorBuffer& t, const TensorBuffer& m, const TensorBuffer& u, const auto& o) {
        boolean_mask_update_in_place(t, m, u, o);
      },
      [](const TensorBuffer& t, const TensorBuffer& m, const TensorBuffer& u, const auto& o) {
        return boolean_mask_update(t, m, u, o);
      });
}

#if TENSORBUF_CLI_WITH_MPI
// The tensor split by rows, the updates whole on every rank; along axis 0 the mask split as
// the tensor (both block layouts of the same row count), along another axis whole.
int run_boolean_mask_update_distributed(const Args& flags) {
  const auto options = options_from<BooleanMaskUpdateOptions>(flags);
  const std::optional<std::string> out = output_path(flags);
  const dist::Comm comm(MPI_COMM_WORLD);
  dist::ShardedTensor tensor = dist::load_npy(comm, flags.required("tensor"));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));
  const int rank = tensor.global_shape().rank();
  if (options.axis == 0 || options.axis == -rank) {
    const dist::ShardedTensor mask = dist::load_npy(comm, flags.required("mask"));
    dist::boolean_mask_update_in_place(tensor, mask, updates, options);
  } else {
    const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
    dist::boolean_mask_update_in_place(tensor, mask, updates, options);
  }
  write_sharded(out, flags, tensor);
  return kExitOk;
}
#endif

std::vector<RunOp> boolean_mask_update_run_ops() {
  return {{.name = "boolean_mask_update",
           .synopsis = "--tensor T.npy --mask M.npy --updates U.npy (--out O.npy | --in-place)\n"
                       "[--axis N] [--no-broadcast] " +
                       std::string(kDeviceUsage),
           .about =
               "NumPy's out[(slice(None),)*axis + (mask,)] = updates on a copy of tensor. mask:\n"
               "bool, shape tensor.shape[axis:axis+mask.rank]; updates: tensor's dtype,\n"
               "broadcast to the target shape unless --no-broadcast. --in-place: T.npy's data\n"
               "is updated in the file itself (mapped, no copy).\n",
           .run = run_boolean_mask_update,
           .distributed = TENSORBUF_CLI_DISTRIBUTED(run_boolean_mask_update_distributed)}};
}

const RunOpRegistration registration(&boolean_mask_update_run_ops);

}  // namespace
}  // namespace tensorbuf::cli
