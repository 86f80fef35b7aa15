// The tensorbuf command-line tool (docs/cli.md): info, examples, run <op>, bench.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

constexpr const char* kUsage = R"(usage: tensorbuf <command> [flags]

commands:
  info       version, build options, devices and why CUDA is or is not usable
  examples   run every documented example (spec vectors) on the CPU and, if usable, CUDA
  run <op>   run one op on .npy files: tensor_scatter_nd_{sub,add,update,min,max},
             boolean_mask_update, substr
  bench      the benchmark suite, against the same-run memcpy / device-copy limit

`tensorbuf <command> --help` describes each. Exit status: 0 success, 2 invalid inputs,
1 any other failure; errors are one line on stderr beginning with the error class.
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace tensorbuf::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      std::cerr << kUsage;
      return kExitInvalid;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage;
      return kExitOk;
    }
    if (command == "--version") {
      std::cout << "tensorbuf " << tensorbuf::kVersion << "\n";
      return kExitOk;
    }
    if (command == "info") return info_command(args);
    if (command == "examples") return examples_command(args);
    if (command == "run") return run_command(args);
    if (command == "bench") return bench_command(args);
    throw tensorbuf::InvalidArgumentError("unknown command '" + command +
                                          "' (see tensorbuf --help)");
  } catch (const std::exception& e) {
    return report_error(e);
  }
}
