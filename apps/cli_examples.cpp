// `tensorbuf examples`: every documented example (the Vectors tables of spec/*.md) through the
// public API, on the CPU and, when CUDA is usable, on CUDA; compared with the documented result.
#include <algorithm>
#include <iostream>

#include "cli.hpp"
#include "cli_examples.hpp"

namespace tensorbuf::cli {
namespace {

bool is_error_class(const std::string& text) {
  for (const char* kind : {"InvalidArgument", "OutOfRange", "Unavailable", "ResourceExhausted",
                           "Internal"}) {
    const std::string k = kind;
    if (text == k || text.rfind(k + ": ", 0) == 0) return true;
  }
  return false;
}

// The documented result: exact text, or for an error its class and a part of its message.
bool matches(const std::string& output, const std::string& expected) {
  if (!is_error_class(expected)) return output == expected;
  const std::size_t colon = expected.find(": ");
  const std::string kind = expected.substr(0, colon);
  if (output == kind) return colon == std::string::npos;
  if (output.rfind(kind + ": ", 0) != 0) return false;
  return colon == std::string::npos || output.find(expected.substr(colon + 2)) != std::string::npos;
}

std::string run_one(const Example& example, Device device) {
  try {
    return example.run(device);
  } catch (const Error& e) {
    return std::string(to_string(e.code())) + ": " + e.what();
  } catch (const std::exception& e) {
    return std::string("Internal: ") + e.what();
  }
}

std::vector<ExampleGroup>& registered_groups() {
  static std::vector<ExampleGroup> groups;  // first used at static initialisation
  return groups;
}

// The rank of a group in the listing: those before the ops, the ops' in the table's order, then
// the others.
std::size_t group_rank(const ExampleGroup& group) {
  return group.before_ops ? 0 : 1 + op_order(group.what);
}

}  // namespace

ExampleGroupRegistration::ExampleGroupRegistration(const ExampleGroup& group) {
  registered_groups().push_back(group);
}

const std::vector<ExampleGroup>& example_groups() {
  static const std::vector<ExampleGroup> groups = [] {
    std::vector<ExampleGroup> sorted = registered_groups();
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return group_rank(a) < group_rank(b);
    });
    return sorted;
  }();
  return groups;
}

int examples_command(const std::vector<std::string>& args) {
  const Args flags(args, {{"device", true}, {"only", true}}, "tensorbuf examples");
  if (flags.help()) {
    std::cout << "usage: tensorbuf examples [--device cpu|cuda|all] [--only ID]\n\n"
                 "Runs every example of the spec documents through the public API and prints\n"
                 "each as `input -> output`, on the CPU and, when CUDA is usable, on CUDA\n"
                 "(default: all). Vectors documented for one device's default out-of-bounds\n"
                 "policy run on the other device with that policy asked for explicitly. --only\n"
                 "runs the examples whose id starts with ID. Exits 1 when any output differs\n"
                 "from the documented one. The examples' ids:\n";
    for (const ExampleGroup& group : example_groups()) {
      std::cout << "  " << group.prefix << "*" << std::string(4 - group.prefix.size(), ' ')
                << group.what << "\n";
    }
    return kExitOk;
  }
  const std::string which = flags.optional("device").value_or("all");
  std::vector<Device> devices;
  if (which == "all") {
    devices.push_back(Device::cpu());
    if (cuda_available()) devices.push_back(Device::cuda(0));
  } else {
    devices.push_back(parse_device(which));
  }
  const std::string only = flags.optional("only").value_or("");

  std::vector<Example> all;
  for (const ExampleGroup& group : example_groups()) {
    for (Example& e : group.examples()) {
      if (e.id.rfind(only, 0) == 0) all.push_back(std::move(e));
    }
  }
  int mismatches = 0;
  int runs = 0;
  for (const Device device : devices) {
    for (const Example& example : all) {
      const std::string output = run_one(example, device);
      const bool ok = matches(output, example.expected);
      ++runs;
      if (!ok) ++mismatches;
      std::cout << example.id << " [" << device.to_string() << "] " << example.input << " -> "
                << output;
      if (!ok) std::cout << "   MISMATCH, documented: " << example.expected;
      std::cout << "\n";
    }
  }
  std::cout << runs << " example runs on " << devices.size() << " device(s)";
  if (which == "all" && !cuda_available()) {
    std::cout << " (CUDA skipped: " << cuda_availability_reason() << ")";
  }
  std::cout << ": " << (mismatches == 0 ? "all match the documented results"
                                        : std::to_string(mismatches) + " mismatch(es)")
            << "\n";
  return mismatches == 0 ? kExitOk : kExitFailure;
}

}  // namespace tensorbuf::cli
