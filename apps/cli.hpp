// The `tensorbuf` command-line tool: subcommands, argument parsing and error reporting shared
// by the apps/cli_*.cpp files. Usage and decisions: docs/cli.md.
#pragma once

#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorbuf/spellings.hpp"
#include "tensorbuf/tensorbuf.hpp"
#if TENSORBUF_CLI_WITH_MPI
#include "tensorbuf/dist.hpp"
#endif

namespace tensorbuf::cli {

// Exit statuses (spec/api.md, "Command line").
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitInvalid = 2;

// A subcommand's flags: `--name value`, `--name=value`, or `--name` alone for a switch.
struct FlagSpec {
  std::string name;  // without the dashes
  bool takes_value;
};

class Args {
 public:
  // Parses `args` against `specs`; InvalidArgumentError (exit 2) for an unknown flag, a missing
  // value, a repeated flag or a stray positional argument. `--help`/`-h` is always known.
  Args(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs,
       const std::string& command);

  bool help() const { return help_; }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  // The value of a flag that must be given (InvalidArgumentError naming it otherwise).
  const std::string& required(const std::string& name) const;
  std::optional<std::string> optional(const std::string& name) const;

 private:
  std::string command_;
  bool help_ = false;
  std::map<std::string, std::string> values_;
};

// One line on stderr, "<ErrorClass>: message", and the exit status for it: 2 for
// InvalidArgument and OutOfRange (the inputs are invalid), 1 for everything else (both from
// tensorbuf/error_classes.hpp).
int report_error(const std::exception& error);

// The device of `--device cpu|cuda|cuda:N` (InvalidArgumentError for anything else).
Device parse_device(const std::string& text);

// The output of an op that can run in place: the --out path, or none for --in-place (exactly
// one of the two; InvalidArgumentError otherwise).
std::optional<std::string> output_path(const Args& flags);

// The --tensor of an op with an in-place form and where its result goes: --out (`out`, the
// tensor read from its file) or --in-place (no `out`, the file's data mapped writable).
struct TensorArg {
  std::optional<std::string> out;
  TensorBuffer tensor;
};
TensorArg load_tensor_arg(const Args& flags);

// `--out-of-bounds default|error|drop`, `--axis N` and `--batch-dims N` (InvalidArgumentError
// otherwise).
OutOfBoundsPolicy parse_policy(const std::optional<std::string>& text);
int parse_axis(const std::string& text);
int parse_batch_dims(const std::string& text);
// `--device` of `tensorbuf run <op>`: cpu when not given.
Device run_device(const Args& flags);

// An op's options from its flags, one meaning per flag name for every op: --device (cpu when
// not given) and each of --out-of-bounds, --axis, --batch-dims, --deterministic,
// --no-broadcast, --reduction and --unit whose field the options have (a flag the op's usage
// does not name is refused before this runs).
template <class Options>
Options options_from(const Args& flags) {
  Options options;
  options.device = run_device(flags);
  if constexpr (requires { options.out_of_bounds; }) {
    options.out_of_bounds = parse_policy(flags.optional("out-of-bounds"));
  }
  if constexpr (requires { options.deterministic; }) {
    options.deterministic = flags.has("deterministic");
  }
  if constexpr (requires { options.broadcast; }) options.broadcast = !flags.has("no-broadcast");
  if constexpr (requires { options.axis; }) {
    if (auto axis = flags.optional("axis")) options.axis = parse_axis(*axis);
  }
  if constexpr (requires { options.batch_dims; }) {
    if (auto dims = flags.optional("batch-dims")) options.batch_dims = parse_batch_dims(*dims);
  }
  if constexpr (requires { options.reduction; }) {
    if (auto word = flags.optional("reduction")) {
      options.reduction = parse_spelling<Reduction>(*word, "--reduction");
    }
  }
  if constexpr (requires { options.unit; }) {
    if (auto word = flags.optional("unit"))
      options.unit = parse_spelling<SubstrUnit>(*word, "--unit");
  }
  return options;
}

// An op `op(tensor, <operand>, updates, options)` with an in-place form (the scatters, the mask
// update): --tensor, --<operand> and --updates read, then run in place (--in-place) or saved to
// --out.
template <class Options, class InPlace, class OutOfPlace>
int run_tensor_update(const Args& flags, const char* operand_flag, InPlace in_place,
                      OutOfPlace out_of_place) {
  const auto options = options_from<Options>(flags);
  TensorArg tensor = load_tensor_arg(flags);
  const TensorBuffer operand = load_npy_tensor(flags.required(operand_flag));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));
  if (!tensor.out) {
    in_place(tensor.tensor, operand, updates, options);
  } else {
    save_npy(*tensor.out, out_of_place(tensor.tensor, operand, updates, options));
  }
  return kExitOk;
}

