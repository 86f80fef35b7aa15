// `tensorbuf run tensor_scatter_nd_<combine>`: one run op per combine of the op table
// (tensorbuf/op_table.hpp), in place (T.npy mapped) or to --out.
#include <iterator>

#include "cli.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::cli {
namespace {

struct ScatterFns {
  TensorBuffer (*out_of_place)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                               const ScatterOptions&);
  void (*in_place)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&, const ScatterOptions&);
};

int run_scatter(ScatterFns fn, const Args& flags) {
  return run_tensor_update<ScatterOptions>(flags, "indices", fn.in_place, fn.out_of_place);
}

#if TENSORBUF_CLI_WITH_MPI
using DistScatter = void (*)(dist::ShardedTensor&, const TensorBuffer&, const TensorBuffer&,
                             const ScatterOptions&);

// The tensor, indices and updates split by rows: this rank's block of each.
int run_scatter_distributed(DistScatter fn, const Args& flags) {
  const auto options = options_from<ScatterOptions>(flags);
  const std::optional<std::string> out = output_path(flags);
  const dist::Comm comm(MPI_COMM_WORLD);
  dist::ShardedTensor tensor = dist::load_npy(comm, flags.required("tensor"));
  const dist::ShardedTensor indices = dist::load_npy(comm, flags.required("indices"));
  const dist::ShardedTensor updates = dist::load_npy(comm, flags.required("updates"));
  fn(tensor, indices.local(), updates.local(), options);
  write_sharded(out, flags, tensor);
  return kExitOk;
}

// The distributed in-place function of each combine, in the table's order.
constexpr DistScatter kDistScatters[] = {
#define TENSORBUF_DIST_SCATTER_FN(name, op, what) &dist::tensor_scatter_nd_##name##_in_place,
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_DIST_SCATTER_FN)
#undef TENSORBUF_DIST_SCATTER_FN
};

std::function<int(const Args&)> distributed_runner(std::size_t combine) {
  return [fn = kDistScatters[combine]](const Args& flags) {
    return run_scatter_distributed(fn, flags);
  };
}
#else
std::function<int(const Args&)> distributed_runner(std::size_t) { return nullptr; }
#endif

std::vector<RunOp> scatter_nd_run_ops() {
  // The C++ functions of each combine, in the table's order.
  const ScatterFns fns[] = {
#define TENSORBUF_SCATTER_FNS(name, op, what) \
  {&tensor_scatter_nd_##name, &tensor_scatter_nd_##name##_in_place},
      TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_FNS)
#undef TENSORBUF_SCATTER_FNS
  };
  static_assert(std::size(fns) == kScatterCombines.size());
  std::string listed_as = "tensor_scatter_nd_";
  for (const ScatterCombineInfo& c : kScatterCombines) {
    listed_as.append(listed_as.back() == '_' ? "{" : ",").append(c.suffix);
  }
  listed_as += '}';
  std::vector<RunOp> ops;
  for (std::size_t i = 0; i < std::size(fns); ++i) {
    ops.push_back({
        .name = std::string(kScatterCombines[i].name),
        .synopsis = std::string("--tensor T.npy --indices I.npy --updates U.npy") +
                    " (--out O.npy | --in-place)\n[--deterministic] " + kPolicyUsage + " " +
                    kDeviceUsage,
        .about =
            "out = tensor; " + std::string(kScatterCombines[i].what) + ".\n" +
            "indices: int32 or int64, shape [..., D]; updates: tensor's dtype, shape\n"
            "indices.shape[:-1] + tensor.shape[D:]. --out-of-bounds default: error on the CPU,\n"
            "drop on CUDA. --deterministic: CUDA results equal the CPU's bit for bit.\n"
            "--in-place: T.npy's data is updated in the file itself (mapped, no copy).\n",
        .run = [fn = fns[i]](const Args& flags) { return run_scatter(fn, flags); },
        .listed_as = listed_as,
        .distributed = distributed_runner(i),
    });
  }
  return ops;
}

const RunOpRegistration registration(&scatter_nd_run_ops);

}  // namespace
}  // namespace tensorbuf::cli
