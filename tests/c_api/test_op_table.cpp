// The op table's C surface: every family that claims the C API has its calls in the error
// tests' table of every status-returning C function (calls.cpp), in place too where it has that
// form. Fails when a table row claims surface::kC before its C functions exist; and c_api.h
// itself, read as text, declares every function the table's rows imply.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

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

// c_api.h's functions, by name, with their parameter lists (comments removed first).
std::map<std::string, std::string> declared_c_functions() {
  std::ifstream file(TENSORBUF_C_API_H);
  std::stringstream text;
  text << file.rdbuf();
  const std::string header =
      std::regex_replace(text.str(), std::regex(R"(/\*[\s\S]*?\*/)"), " ");
  const std::regex prototype(R"(TENSORBUF_API[^;(]*[\s*](tb_\w+)\(([^;]*)\)\s*TB_NOEXCEPT;)");
  std::map<std::string, std::string> functions;
  for (auto it = std::sregex_iterator(header.begin(), header.end(), prototype);
       it != std::sregex_iterator(); ++it) {
    functions[(*it)[1]] = (*it)[2];
  }
  return functions;
}

// The rule c_api.h follows for a family that claims surface::kC: each op name of the row (each
// combine's for the scatter) is tb_<name>, and tb_<name>_in_place when the row has that form;
// a function whose parameters take no `tb_*_options*` (the scatters' and the mask update's
// first forms, with loose oob / axis and stream) has an `_ex` twin that takes them, so that
// every option of the row is reachable from C.
std::vector<std::string> missing_c_functions(const std::map<std::string, std::string>& declared) {
  std::vector<std::string> missing;
  const std::regex options_param(R"(\btb_\w+_options\s*\*)");
  const auto require = [&](const std::string& name) {
    const auto found = declared.find(name);
    if (found == declared.end()) {
      missing.push_back(name);
      return;
    }
    if (!std::regex_search(found->second, options_param)) {
      const auto ex = declared.find(name + "_ex");
      if (ex == declared.end() || !std::regex_search(ex->second, options_param)) {
        missing.push_back(name + "_ex (" + name + " takes no options struct)");
      }
    }
  };
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kC) == 0) continue;
    for_each_op_name(family, [&](std::string_view name) {
      const std::string c_name = "tb_" + std::string(name);
      require(c_name);
      if (family.in_place) require(c_name + "_in_place");
    });
  }
  return missing;
}

TEST(CApiOpTable, TheHeaderDeclaresEveryFunctionTheTableImplies) {
  const std::map<std::string, std::string> declared = declared_c_functions();
  ASSERT_GE(declared.size(), 40u) << "c_api.h was not read: " << TENSORBUF_C_API_H;
  const std::vector<std::string> missing = missing_c_functions(declared);
  std::string list;
  for (const std::string& name : missing) list += "\n  " + name;
  EXPECT_TRUE(missing.empty()) << "op table rows that claim surface::kC, without these "
                               << "declarations in c_api.h:" << list;
}

}  // namespace
}  // namespace tensorbuf::testing
