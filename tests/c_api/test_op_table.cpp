// The op table's C surface: every family that claims the C API has its calls in the error
// tests' table of every status-returning C function (calls.cpp), in place too where it has that
// form. Fails when a table row claims surface::kC before its C functions exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "c_api/fixture.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::testing {
namespace {

bool has_call(const std::vector<CApiCall>& calls, const std::string& name) {
  return std::any_of(calls.begin(), calls.end(), [&](const CApiCall& c) { return c.name == name; });
}

TEST(CApiOpTable, EveryFamilyThatClaimsCHasItsCalls) {
  const std::vector<CApiCall> calls = all_calls();
  int checked = 0;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kC) == 0) continue;
    for_each_op_name(family, [&](std::string_view name) {
      const std::string c_name = "tb_" + std::string(name);
      EXPECT_TRUE(has_call(calls, c_name)) << c_name << " is not in calls.cpp";
      if (family.in_place) {
        EXPECT_TRUE(has_call(calls, c_name + "_in_place")) << c_name << "_in_place";
      }
      ++checked;
    });
  }
  EXPECT_GE(checked, 3);  // the table was walked
}

}  // namespace
}  // namespace tensorbuf::testing
