// `tensorbuf run <op>`: one op on .npy files. Inputs are read, the op runs on --device, and
// the output file is written (atomically) only when the op succeeded.
#include <algorithm>
#include <charconv>
#include <functional>
#include <iostream>
#include <optional>

#include "cli.hpp"
#include "tensorbuf/spellings.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::cli {

const std::vector<FlagSpec> kScatterRunFlags = {
    {"tensor", true},    {"indices", true},        {"updates", true},       {"out", true},
    {"in-place", false}, {"deterministic", false}, {"out-of-bounds", true}, {"device", true}};
const std::vector<FlagSpec> kMaskUpdateRunFlags = {
    {"tensor", true},    {"mask", true}, {"updates", true},       {"out", true},
    {"in-place", false}, {"axis", true}, {"no-broadcast", false}, {"device", true}};
const std::vector<FlagSpec> kSubstrRunFlags = {
    {"input", true}, {"pos", true},           {"len", true},   {"out", true},
    {"unit", true},  {"out-of-bounds", true}, {"device", true}};

namespace {

constexpr const char* kRunUsage = R"(usage: tensorbuf run <op> [flags]

ops:
  tensor_scatter_nd_{%s}
      --tensor T.npy --indices I.npy --updates U.npy (--out O.npy | --in-place)
      [--deterministic] [--out-of-bounds default|error|drop] [--device cpu|cuda]
  boolean_mask_update
      --tensor T.npy --mask M.npy --updates U.npy [--axis N] [--no-broadcast]
      (--out O.npy | --in-place) [--device cpu|cuda]
  boolean_mask
      --tensor T.npy --mask M.npy --out O.npy [--axis N] [--device cpu|cuda]
  compress
      --input X.npy --condition C.npy --out O.npy [--axis N] [--device cpu|cuda]
  normalize          --x X.npy --mean M[,M...] --stddev S[,S...] --out O.npy
  quantize           --x X.npy --zero-point Z --scale S --out O.npy
  dequantize         --x X.npy --zero-point Z --scale S --out O.npy
  cast               --x X.npy --dtype D --out O.npy
  quantize_linear    --x X.npy --scale S.npy --zero-point Z.npy [--axis N] --out O.npy
  dequantize_linear  --x X.npy --scale S.npy --zero-point Z.npy [--axis N] --out O.npy
  process            --x X.npy --steps STEP[/STEP...] --out O.npy
      (each also takes [--device cpu|cuda])
  substr
      --input S.npy --pos P.npy --len L.npy [--unit byte|utf8_char] --out O.npy
      [--out-of-bounds default|error|drop] [--device cpu|cuda]
  gather_nd
      --params P.npy --indices I.npy --out O.npy [--batch-dims N]
      [--out-of-bounds default|error|drop] [--device cpu|cuda]
  gather
      --params P.npy --indices I.npy --out O.npy [--axis N] [--batch-dims N]
      [--out-of-bounds default|error|drop] [--device cpu|cuda]
  gather_elements
      --params P.npy --indices I.npy --out O.npy [--axis N]
      [--out-of-bounds default|error|drop] [--device cpu|cuda]
  scatter_elements
      --tensor T.npy --indices I.npy --updates U.npy (--out O.npy | --in-place) [--axis N]
      [--reduction none|add|mul|min|max] [--deterministic]
      [--out-of-bounds default|error|drop] [--device cpu|cuda]

Inputs and outputs are NumPy .npy files (format 1.0-3.0, either byte order, C order); strings
are dtype S arrays; a 0-d array is a scalar. --in-place maps T.npy into memory and updates its
data in the file itself, with no copy (native byte order; nothing is written on an error).
`tensorbuf run <op> --help` shows one op.
`mpiexec -n N tensorbuf run <op> ... --distributed`: the same op over N MPI ranks, each reading
and writing its rows with MPI-IO (docs/distributed.md); the output file is the same.
Exit status: 0 success, 2 invalid inputs, 1 any other failure (e.g. CUDA unavailable).
)";

// The last lines of every op's --help.
constexpr const char* kDistributedHelp =
    "--distributed: under `mpiexec -n N`, the same op over N MPI ranks, each rank reading\n"
    "and writing its own rows with MPI-IO; the files written are the same as without it.\n";

}  // namespace

