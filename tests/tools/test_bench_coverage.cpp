// The op table's bench surface: every public op (each kOpFamilies row, each scatter combine)
// has a CPU case in `tensorbuf bench`, a form in the size sweep (`tensorbuf bench --sweep`) and
// a NumPy or PyTorch peer in bench/peers.py, unless exempted below. Only the lists are read
// (`--list`), nothing is timed. A case measures an op when its name holds the op's name
// (without a leading "tensor_") as whole '_'-separated words; where several ops match at one
// word, the longest wins (so "boolean_mask_update_f32" is boolean_mask_update's, not
// boolean_mask's), and a pipeline's name ("processing_u8_224_normalize_quantize_i8") counts for
// each op it names.
#include <algorithm>
#include <array>
#include <set>
#include <sstream>

#include "cli_fixture.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::cli_test {
namespace {

// Ops with no NumPy or PyTorch peer: one {op, why} each (and the size raised). Empty: every op
// of the table has one today.
struct Exemption {
  std::string_view op;
  std::string_view why;
};
constexpr std::array<Exemption, 0> kNoPeer{};

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : text) {
    if (c == separator) {
      out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  out.push_back(word);
  return out;
}

struct Op {
  std::string name;                // the public name
  std::vector<std::string> words;  // its bench spelling, split at '_'
};

std::vector<Op> table_ops() {
  std::vector<Op> ops;
  for (const OpFamilyInfo& family : kOpFamilies) {
    for_each_op_name(family, [&](std::string_view name) {
      std::string_view spelling = name;
      if (spelling.starts_with("tensor_")) spelling.remove_prefix(7);
      ops.push_back({std::string(name), split(spelling, '_')});
    });
  }
  return ops;
}

// The ops a case name measures (the rule at the top of the file).
std::set<std::string> ops_of(const std::string& case_name, const std::vector<Op>& ops) {
  const std::vector<std::string> words = split(case_name, '_');
  std::set<std::string> found;
  for (std::size_t i = 0; i < words.size();) {
    const Op* best = nullptr;
    for (const Op& op : ops) {
      if (i + op.words.size() > words.size()) continue;
      if (!std::equal(op.words.begin(), op.words.end(), words.begin() + static_cast<long>(i))) {
        continue;
      }
      if (best == nullptr || op.words.size() > best->words.size()) best = &op;
    }
    if (best == nullptr) {
      ++i;
      continue;
    }
    found.insert(best->name);
    i += best->words.size();
  }
  return found;
}

// The table's ops that no name of `names` measures, minus `exempt`, one a line.
std::string missing_ops(const std::vector<std::string>& names,
                        const std::set<std::string>& exempt = {}) {
  const std::vector<Op> ops = table_ops();
  std::set<std::string> covered;
  for (const std::string& name : names) covered.merge(ops_of(name, ops));
  std::string missing;
  for (const Op& op : ops) {
    if (!covered.contains(op.name) && !exempt.contains(op.name)) missing += op.name + "\n";
  }
  return missing;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

using BenchCoverage = Cli;

TEST(BenchCoverageRule, ACaseMeasuresTheLongestOpNamedAtEachWord) {
  const std::vector<Op> ops = table_ops();
  EXPECT_EQ(ops_of("boolean_mask_update_in_place_f32_4mx8_d001", ops),
            std::set<std::string>{"boolean_mask_update"});
  EXPECT_EQ(ops_of("scatter_nd_mul_f32_elements_in_place", ops),
            std::set<std::string>{"tensor_scatter_nd_mul"});
  EXPECT_EQ(ops_of("processing_u8_224_normalize_quantize_i8", ops),
            (std::set<std::string>{"normalize", "quantize"}));
  EXPECT_EQ(ops_of("dequantize_linear_u8_224_f32", ops),
            std::set<std::string>{"dequantize_linear"});
  EXPECT_EQ(ops_of("gather_f32_1mx64_rows", ops), std::set<std::string>{"gather"});
  EXPECT_TRUE(ops_of("load_array_f32_to_u8", ops).empty());
  EXPECT_EQ(missing_ops({"gather_nd_x"}).find("gather_nd\n"), std::string::npos);
  EXPECT_NE(missing_ops({"gather_nd_x"}).find("\ngather\n"), std::string::npos);
}

#if TENSORBUF_CLI_HAS_BENCH
TEST_F(BenchCoverage, EveryOpOfTheTableHasACpuBenchCase) {
  const Result r = run({"bench", "--list", "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> names;
  for (const std::string& line : lines_of(r.out)) names.push_back(line.substr(0, line.find('/')));
  ASSERT_GE(names.size(), 10u) << r.out;
  EXPECT_EQ(missing_ops(names), "") << "ops without a CPU case in bench/bench_*.cpp";
}

TEST_F(BenchCoverage, EveryOpOfTheTableHasASweepForm) {
  const Result r = run({"bench", "--sweep", "--list"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> names = lines_of(r.out);
  ASSERT_GE(names.size(), 10u) << r.out;
  EXPECT_EQ(missing_ops(names), "") << "ops without a form in bench/sweep_*.cpp";
}
#endif

TEST_F(BenchCoverage, EveryOpOfTheTableHasANumpyOrTorchPeer) {
  const std::string python = TENSORBUF_PYTHON;
  if (python.empty()) GTEST_SKIP() << "no Python interpreter configured";
  const Result r = run({TENSORBUF_BENCH_PEERS, "--list", "--device", "cpu"}, python);
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> names;
  for (const std::string& line : lines_of(r.out)) {
    const std::vector<std::string> fields = split(line, ' ');
    ASSERT_EQ(fields.size(), 3u) << line;
    if (fields[2] == "numpy" || fields[2] == "torch") names.push_back(fields[0]);
  }
  ASSERT_GE(names.size(), 10u) << r.out;
  std::set<std::string> exempt;
  for (const Exemption& e : kNoPeer) exempt.insert(std::string(e.op));
  EXPECT_EQ(missing_ops(names, exempt), "")
      << "ops without a numpy or torch peer in bench/peers_cases/ (or an entry in kNoPeer)";
}

}  // namespace
}  // namespace tensorbuf::cli_test
