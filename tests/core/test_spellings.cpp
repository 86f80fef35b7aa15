// tensorbuf/spellings.hpp (and src/core/spellings.hpp for the scatter combines): the one place
// enum words are parsed and printed. The expected words
// are written out here (today's spellings on the CLI, in Python and in the MPI messages), so a
// changed word fails here before it changes every surface.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/op_table.hpp"
#include "core/spellings.hpp"
#include "tensorbuf/errors.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf {
namespace {

// Every enumerator, its word, and that both directions agree.
template <class Enum>
void expect_words(const std::vector<std::pair<Enum, std::string_view>>& expected) {
  ASSERT_EQ(Spellings<Enum>::kWords.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& [value, word] = expected[i];
    EXPECT_EQ(spelling(value), word);
    EXPECT_EQ(Spellings<Enum>::kWords[i].word, word) << "listed in this order";
    ASSERT_TRUE(find_spelling<Enum>(word).has_value()) << word;
    EXPECT_EQ(*find_spelling<Enum>(word), value) << word;
    EXPECT_EQ(parse_spelling<Enum>(word, "x"), value) << word;
    EXPECT_EQ(spelling(parse_spelling<Enum>(word, "x")), word);
  }
}

// The InvalidArgumentError message of parsing `word`, or "" when it parses.
template <class Enum>
std::string parse_error(std::string_view word, std::string_view what) {
  try {
    parse_spelling<Enum>(word, what);
  } catch (const InvalidArgumentError& e) {
    return e.what();
  }
  return "";
}

std::string device_error(std::string_view word) {
  try {
    parse_device(word, "--device");
  } catch (const InvalidArgumentError& e) {
    return e.what();
  }
  return "";
}

TEST(Spellings, OutOfBoundsPolicyWords) {
  expect_words<OutOfBoundsPolicy>({{OutOfBoundsPolicy::kDeviceDefault, "default"},
                                   {OutOfBoundsPolicy::kError, "error"},
                                   {OutOfBoundsPolicy::kDrop, "drop"}});
  EXPECT_EQ(spelling_list<OutOfBoundsPolicy>(), "default, error or drop");
  EXPECT_EQ(spelling_list<OutOfBoundsPolicy>("|", "|"), "default|error|drop");
}

TEST(Spellings, SubstrUnitWords) {
  expect_words<SubstrUnit>({{SubstrUnit::kByte, "byte"}, {SubstrUnit::kUtf8Char, "utf8_char"}});
  EXPECT_EQ(spelling_list<SubstrUnit>(), "byte or utf8_char");
}

TEST(Spellings, ReductionWords) {
  expect_words<Reduction>({{Reduction::kNone, "none"},
                           {Reduction::kAdd, "add"},
                           {Reduction::kMul, "mul"},
                           {Reduction::kMin, "min"},
                           {Reduction::kMax, "max"}});
  EXPECT_EQ(spelling_list<Reduction>("|", "|"), "none|add|mul|min|max");
}

TEST(Spellings, DeviceKindWords) {
  expect_words<Device::Kind>({{Device::Kind::kCpu, "cpu"}, {Device::Kind::kCuda, "cuda"}});
}

TEST(Spellings, DataTypeWordsAreToString) {
  expect_words<DataType>({{DataType::kBool, "bool"},
                          {DataType::kUInt8, "uint8"},
                          {DataType::kInt8, "int8"},
                          {DataType::kInt16, "int16"},
                          {DataType::kInt32, "int32"},
                          {DataType::kInt64, "int64"},
                          {DataType::kFloat16, "float16"},
                          {DataType::kBFloat16, "bfloat16"},
                          {DataType::kFloat32, "float32"},
                          {DataType::kFloat64, "float64"}});
  for (const Spelling<DataType>& s : Spellings<DataType>::kWords) {
    EXPECT_EQ(to_string(s.value), s.word);
  }
  EXPECT_EQ(spelling_list<DataType>(),
            "bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32 or float64");
}

// The op table's names, not a second list: every combine it declares (a new one included) is
// spelled tensor_scatter_nd_<suffix>, and today's five are there.
TEST(Spellings, ScatterCombinesAreTheOpTablesNames) {
  using core::ScatterOp;
  ASSERT_EQ(Spellings<ScatterOp>::kWords.size(), kScatterCombines.size());
  for (std::size_t i = 0; i < kScatterCombines.size(); ++i) {
    const auto op = static_cast<ScatterOp>(i);
    const std::string word = "tensor_scatter_nd_" + std::string(kScatterCombines[i].suffix);
    EXPECT_EQ(spelling(op), word);
    EXPECT_EQ(spelling(op), core::scatter_combine(op).name);
    EXPECT_EQ(parse_spelling<ScatterOp>(word, "op"), op);
  }
  const std::vector<std::pair<ScatterOp, std::string_view>> today = {
      {ScatterOp::kSub, "tensor_scatter_nd_sub"},
      {ScatterOp::kAdd, "tensor_scatter_nd_add"},
      {ScatterOp::kUpdate, "tensor_scatter_nd_update"},
      {ScatterOp::kMin, "tensor_scatter_nd_min"},
      {ScatterOp::kMax, "tensor_scatter_nd_max"}};
  for (const auto& [op, word] : today) {
    EXPECT_EQ(spelling(op), word);
    EXPECT_EQ(find_spelling<ScatterOp>(word), op);
  }
  EXPECT_FALSE(find_spelling<ScatterOp>("sub").has_value()) << "the public name, not the suffix";
  EXPECT_EQ(parse_error<ScatterOp>("tensor_scatter_nd_pow", "op")
                .rfind("op must be tensor_scatter_nd_sub, tensor_scatter_nd_add, ", 0),
            0u);
}

// An op family is named by its table row (the first, for a family of several ops); the names
// the distributed layer's messages use are written out here.
TEST(Spellings, OpFamiliesAreNamedByTheirFirstRow) {
  static_assert(spelling(OpFamily::kBooleanMaskUpdate) == "boolean_mask_update");
  EXPECT_EQ(spelling(OpFamily::kScatterNd), "tensor_scatter_nd");
  EXPECT_EQ(spelling(OpFamily::kBooleanMaskUpdate), "boolean_mask_update");
  EXPECT_EQ(spelling(OpFamily::kSubstr), "substr");
  EXPECT_EQ(spelling(OpFamily::kBooleanMask), "boolean_mask");
  EXPECT_EQ(spelling(OpFamily::kGatherNd), "gather_nd");
  EXPECT_EQ(spelling(OpFamily::kScatterElements), "scatter_elements");
  EXPECT_EQ(spelling(static_cast<OpFamily>(-1)), "unknown");
}

TEST(Spellings, ABadWordIsNamedWithTheAcceptedWords) {
  EXPECT_EQ(parse_error<OutOfBoundsPolicy>("wrap", "--out-of-bounds"),
            "--out-of-bounds must be default, error or drop, not 'wrap'");
  EXPECT_EQ(parse_error<OutOfBoundsPolicy>("clip", "out_of_bounds"),
            "out_of_bounds must be default, error or drop, not 'clip'");
  EXPECT_EQ(parse_error<SubstrUnit>("rune", "--unit"),
            "--unit must be byte or utf8_char, not 'rune'");
  EXPECT_EQ(parse_error<DataType>("float", "dtype"),
            "dtype must be bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32 "
            "or float64, not 'float'");
}

TEST(Spellings, WordsAreExact) {
  for (const std::string_view word : {"Drop", "DROP", " drop", "drop ", "", "device_default"}) {
    EXPECT_FALSE(find_spelling<OutOfBoundsPolicy>(word).has_value()) << "'" << word << "'";
  }
  EXPECT_FALSE(find_spelling<SubstrUnit>("utf8").has_value());
  EXPECT_FALSE(find_spelling<SubstrUnit>("Byte").has_value());
  EXPECT_EQ(parse_error<SubstrUnit>("", "unit"), "unit must be byte or utf8_char, not ''");
}

TEST(Spellings, AValueOutsideTheEnumPrintsUnknown) {
  EXPECT_EQ(spelling(static_cast<OutOfBoundsPolicy>(7)), "unknown");
  EXPECT_EQ(spelling(static_cast<SubstrUnit>(-1)), "unknown");
}

TEST(Spellings, Devices) {
  const std::vector<std::pair<std::string_view, Device>> good = {
      {"cpu", Device::cpu()},         {"cuda", Device::cuda(0)},    {"cuda:0", Device::cuda(0)},
      {"cuda:1", Device::cuda(1)},    {"cuda:07", Device::cuda(7)}, {"cuda:123", Device::cuda(123)},
      {"cuda:999", Device::cuda(999)}};
  for (const auto& [word, device] : good) {
    const std::optional<Device> found = find_device(word);
    ASSERT_TRUE(found.has_value()) << word;
    EXPECT_EQ(found->kind, device.kind) << word;
    EXPECT_EQ(found->index, device.index) << word;
    EXPECT_EQ(parse_device(word, "device"), device) << word;
  }
  for (const std::string_view word :
       {"", "gpu", "tpu", "CPU", "Cuda", "cuda:", "cuda:1234", "cuda:-1", "cuda:+1", "cuda:1x",
        "cuda1", "cuda 1", "cuda::1", "cpu:0", " cuda"}) {
    EXPECT_FALSE(find_device(word).has_value()) << "'" << word << "'";
  }
  EXPECT_EQ(device_error("tpu"), "--device must be cpu or cuda[:N], not 'tpu'");
  EXPECT_EQ(device_error("cuda:x"), "--device must be cpu or cuda[:N], not 'cuda:x'");
}

TEST(Spellings, DevicesPrintAsTheyParse) {
  EXPECT_EQ(spelling(Device::cpu()), "cpu");
  EXPECT_EQ(spelling(Device::cuda(0)), "cuda:0");
  EXPECT_EQ(spelling(Device::cuda(12)), "cuda:12");
  EXPECT_EQ(Device::cuda(3).to_string(), "cuda:3");
  for (const Device device : {Device::cpu(), Device::cuda(0), Device::cuda(5), Device::cuda(999)}) {
    EXPECT_EQ(parse_device(spelling(device), "device"), device) << spelling(device);
  }
}

}  // namespace
}  // namespace tensorbuf