std::optional<std::string> output_path(const Args& flags) {
  if (!flags.has("in-place")) return flags.required("out");
  if (flags.has("out")) throw InvalidArgumentError("--in-place and --out cannot both be given");
  return std::nullopt;
}

OutOfBoundsPolicy parse_policy(const std::optional<std::string>& text) {
  if (!text) return OutOfBoundsPolicy::kDeviceDefault;
  return parse_spelling<OutOfBoundsPolicy>(*text, "--out-of-bounds");
}

namespace {

int parse_int_flag(const char* flag, const std::string& text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    throw InvalidArgumentError(std::string(flag) + " must be an integer, not '" + text + "'");
  }
  return value;  // its range is the op's rule, checked in src/core
}

}  // namespace

int parse_axis(const std::string& text) { return parse_int_flag("--axis", text); }
int parse_batch_dims(const std::string& text) { return parse_int_flag("--batch-dims", text); }

Device run_device(const Args& flags) {
  return parse_device(flags.optional("device").value_or("cpu"));
}

namespace {

// The tensor argument: a copy read from the file, or (in place) the file's data mapped.
TensorBuffer load_tensor(const Args& flags, bool in_place) {
  const std::string& path = flags.required("tensor");
  if (!in_place) return load_npy_tensor(path);
  return map_npy_tensor(path, NpyMapOptions{.writable = true});
}

struct ScatterFns {
  TensorBuffer (*out_of_place)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                               const ScatterOptions&);
  void (*in_place)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&, const ScatterOptions&);
};

std::string_view scatter_what(std::string_view op) {
  for (const ScatterCombineInfo& c : kScatterCombines) {
    if (c.name == op) return c.what;
  }
  return "out[indices[r]] op= updates[r]";
}

int run_scatter(const std::string& op, ScatterFns fn, const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run " + op;
  const Args flags(args, kScatterRunFlags, command);
  if (flags.help()) {
    std::cout
        << "usage: " << command
        << " --tensor T.npy --indices I.npy --updates U.npy (--out O.npy | --in-place)\n"
           "       [--deterministic] [--out-of-bounds default|error|drop] [--device cpu|cuda]\n\n"
        << "out = tensor; " << scatter_what(op) << ".\n"
        << "indices: int32 or int64, shape [..., D]; updates: tensor's dtype, shape\n"
           "indices.shape[:-1] + tensor.shape[D:]. --out-of-bounds default: error on the CPU,\n"
           "drop on CUDA. --deterministic: CUDA results equal the CPU's bit for bit.\n"
           "--in-place: T.npy's data is updated in the file itself (mapped, no copy).\n"
        << kDistributedHelp;
    return kExitOk;
  }
  ScatterOptions options;
  options.device = run_device(flags);
  options.out_of_bounds = parse_policy(flags.optional("out-of-bounds"));
  options.deterministic = flags.has("deterministic");
  const std::optional<std::string> out = output_path(flags);
  TensorBuffer tensor = load_tensor(flags, !out);
  const TensorBuffer indices = load_npy_tensor(flags.required("indices"));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));
  if (!out) {
    fn.in_place(tensor, indices, updates, options);
    return kExitOk;
  }
  save_npy(*out, fn.out_of_place(tensor, indices, updates, options));
  return kExitOk;
}

// Every scatter combine of the op table, by its public name.
const std::pair<std::string_view, ScatterFns> kScatterOps[] = {
#define TENSORBUF_SCATTER_FNS(name, op, what) \
  {"tensor_scatter_nd_" #name, {&tensor_scatter_nd_##name, &tensor_scatter_nd_##name##_in_place}},
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_FNS)
#undef TENSORBUF_SCATTER_FNS
};

