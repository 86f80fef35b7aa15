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
  const auto options = options_from<ScatterOptions>(flags);
  TensorArg tensor = load_tensor_arg(flags);
  const TensorBuffer indices = load_npy_tensor(flags.required("indices"));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));
  if (!tensor.out) {
    fn.in_place(tensor.tensor, indices, updates, options);
  } else {
    save_npy(*tensor.out, fn.out_of_place(tensor.tensor, indices, updates, options));
  }
  return kExitOk;
}

}  // namespace

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
    });
  }
  return ops;
}

}  // namespace tensorbuf::cli
