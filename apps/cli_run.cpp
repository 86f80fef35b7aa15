// `tensorbuf run <op>`: one op on .npy files. Inputs are read, the op runs on --device, and
// the output file is written (atomically) only when the op succeeded. The ops are run_ops()
// (apps/cli_run_ops.cpp): the usage, each op's --help and the dispatch are made from that list.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <optional>

#include "cli.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::cli {

std::optional<std::string> output_path(const Args& flags) {
  if (!flags.has("in-place")) return flags.required("out");
  if (flags.has("out")) throw InvalidArgumentError("--in-place and --out cannot both be given");
  return std::nullopt;
}

TensorArg load_tensor_arg(const Args& flags) {
  std::optional<std::string> out = output_path(flags);
  const std::string& path = flags.required("tensor");
  TensorBuffer tensor =
      out ? load_npy_tensor(path) : map_npy_tensor(path, NpyMapOptions{.writable = true});
  return {std::move(out), std::move(tensor)};
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

constexpr const char* kRunUsageEnd = R"(
Inputs and outputs are NumPy .npy files (format 1.0-3.0, either byte order, C order); strings
are dtype S arrays; a 0-d array is a scalar. --in-place maps T.npy into memory and updates its
data in the file itself, with no copy (native byte order; nothing is written on an error).
`tensorbuf run <op> --help` shows one op.
`mpiexec -n N tensorbuf run <op> ... --distributed`: the same op over N MPI ranks, each reading
and writing its rows with MPI-IO (docs/distributed.md); the output file is the same.
Exit status: 0 success, 2 invalid inputs, 1 any other failure (e.g. CUDA unavailable).
)";

// The last lines of the --help of every op the op table gives a distributed form.
constexpr const char* kDistributedHelp =
    "--distributed: under `mpiexec -n N`, the same op over N MPI ranks, each rank reading\n"
    "and writing its own rows with MPI-IO; the files written are the same as without it.\n";

bool has_distributed_form(std::string_view op) {
  bool found = false;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if (!family.distributed) continue;
    for_each_op_name(family, [&](std::string_view name) { found = found || name == op; });
  }
  return found;
}

// The synopsis with each line after the first indented by `indent`.
std::string indented(const std::string& synopsis, const std::string& indent) {
  std::string text;
  for (const char c : synopsis) {
    text += c;
    if (c == '\n') text += indent;
  }
  return text;
}

void print_run_usage() {
  const std::vector<const RunOp*> ops = listed_run_ops();  // before any output: it may throw
  std::cout << "usage: tensorbuf run <op> [flags]\n\nops:\n";
  for (const RunOp* op : ops) {
    std::cout << "  " << op->listed_name() << "\n      " << indented(op->synopsis, "      ")
              << '\n';
  }
  std::cout << kRunUsageEnd;
}

// "int32, int64": the dtypes of `set` in DataType order.
std::string dtype_list(unsigned set) {
  std::string text;
  for (unsigned i = 0; (1u << i) <= dtypes::kAll; ++i) {
    if ((set & (1u << i)) == 0) continue;
    if (!text.empty()) text += ", ";
    text += to_string(static_cast<DataType>(i));
  }
  return text;
}

// The dtypes the op takes, from its row of the op table.
void print_op_dtypes(std::string_view op) {
  const OpTraits* traits = find_op_traits(op);
  if (traits == nullptr) return;
  std::string_view first;  // the first of the op's inputs in the op table
  for (const OpFamilyInfo& family : kOpFamilies) {
    for_each_op_name(family, [&](std::string_view name) {
      if (name == op) first = family.inputs.substr(0, family.inputs.find(','));
    });
  }
  std::cout << "dtypes: " << first << ": "
            << (traits->dtypes == dtypes::kNone ? std::string("strings")
                                                : dtype_list(traits->dtypes));
  if (traits->index_dtypes != dtypes::kNone) {
    std::cout << "; " << traits->index_inputs << ": " << dtype_list(traits->index_dtypes);
  }
  std::cout << '\n';
}

void print_op_help(const RunOp& op) {
  std::cout << "usage: tensorbuf run " << op.name << ' ' << indented(op.synopsis, "       ")
            << "\n\n"
            << op.about;
  print_op_dtypes(op.name);
  if (has_distributed_form(op.name)) std::cout << kDistributedHelp;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
  if (args.empty())
    throw InvalidArgumentError("tensorbuf run needs an op (see tensorbuf run --help)");
  if (args.front() == "--help" || args.front() == "-h") {
    print_run_usage();
    return kExitOk;
  }
  const std::string& name = args.front();
  std::vector<std::string> rest(args.begin() + 1, args.end());
  const auto distributed = std::find(rest.begin(), rest.end(), "--distributed");
  if (distributed != rest.end()) {
    rest.erase(distributed);
    // `--help` describes the op, which takes the same flags with --distributed.
    const bool help = std::find_if(rest.begin(), rest.end(), [](const std::string& a) {
                        return a == "--help" || a == "-h";
                      }) != rest.end();
    if (!help) return run_distributed(name, rest);
  }
  const RunOp* op = find_run_op(name);
  if (op == nullptr) {
    throw InvalidArgumentError("unknown op '" + name + "' (see tensorbuf run --help)");
  }
  const Args flags(rest, flags_of(op->synopsis), "tensorbuf run " + name);
  if (flags.help()) {
    print_op_help(*op);
    return kExitOk;
  }
  return op->run(flags);
}

}  // namespace tensorbuf::cli
