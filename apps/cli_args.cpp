#include <iostream>

#include "cli.hpp"
#include "tensorbuf/error_classes.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::cli {

Args::Args(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs,
           const std::string& command)
    : command_(command) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      help_ = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      throw InvalidArgumentError("unexpected argument '" + arg + "' for '" + command_ +
                                 "' (see " + command_ + " --help)");
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (const std::size_t eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const FlagSpec* spec = nullptr;
    for (const FlagSpec& s : specs) {
      if (s.name == name) spec = &s;
    }
    if (spec == nullptr) {
      throw InvalidArgumentError("unknown flag '--" + name + "' for '" + command_ + "' (see " +
                                 command_ + " --help)");
    }
    if (values_.count(name) != 0) {
      throw InvalidArgumentError("flag '--" + name + "' given twice");
    }
    if (!spec->takes_value) {
      if (inline_value) throw InvalidArgumentError("flag '--" + name + "' takes no value");
      values_[name] = "";
    } else if (inline_value) {
      values_[name] = *inline_value;
    } else {
      if (i + 1 >= args.size()) throw InvalidArgumentError("flag '--" + name + "' needs a value");
      values_[name] = args[++i];
    }
  }
}

const std::string& Args::required(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    throw InvalidArgumentError("missing flag '--" + name + "' for '" + command_ + "' (see " +
                               command_ + " --help)");
  }
  return it->second;
}

std::optional<std::string> Args::optional(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

int report_error(const std::exception& error) {
  const ErrorClass& kind = error_class(error_code_of(error));
  std::string message = error.what();
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';  // errors are one line
  }
  std::cerr << kind.name << ": " << message << "\n";
  return kind.cli_exit;
}

Device parse_device(const std::string& text) { return tensorbuf::parse_device(text, "--device"); }

}  // namespace tensorbuf::cli
