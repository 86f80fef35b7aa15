// The ops of `tensorbuf run`: each op's (family's) file registers its RunOps, and run_ops() puts
// them in the op table's order, so that no shared file lists them.
#include <algorithm>

#include "cli.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::cli {
namespace {

std::vector<std::vector<RunOp> (*)()>& registrations() {
  static std::vector<std::vector<RunOp> (*)()> makers;  // first used at static initialisation
  return makers;
}

// Moves the first op of `from` that `is` picks to the end of `to`; false when none does.
template <class Pick>
bool move_op(std::vector<RunOp>& from, std::vector<RunOp>& to, Pick is) {
  const auto it = std::find_if(from.begin(), from.end(), is);
  if (it == from.end()) return false;
  to.push_back(std::move(*it));
  from.erase(it);
  return true;
}

}  // namespace

RunOpRegistration::RunOpRegistration(std::vector<RunOp> (*make)()) {
  registrations().push_back(make);
}

std::vector<RunOp> in_table_order(std::vector<RunOp> registered) {
  for (auto op = registered.begin(); op != registered.end(); ++op) {
    if (std::any_of(op + 1, registered.end(), [&](const RunOp& o) { return o.name == op->name; })) {
      throw InternalError("two RunOps are registered for '" + op->name + "'");
    }
  }
  std::vector<RunOp> ordered;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kCli) == 0) continue;
    for_each_op_name(family, [&](std::string_view name) {
      if (!move_op(registered, ordered, [&](const RunOp& op) { return op.name == name; })) {
        throw InternalError("op '" + std::string(name) +
                            "' of the op table claims surface::kCli, but no RunOp is registered");
      }
      while (move_op(registered, ordered, [&](const RunOp& op) { return op.follows == name; })) {
      }
    });
  }
  if (!registered.empty()) {
    throw InternalError("RunOp '" + registered.front().name +
                        "' is not an op of a row of the op table that claims surface::kCli, "
                        "nor follows one");
  }
  return ordered;
}

const std::vector<RunOp>& run_ops() {
  static const std::vector<RunOp> ops = [] {
    std::vector<RunOp> all;
    for (const auto make : registrations()) {
      std::vector<RunOp> some = make();
      std::move(some.begin(), some.end(), std::back_inserter(all));
    }
    return in_table_order(std::move(all));
  }();
  return ops;
}

std::vector<FlagSpec> flags_of(std::string_view synopsis) {
  std::vector<FlagSpec> flags;
  const auto ends_word = [](char c) { return c == ' ' || c == '\n' || c == ']' || c == ')'; };
  for (std::size_t at = synopsis.find("--"); at != std::string_view::npos;
       at = synopsis.find("--", at)) {
    std::size_t end = at + 2;
    while (end < synopsis.size() && !ends_word(synopsis[end])) ++end;
    const std::string name(synopsis.substr(at + 2, end - at - 2));
    // A value follows unless the flag ends a group or the next word is another flag or group.
    const bool alone = end + 1 >= synopsis.size() || synopsis[end] == ']' || synopsis[end] == ')' ||
                       std::string_view("-[(|").find(synopsis[end + 1]) != std::string_view::npos;
    flags.push_back({name, !alone});
    at = end;
  }
  return flags;
}

const RunOp* find_run_op(std::string_view name) {
  for (const RunOp& op : run_ops()) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::vector<const RunOp*> listed_run_ops() {
  std::vector<const RunOp*> listed;
  for (const RunOp& op : run_ops()) {
    const auto same = [&](const RunOp* o) { return o->listed_name() == op.listed_name(); };
    if (std::none_of(listed.begin(), listed.end(), same)) listed.push_back(&op);
  }
  return listed;
}

}  // namespace tensorbuf::cli