int run_boolean_mask_update(const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run boolean_mask_update";
  const Args flags(args, kMaskUpdateRunFlags, command);
  if (flags.help()) {
    std::cout << "usage: " << command
              << " --tensor T.npy --mask M.npy --updates U.npy (--out O.npy | --in-place)\n"
                 "       [--axis N] [--no-broadcast] [--device cpu|cuda]\n\n"
                 "NumPy's out[(slice(None),)*axis + (mask,)] = updates on a copy of tensor. mask:\n"
                 "bool, shape tensor.shape[axis:axis+mask.rank]; updates: tensor's dtype,\n"
                 "broadcast to the target shape unless --no-broadcast. --in-place: T.npy's data\n"
                 "is updated in the file itself (mapped, no copy).\n"
              << kDistributedHelp;
    return kExitOk;
  }
  BooleanMaskUpdateOptions options;
  options.device = run_device(flags);
  if (auto axis = flags.optional("axis")) options.axis = parse_axis(*axis);
  options.broadcast = !flags.has("no-broadcast");
  const std::optional<std::string> out = output_path(flags);
  TensorBuffer tensor = load_tensor(flags, !out);
  const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));
  if (!out) {
    boolean_mask_update_in_place(tensor, mask, updates, options);
    return kExitOk;
  }
  save_npy(*out, boolean_mask_update(tensor, mask, updates, options));
  return kExitOk;
}

int run_substr(const std::vector<std::string>& args) {
  const std::string command = "tensorbuf run substr";
  const Args flags(args, kSubstrRunFlags, command);
  if (flags.help()) {
    std::cout << "usage: " << command
              << " --input S.npy --pos P.npy --len L.npy --out O.npy\n"
                 "       [--unit byte|utf8_char] [--out-of-bounds default|error|drop]\n"
                 "       [--device cpu|cuda]\n\n"
                 "TensorFlow's tf.strings.substr. input: dtype S; pos, len: int32 or int64, same\n"
                 "shape, broadcast against input. The output is written as dtype S.\n"
              << kDistributedHelp;
    return kExitOk;
  }
  SubstrOptions options;
  options.device = run_device(flags);
  options.out_of_bounds = parse_policy(flags.optional("out-of-bounds"));
  if (auto unit = flags.optional("unit")) {
    options.unit = parse_spelling<SubstrUnit>(*unit, "--unit");
  }
  const std::string& out = flags.required("out");
  const StringTensor input = load_npy_strings(flags.required("input"));
  const TensorBuffer pos = load_npy_tensor(flags.required("pos"));
  const TensorBuffer len = load_npy_tensor(flags.required("len"));
  const StringTensor result = substr(input, pos, len, options);
  save_npy(out, result);
  return kExitOk;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  if (args.empty())
    throw InvalidArgumentError("tensorbuf run needs an op (see tensorbuf run --help)");
  if (args.front() == "--help" || args.front() == "-h") {
    std::string combines;
    for (const ScatterCombineInfo& c : kScatterCombines) {
      if (!combines.empty()) combines += ',';
      combines.append(c.suffix);
    }
    const std::string_view usage = kRunUsage;
    const std::size_t at = usage.find("%s");
    std::cout << usage.substr(0, at) << combines << usage.substr(at + 2);
    return kExitOk;
  }
  const std::string& op = args.front();
  std::vector<std::string> rest(args.begin() + 1, args.end());
  const auto distributed = std::find(rest.begin(), rest.end(), "--distributed");
  if (distributed != rest.end()) {
    rest.erase(distributed);
    // `--help` describes the op, which takes the same flags with --distributed.
    const bool help = std::find_if(rest.begin(), rest.end(), [](const std::string& a) {
                        return a == "--help" || a == "-h";
                      }) != rest.end();
    if (!help) return run_distributed(op, rest);
  }
  for (const auto& [name, fns] : kScatterOps) {
    if (op == name) return run_scatter(op, fns, rest);
  }
  if (op == "boolean_mask_update") return run_boolean_mask_update(rest);
  if (op == "substr") return run_substr(rest);
  if (op == "boolean_mask") return run_boolean_mask(rest);
  if (op == "compress") return run_compress(rest);
  if (op == "gather_nd") return run_gather_nd(rest);
  if (op == "gather") return run_gather(rest);
  if (op == "gather_elements") return run_gather_elements(rest);
  if (op == "scatter_elements") return run_scatter_elements(rest);
  if (const std::optional<int> status = run_processing(op, rest)) return *status;
  throw InvalidArgumentError("unknown op '" + op + "' (see tensorbuf run --help)");
}

}  // namespace tensorbuf::cli
