// The `tensorbuf` command-line tool: subcommands, argument parsing and error reporting shared
// by the apps/cli_*.cpp files. Usage and decisions: docs/cli.md.
#pragma once

#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

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

// `--out-of-bounds default|error|drop`, `--axis N` and `--batch-dims N` (InvalidArgumentError
// otherwise).
OutOfBoundsPolicy parse_policy(const std::optional<std::string>& text);
int parse_axis(const std::string& text);
int parse_batch_dims(const std::string& text);
// `--device` of `tensorbuf run <op>`: cpu when not given.
Device run_device(const Args& flags);

// The flags of `tensorbuf run <op>`, the same with --distributed (apps/cli_run.cpp).
extern const std::vector<FlagSpec> kScatterRunFlags;
extern const std::vector<FlagSpec> kMaskUpdateRunFlags;
extern const std::vector<FlagSpec> kSubstrRunFlags;
extern const std::vector<FlagSpec> kGatherNdRunFlags;     // apps/cli_run_gather_nd.cpp
extern const std::vector<FlagSpec> kBooleanMaskRunFlags;  // apps/cli_run_boolean_mask.cpp

// `tensorbuf run boolean_mask` and `tensorbuf run compress` (apps/cli_run_boolean_mask.cpp).
int run_boolean_mask(const std::vector<std::string>& args);
int run_compress(const std::vector<std::string>& args);
// `tensorbuf run gather_nd` (apps/cli_run_gather_nd.cpp).
int run_gather_nd(const std::vector<std::string>& args);
// `tensorbuf run gather`, `gather_elements`, `scatter_elements` (apps/cli_run_elements.cpp).
int run_gather(const std::vector<std::string>& args);
int run_gather_elements(const std::vector<std::string>& args);
int run_scatter_elements(const std::vector<std::string>& args);

// `tensorbuf run <op>` for the processing ops (apps/cli_run_processing.cpp); none when `op` is
// not one of them.
std::optional<int> run_processing(const std::string& op, const std::vector<std::string>& args);

// `tensorbuf run <op> ... --distributed` under mpiexec (apps/cli_run_distributed.cpp);
// InvalidArgumentError in a build without MPI.
int run_distributed(const std::string& op, const std::vector<std::string>& args);

// Subcommands. Each returns the exit status; errors propagate to main's report_error.
int info_command(const std::vector<std::string>& args);
int examples_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int bench_command(const std::vector<std::string>& args);
// `tensorbuf bench --sweep` (apps/cli_bench_sweep.cpp).
int bench_sweep(bool cuda, bool quick, const std::optional<std::string>& sizes,
                const std::optional<std::string>& filter, const std::optional<std::string>& json);
// Why this binary has no benchmarks (the installed tool never has them: apps/CMakeLists.txt).
std::string no_benchmarks_reason();

}  // namespace tensorbuf::cli
