// `tensorbuf run gather`, `run gather_elements` and `run scatter_elements`: ONNX Gather,
// GatherElements and ScatterElements on .npy files (docs/elements.md). scatter_elements also
// runs in place (T.npy mapped), as the scatter ops do.
#include <iostream>

#include "cli.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::cli {
namespace {

const std::vector<FlagSpec> kGatherRunFlags = {
    {"params", true},     {"indices", true},       {"out", true},   {"axis", true},
    {"batch-dims", true}, {"out-of-bounds", true}, {"device", true}};
const std::vector<FlagSpec> kGatherElementsRunFlags = {{"params", true},        {"indices", true},
                                                       {"out", true},           {"axis", true},
                                                       {"out-of-bounds", true}, {"device", true}};
const std::vector<FlagSpec> kScatterElementsRunFlags = {
    {"tensor", true},        {"indices", true}, {"updates", true},   {"out", true},
    {"in-place", false},     {"axis", true},    {"reduction", true}, {"deterministic", false},
    {"out-of-bounds", true}, {"device", true}};


// The options both gathers read from their flags (gather_elements has no --batch-dims).
GatherOptions gather_options(const Args& flags) {
  GatherOptions options;
  options.device = run_device(flags);
  options.out_of_bounds = parse_policy(flags.optional("out-of-bounds"));
  if (auto axis = flags.optional("axis")) options.axis = parse_axis(*axis);
  if (auto batch_dims = flags.optional("batch-dims")) {
    options.batch_dims = parse_batch_dims(*batch_dims);
  }
  return options;
}

}  // namespace

int run_gather(const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run gather";
  const Args flags(args, kGatherRunFlags, command);
  if (flags.help()) {
    std::cout
        << "usage: " << command
        << " --params P.npy --indices I.npy --out O.npy [--axis N] [--batch-dims N]\n"
           "       [--out-of-bounds default|error|drop] [--device cpu|cuda]\n\n"
           "ONNX Gather, np.take(params, indices, axis), tf.gather: the output has shape\n"
           "params.shape[:axis] + indices.shape[b:] + params.shape[axis+1:], b =\n"
           "--batch-dims (default 0: leading dims shared by params and indices). indices:\n"
           "int32 or int64; -s <= i < 0 means i + s (s = params.shape[axis]); anything\n"
           "else outside [0, s) is out of range (error on the CPU by default; drop: zeros).\n";
    return kExitOk;
  }
  const GatherOptions options = gather_options(flags);
  const std::string& out = flags.required("out");
  const TensorBuffer params = load_npy_tensor(flags.required("params"));
  const TensorBuffer indices = load_npy_tensor(flags.required("indices"));
  save_npy(out, gather(params, indices, options));
  return kExitOk;
}

int run_gather_elements(const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run gather_elements";
  const Args flags(args, kGatherElementsRunFlags, command);
  if (flags.help()) {
    std::cout
        << "usage: " << command
        << " --params P.npy --indices I.npy --out O.npy [--axis N]\n"
           "       [--out-of-bounds default|error|drop] [--device cpu|cuda]\n\n"
           "ONNX GatherElements, torch.gather, np.take_along_axis: out[p] = params[p with\n"
           "p[axis] = indices[p]], shape indices.shape (params' rank, indices.shape[d] <=\n"
           "params.shape[d] off the axis). Negative indices and --out-of-bounds as gather's.\n";
    return kExitOk;
  }
  const GatherOptions options = gather_options(flags);
  const std::string& out = flags.required("out");
  const TensorBuffer params = load_npy_tensor(flags.required("params"));
  const TensorBuffer indices = load_npy_tensor(flags.required("indices"));
  save_npy(out, gather_elements(params, indices, options));
  return kExitOk;
}

int run_scatter_elements(const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run scatter_elements";
  const Args flags(args, kScatterElementsRunFlags, command);
  if (flags.help()) {
    std::cout << "usage: " << command
              << " --tensor T.npy --indices I.npy --updates U.npy (--out O.npy | --in-place)\n"
                 "       [--axis N] [--reduction "
              << spelling_list<Reduction>("|", "|")
              << "] [--deterministic]\n"
                 "       [--out-of-bounds default|error|drop] [--device cpu|cuda]\n\n"
                 "ONNX ScatterElements, torch scatter_reduce_ (include_self): out = tensor; for\n"
                 "each position p of indices in row-major order, out[p with p[axis] = indices[p]]\n"
                 "= combine(that, updates[p]) (none: assign, the last duplicate wins on the CPU).\n"
                 "indices: int32 or int64; updates: tensor's dtype, indices' shape. Negative\n"
                 "indices and --out-of-bounds as gather's (drop: skipped). --deterministic: CUDA\n"
                 "results equal the CPU's bit for bit. --in-place: T.npy's data is updated in the\n"
                 "file itself (mapped, no copy).\n";
    return kExitOk;
  }
  ScatterElementsOptions options;
  options.device = run_device(flags);
  options.out_of_bounds = parse_policy(flags.optional("out-of-bounds"));
  options.deterministic = flags.has("deterministic");
  if (auto axis = flags.optional("axis")) options.axis = parse_axis(*axis);
  if (auto reduction = flags.optional("reduction")) {
    options.reduction = parse_spelling<Reduction>(*reduction, "--reduction");
  }
  const std::optional<std::string> out = output_path(flags);
  const std::string& tensor_path = flags.required("tensor");
  TensorBuffer tensor = out ? load_npy_tensor(tensor_path)
                            : map_npy_tensor(tensor_path, NpyMapOptions{.writable = true});
  const TensorBuffer indices = load_npy_tensor(flags.required("indices"));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));
  if (!out) {
    scatter_elements_in_place(tensor, indices, updates, options);
    return kExitOk;
  }
  save_npy(*out, scatter_elements(tensor, indices, updates, options));
  return kExitOk;
}

}  // namespace tensorbuf::cli
