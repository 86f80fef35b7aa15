// The tensorbuf command-line tool (docs/cli.md): info, examples, run <op>, bench.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace {

constexpr const char* kUsageHead = R"(usage: tensorbuf <command> [flags]

commands:
  info       version, build options, devices and why CUDA is or is not usable
  examples   run every documented example (spec vectors) on the CPU and, if usable, CUDA
  run <op>   run one op on .npy files:)";

constexpr const char* kUsageTail = R"(
  bench      the benchmark suite, against the same-run memcpy / device-copy limit

`tensorbuf <command> --help` describes each. Exit status: 0 success, 2 invalid inputs,
1 any other failure; errors are one line on stderr beginning with the error class.
)";

// The usage, with the ops `tensorbuf run --help` lists after `run <op>`, wrapped below it.
std::string usage() {
  constexpr std::size_t kWidth = 95;
  const std::string indent(13, ' ');  // under the description column
  std::string text = kUsageHead;
  std::size_t column = text.size() - text.rfind('\n') - 1;
  const std::vector<const tensorbuf::cli::RunOp*> ops = tensorbuf::cli::listed_run_ops();
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::string word = ops[i]->listed_name() + (i + 1 < ops.size() ? "," : "");
    if (column + 1 + word.size() > kWidth) {
      text += '\n' + indent + word;
      column = indent.size() + word.size();
    } else {
      text += ' ' + word;
      column += 1 + word.size();
    }
  }
  return text + kUsageTail;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tensorbuf::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      std::cerr << usage();
      return kExitInvalid;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << usage();
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