// An op `op(a, b, options)` whose output has its own shape: --<a> and --<b> read, the result
// saved to --out.
template <class Options>
int run_to_out(const Args& flags, const char* a, const char* b,
               TensorBuffer (*op)(const TensorBuffer&, const TensorBuffer&, const Options&)) {
  const auto options = options_from<Options>(flags);
  const std::string& out = flags.required("out");
  const TensorBuffer first = load_npy_tensor(flags.required(a));
  const TensorBuffer second = load_npy_tensor(flags.required(b));
  save_npy(out, op(first, second, options));
  return kExitOk;
}

// Usage words many ops share.
inline constexpr const char* kPolicyUsage = "[--out-of-bounds default|error|drop]";
inline constexpr const char* kDeviceUsage = "[--device cpu|cuda]";

// One op of `tensorbuf run`: its usage, its help and how it runs; its flags are the ones its
// usage names (flags_of), so the two cannot drift. The op's (family's) own file registers its
// RunOps (RunOpRegistration) and run_ops() (apps/cli_run_ops.cpp) puts them in the op table's
// order: `run --help`, `run <op> --help`, the dispatch and `--distributed` all walk that one
// list. Whether `--help` mentions --distributed is the op table's `distributed`
// (tensorbuf/op_table.hpp).
struct RunOp {
  std::string name = {};      // the public name, as in the op table
  std::string synopsis = {};  // the flags as usage shows them, '\n' between lines
  std::string about = {};     // what `--help` says below the usage, ending in '\n'
  std::function<int(const Args&)> run = {};
  std::string listed_as = {};  // `run --help` lists ops of one listed_as once (else name)
  // `run <op> --distributed` under mpiexec (apps/cli_run_distributed.cpp runs it with the same
  // flags): set in a build with MPI for the ops whose table row says `distributed`, beside
  // `run` in the op's file (TENSORBUF_CLI_DISTRIBUTED); empty otherwise.
  std::function<int(const Args&)> distributed = {};
  // A command that is no op of the table (`process`): listed after the table's op named here.
  std::string follows = {};

  const std::string& listed_name() const { return listed_as.empty() ? name : listed_as; }
};
#if TENSORBUF_CLI_WITH_MPI
#define TENSORBUF_CLI_DISTRIBUTED(runner) (runner)
// A --distributed result: to `out` (a new file), or with --in-place into the tensor file's
// data itself, as the single-process --in-place leaves it.
void write_sharded(const std::optional<std::string>& out, const Args& flags,
                   const dist::ShardedTensor& tensor);
#else
#define TENSORBUF_CLI_DISTRIBUTED(runner) nullptr
#endif
// Registers a file's RunOps, made when run_ops() is first asked for. At namespace scope in the
// op's (family's) file: `const RunOpRegistration registration(&x_run_ops);`.
struct RunOpRegistration {
  explicit RunOpRegistration(std::vector<RunOp> (*make)());
};
// `registered` in the op table's order, each `follows` command after its op. InternalError
// naming the op for a table row that claims surface::kCli without a RunOp, a RunOp that is no
// such row's op (nor follows one), or two RunOps of one name.
std::vector<RunOp> in_table_order(std::vector<RunOp> registered);
// Every registered op of `tensorbuf run`, in_table_order: the order `run --help` lists them;
// one by name (null for an unknown name).
const std::vector<RunOp>& run_ops();
const RunOp* find_run_op(std::string_view name);
// The ops `run --help` lists, in its order: the first of each listed_name().
std::vector<const RunOp*> listed_run_ops();
// The flags a synopsis names: `--name VALUE` takes a value, `--name` alone is a switch.
std::vector<FlagSpec> flags_of(std::string_view synopsis);

// `tensorbuf run <op> ... --distributed` under mpiexec (apps/cli_run_distributed.cpp): the
// flags of run_ops()'s `op`; InvalidArgumentError in a build without MPI.
int run_distributed(const std::string& op, const std::vector<std::string>& args);

// Subcommands. Each returns the exit status; errors propagate to main's report_error.
int info_command(const std::vector<std::string>& args);
int examples_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int bench_command(const std::vector<std::string>& args);
// `tensorbuf bench --sweep` (apps/cli_bench_sweep.cpp).
int bench_sweep(bool cuda, bool quick, const std::optional<std::string>& sizes,
                const std::optional<std::string>& filter, const std::optional<std::string>& json);
// `tensorbuf bench --sweep --list`: the sweep's form names, one a line, nothing run.
int bench_sweep_list(const std::optional<std::string>& filter);
// Why this binary has no benchmarks (the installed tool never has them: apps/CMakeLists.txt).
std::string no_benchmarks_reason();

}  // namespace tensorbuf::cli
