// The list of `tensorbuf run`'s ops (apps/cli_run_ops.cpp) on its own: the RunOps the ops'
// files register come out in the op table's order, and a table row that claims the CLI
// without a RunOp, or a RunOp that is no such row's op, is refused naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::cli {
namespace {

// The names of the table's ops that claim the CLI, in its order.
std::vector<std::string> table_cli_ops() {
  std::vector<std::string> names;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kCli) == 0) continue;
    for_each_op_name(family, [&](std::string_view name) { names.emplace_back(name); });
  }
  return names;
}

std::vector<RunOp> fakes(const std::vector<std::string>& names) {
  std::vector<RunOp> ops;
  for (const std::string& name : names) ops.push_back({.name = name});
  return ops;
}

std::vector<std::string> names_of(const std::vector<RunOp>& ops) {
  std::vector<std::string> names;
  for (const RunOp& op : ops) names.push_back(op.name);
  return names;
}

// The InternalError's message of in_table_order(ops), or "" when it returns.
std::string refusal(std::vector<RunOp> ops) {
  try {
    in_table_order(std::move(ops));
  } catch (const InternalError& e) {
    return e.what();
  }
  return "";
}

TEST(CliRunOps, RegisteredOpsComeInTheTablesOrderWithFollowersAfterTheirOp) {
  const std::vector<std::string> table = table_cli_ops();
  ASSERT_GE(table.size(), 3u);
  std::vector<std::string> reversed(table.rbegin(), table.rend());
  std::vector<RunOp> registered = fakes(reversed);
  registered.insert(registered.begin(), RunOp{.name = "extra", .follows = table[1]});
  std::vector<std::string> expected = table;
  expected.insert(expected.begin() + 2, "extra");
  EXPECT_EQ(names_of(in_table_order(std::move(registered))), expected);
}

TEST(CliRunOps, ATableRowThatClaimsTheCliWithoutARunOpIsRefused) {
  std::vector<std::string> names = table_cli_ops();
  const std::string missing = names[names.size() / 2];
  names.erase(names.begin() + static_cast<std::ptrdiff_t>(names.size() / 2));
  EXPECT_EQ(
      refusal(fakes(names)),
      "op '" + missing + "' of the op table claims surface::kCli, but no RunOp is registered");
}

TEST(CliRunOps, ARunOpThatIsNoOpOfTheTableIsRefused) {
  const std::string expected =
      "RunOp 'no_such_op' is not an op of a row of the op table that claims surface::kCli, nor "
      "follows one";
  std::vector<RunOp> ops = fakes(table_cli_ops());
  ops.push_back({.name = "no_such_op"});
  EXPECT_EQ(refusal(ops), expected);
  ops.back().follows = "no_such_row";
  EXPECT_EQ(refusal(ops), expected);
  // A row that does not claim the CLI has no RunOp either.
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kCli) != 0) continue;
    ops.back() = {.name = std::string(family.name)};
    EXPECT_NE(refusal(ops), "") << family.name;
  }
}

TEST(CliRunOps, TwoRunOpsOfOneNameAreRefused) {
  std::vector<RunOp> ops = fakes(table_cli_ops());
  ops.push_back({.name = ops.front().name});
  EXPECT_EQ(refusal(ops), "two RunOps are registered for '" + ops.front().name + "'");
}

}  // namespace
}  // namespace tensorbuf::cli
