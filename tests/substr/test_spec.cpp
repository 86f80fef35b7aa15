// substr: the public vectors S1-S18 of spec/substr.md and every rule, on each device.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "substr/reference.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::Strings;

TensorBuffer ints(const std::vector<std::int64_t>& values, const Shape& shape,
                  DataType type = DataType::kInt32) {
  return testing::index_buffer(values, shape, type);
}

TensorBuffer scalar(std::int64_t v, DataType type = DataType::kInt32) {
  return ints({v}, Shape{}, type);
}

StringTensor strings(const Strings& values, const Shape& shape) {
  return StringTensor::from_strings(values, shape);
}

class Substr : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
  SubstrOptions opts(SubstrUnit unit = SubstrUnit::kByte,
                     OutOfBoundsPolicy policy = OutOfBoundsPolicy::kDeviceDefault) const {
    return SubstrOptions{.device = GetParam(), .unit = unit, .out_of_bounds = policy};
  }
  // Under kError on either device (CPU's default).
  SubstrOptions strict(SubstrUnit unit = SubstrUnit::kByte) const {
    return opts(unit, OutOfBoundsPolicy::kError);
  }
  // Runs a one-string op expecting out-of-range under kError with `message`, and "" under kDrop.
  void expect_out_of_range(const std::string& input, std::int64_t pos, std::int64_t len,
                           SubstrUnit unit, const std::string& message) {
    StringTensor in = strings({input}, Shape{});
    try {
      substr(in, scalar(pos), scalar(len), strict(unit));
      ADD_FAILURE() << "expected InvalidArgumentError for pos " << pos;
    } catch (const InvalidArgumentError& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
    StringTensor dropped =
        substr(in, scalar(pos), scalar(len), opts(unit, OutOfBoundsPolicy::kDrop));
    EXPECT_EQ(dropped.to_strings(), Strings{""});
  }
};

TEST_P(Substr, S1_ScalarPosAndLenOverVector) {
  StringTensor out = substr(strings({"Hello", "World"}, Shape{2}), scalar(1), scalar(3), opts());
  EXPECT_EQ(out.shape(), Shape{2});
  EXPECT_EQ(out.to_strings(), (Strings{"ell", "orl"}));
}

StringTensor three_by_three() {
  return strings({"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                  "seventeen", "eighteen"},
                 Shape{3, 3});
}

TEST_P(Substr, S2_SameShapeMatrix) {
  StringTensor out = substr(three_by_three(), ints({1, 2, 3, 1, 2, 3, 1, 2, 3}, Shape{3, 3}),
                            ints({2, 3, 4, 4, 3, 2, 5, 5, 5}, Shape{3, 3}), opts());
  EXPECT_EQ(out.shape(), (Shape{3, 3}));
  EXPECT_EQ(out.to_strings(),
            (Strings{"en", "eve", "lve", "hirt", "urt", "te", "ixtee", "vente", "hteen"}));
}

TEST_P(Substr, S3_RowBroadcastAgainstMatrix) {
  StringTensor in = strings({"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                             "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "twentyone"},
                            Shape{4, 3});
  StringTensor out = substr(in, ints({1, 2, 3}, Shape{3}), ints({1, 2, 3}, Shape{3}), opts());
  EXPECT_EQ(out.shape(), (Shape{4, 3}));
  EXPECT_EQ(out.to_strings(),
            (Strings{"e", "ev", "lve", "h", "ur", "tee", "i", "ve", "hte", "i", "en", "nty"}));
}

TEST_P(Substr, S4_ScalarInputVectorPos) {
  StringTensor out = substr(strings({"thirteen"}, Shape{}), ints({1, 5, 7}, Shape{3}),
                            ints({3, 2, 1}, Shape{3}), opts());
  EXPECT_EQ(out.shape(), Shape{3});
  EXPECT_EQ(out.to_strings(), (Strings{"hir", "ee", "n"}));
}

TEST_P(Substr, S5_PosEqualToSizeGivesEmpty) {
  StringTensor out = substr(strings({"Hello"}, Shape{}), scalar(5), scalar(3), strict());
  EXPECT_EQ(out.shape(), Shape{});
  EXPECT_EQ(out.to_strings(), Strings{""});
}

TEST_P(Substr, S6_PosPastEndIsInvalidArgument) {
  expect_out_of_range("Hello", 6, 1, SubstrUnit::kByte,
                      "pos 6 out of range for string b'Hello' at index 0");
}

TEST_P(Substr, S7_NegativePos) {
  EXPECT_EQ(substr(strings({"Hello"}, Shape{}), scalar(-5), scalar(2), strict()).to_strings(),
            Strings{"He"});
  expect_out_of_range("Hello", -6, 2, SubstrUnit::kByte,
                      "pos -6 out of range for string b'Hello' at index 0");
}

TEST_P(Substr, S8_NegativeLenMeansToTheEnd) {
  EXPECT_EQ(substr(strings({"Hello"}, Shape{}), scalar(1), scalar(-1), strict()).to_strings(),
            Strings{"ello"});
  EXPECT_EQ(substr(strings({"Hello"}, Shape{}), scalar(-2), scalar(-1), strict()).to_strings(),
            Strings{"lo"});
}

TEST_P(Substr, S9_Utf8CharsVersusBytes) {
  StringTensor in = strings({"H\xc3\xa9llo"}, Shape{});
  EXPECT_EQ(substr(in, scalar(1), scalar(2), strict(SubstrUnit::kUtf8Char)).to_strings(),
            Strings{"\xc3\xa9l"});
  EXPECT_EQ(substr(in, scalar(1), scalar(2), strict(SubstrUnit::kByte)).to_strings(),
            Strings{"\xc3\xa9"});
}

TEST_P(Substr, S10_Utf8NegativeLen) {
  StringTensor in = strings({"H\xc3\xa9llo"}, Shape{});
  EXPECT_EQ(substr(in, scalar(1), scalar(-1), strict(SubstrUnit::kUtf8Char)).to_strings(),
            Strings{"\xc3\xa9llo"});
  EXPECT_EQ(substr(in, scalar(-2), scalar(-1), strict(SubstrUnit::kUtf8Char)).to_strings(),
            Strings{"lo"});
}

TEST_P(Substr, S11_Utf8Range) {
  StringTensor in = strings({"H\xc3\xa9llo"}, Shape{});
  const SubstrUnit u = SubstrUnit::kUtf8Char;
  EXPECT_EQ(substr(in, scalar(5), scalar(1), strict(u)).to_strings(), Strings{""});
  expect_out_of_range("H\xc3\xa9llo", 6, 1, u,
                      "pos 6 out of range for string b'H\\xc3\\xa9llo' at index 0");
  EXPECT_EQ(substr(in, scalar(-5), scalar(2), strict(u)).to_strings(), Strings{"H\xc3\xa9"});
  EXPECT_EQ(substr(in, scalar(-1), scalar(5), strict(u)).to_strings(), Strings{"o"});
}

TEST_P(Substr, S12_InvalidUtf8CountedDeterministically) {
  StringTensor in = strings({"\x80\x80"
                             "ab"},
                            Shape{});
  const SubstrUnit u = SubstrUnit::kUtf8Char;
  EXPECT_EQ(substr(in, scalar(0), scalar(1), strict(u)).to_strings(), Strings{"\x80\x80"});
  EXPECT_EQ(substr(in, scalar(1), scalar(1), strict(u)).to_strings(), Strings{"a"});
  EXPECT_EQ(substr(in, scalar(-3), scalar(1), strict(u)).to_strings(), Strings{"\x80\x80"});
  EXPECT_EQ(substr(in, scalar(3), scalar(1), strict(u)).to_strings(), Strings{""});
  expect_out_of_range(
      "\x80\x80"
      "ab",
      4, 1, u, "pos 4 out of range for string b'\\x80\\x80ab' at index 0");
}

TEST_P(Substr, S13_InputRowAgainstPosMatrix) {
  StringTensor out =
      substr(strings({"abc", "def", "ghi"}, Shape{1, 3}), ints({0, 1, 2, 1, 1, 1}, Shape{2, 3}),
             ints({1, 1, 1, 2, 2, 2}, Shape{2, 3}), opts());
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_EQ(out.to_strings(), (Strings{"a", "e", "i", "bc", "ef", "hi"}));
}

TEST_P(Substr, S14_BroadcastBeyondTwoDims) {
  StringTensor out = substr(strings({"xy", "zw"}, Shape{2, 1, 1}), ints({0}, Shape{1}),
                            ints({1}, Shape{1}), opts());
  EXPECT_EQ(out.shape(), (Shape{2, 1, 1}));
  EXPECT_EQ(out.to_strings(), (Strings{"x", "z"}));
}

TEST_P(Substr, S15_PosAndLenShapesMustMatch) {
  try {
    substr(strings({"abc"}, Shape{}), ints({1, 2}, Shape{2}), ints({1}, Shape{1}), opts());
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "pos and len should have the same shape, got: [2] vs. [1]");
  }
}

TEST_P(Substr, S16_IncompatibleShapes) {
  try {
    substr(strings({"a", "b", "c"}, Shape{3}), ints({0, 0}, Shape{2}), ints({1, 1}, Shape{2}),
           opts());
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "Incompatible shapes: [3] vs. [2]");
  }
}

TEST_P(Substr, S17_EmptyInputNoError) {
  StringTensor out = substr(strings({}, Shape{0}), scalar(100), scalar(1), strict());
  EXPECT_EQ(out.shape(), Shape{0});
  EXPECT_EQ(out.size(), 0);
  EXPECT_TRUE(out.to_strings().empty());
}

TEST_P(Substr, S18_DropGivesEmptyForOutOfRange) {
  StringTensor out =
      substr(strings({"Hello", "Hi"}, Shape{2}), ints({3, 3}, Shape{2}), ints({1, 1}, Shape{2}),
             opts(SubstrUnit::kByte, OutOfBoundsPolicy::kDrop));
  EXPECT_EQ(out.to_strings(), (Strings{"l", ""}));
}

TEST_P(Substr, DeviceDefaultPolicyErrorsOnCpuDropsOnCuda) {
  StringTensor in = strings({"Hello", "Hi"}, Shape{2});
  if (GetParam().is_cuda()) {
    EXPECT_EQ(substr(in, ints({3, 3}, Shape{2}), ints({1, 1}, Shape{2}), opts()).to_strings(),
              (Strings{"l", ""}));
  } else {
    EXPECT_THROW(substr(in, ints({3, 3}, Shape{2}), ints({1, 1}, Shape{2}), opts()),
                 InvalidArgumentError);
  }
}

TEST_P(Substr, ErrorNamesFirstBadElementInRowMajorOrder) {
  // Bad elements at flat 2 and 4; the message names 2, with its own string and pos.
  StringTensor in = strings({"aa", "bbb", "c"}, Shape{1, 3});
  try {
    substr(in, ints({0, 3, 2, 0, 9, 0}, Shape{2, 3}), ints({1, 1, 1, 1, 1, 1}, Shape{2, 3}),
           strict());
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "pos 2 out of range for string b'c' at index 2");
  }
}

TEST_P(Substr, ErrorPrintsPythonBytesRepr) {
  expect_out_of_range(std::string("it's\t\\\n\r\x00\x7f\xff", 11), 20, 1, SubstrUnit::kByte,
                      "pos 20 out of range for string b\"it's\\t\\\\\\n\\r\\x00\\x7f\\xff\" at "
                      "index 0");
  expect_out_of_range("say \"hi\" 'x'", 20, 1, SubstrUnit::kByte,
                      "pos 20 out of range for string b'say \"hi\" \\'x\\'' at index 0");
  expect_out_of_range("", 1, 1, SubstrUnit::kByte, "pos 1 out of range for string b'' at index 0");
}

TEST_P(Substr, ErrorShowsAtMost64Bytes) {
  const std::string longer(100, 'a');
  expect_out_of_range(
      longer, 101, 1, SubstrUnit::kByte,
      "pos 101 out of range for string b'" + std::string(64, 'a') + "'... at index 0");
  expect_out_of_range(std::string(64, 'b'), -65, 1, SubstrUnit::kByte,
                      "pos -65 out of range for string b'" + std::string(64, 'b') + "' at index 0");
}

TEST_P(Substr, Int64PosAndLen) {
  StringTensor out =
      substr(strings({"Hello", "World"}, Shape{2}), ints({1, -2}, Shape{2}, DataType::kInt64),
             ints({3, -1}, Shape{2}, DataType::kInt64), opts());
  EXPECT_EQ(out.to_strings(), (Strings{"ell", "ld"}));
}

TEST_P(Substr, ExtremePosAndLenNeverOverflow) {
  StringTensor in = strings({"Hello"}, Shape{});
  const auto i64 = DataType::kInt64;
  EXPECT_EQ(substr(in, scalar(0, i64), scalar(INT64_MAX, i64), strict()).to_strings(),
            Strings{"Hello"});
  EXPECT_EQ(substr(in, scalar(0, i64), scalar(INT64_MIN, i64), strict()).to_strings(),
            Strings{"Hello"});
  for (SubstrUnit u : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    // Rule 5: the message shows pos as the caller gave it.
    EXPECT_EQ(testing::invalid_argument_text(
                  [&] { substr(in, scalar(INT64_MAX, i64), scalar(1, i64), strict(u)); }),
              "pos 9223372036854775807 out of range for string b'Hello' at index 0");
    EXPECT_EQ(testing::invalid_argument_text(
                  [&] { substr(in, scalar(INT64_MIN, i64), scalar(1, i64), strict(u)); }),
              "pos -9223372036854775808 out of range for string b'Hello' at index 0");
    EXPECT_EQ(testing::invalid_argument_text(
                  [&] { substr(in, scalar(INT32_MIN), scalar(1), strict(u)); }),
              "pos -2147483648 out of range for string b'Hello' at index 0");
    EXPECT_EQ(substr(in, scalar(2, i64), scalar(INT64_MAX, i64), strict(u)).to_strings(),
              Strings{"llo"});
  }
  EXPECT_EQ(substr(in, scalar(INT32_MIN), scalar(INT32_MAX),
                   opts(SubstrUnit::kUtf8Char, OutOfBoundsPolicy::kDrop))
                .to_strings(),
            Strings{""});
}

TEST_P(Substr, ZeroLenGivesEmpty) {
  EXPECT_EQ(substr(strings({"Hello"}, Shape{}), scalar(2), scalar(0), strict()).to_strings(),
            Strings{""});
  EXPECT_EQ(substr(strings({"H\xc3\xa9llo"}, Shape{}), scalar(1), scalar(0),
                   strict(SubstrUnit::kUtf8Char))
                .to_strings(),
            Strings{""});
}

TEST_P(Substr, EmptyStringAcceptsOnlyPosZero) {
  StringTensor in = strings({""}, Shape{});
  for (SubstrUnit u : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    EXPECT_EQ(substr(in, scalar(0), scalar(3), strict(u)).to_strings(), Strings{""});
    EXPECT_EQ(substr(in, scalar(0), scalar(-1), strict(u)).to_strings(), Strings{""});
    EXPECT_THROW(substr(in, scalar(1), scalar(1), strict(u)), InvalidArgumentError);
    EXPECT_THROW(substr(in, scalar(-1), scalar(1), strict(u)), InvalidArgumentError);
  }
}

TEST_P(Substr, Utf8NeverSplitsACharacter) {
  // "aé€😀" = 1 + 2 + 3 + 4 bytes.
  StringTensor in = strings({"a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"}, Shape{});
  const SubstrUnit u = SubstrUnit::kUtf8Char;
  EXPECT_EQ(substr(in, scalar(2), scalar(1), strict(u)).to_strings(), Strings{"\xe2\x82\xac"});
  EXPECT_EQ(substr(in, scalar(-1), scalar(1), strict(u)).to_strings(), Strings{"\xf0\x9f\x98\x80"});
  EXPECT_EQ(substr(in, scalar(1), scalar(2), strict(u)).to_strings(),
            Strings{"\xc3\xa9\xe2\x82\xac"});
  EXPECT_EQ(substr(in, scalar(4), scalar(1), strict(u)).to_strings(), Strings{""});
  EXPECT_THROW(substr(in, scalar(5), scalar(1), strict(u)), InvalidArgumentError);
  EXPECT_THROW(substr(in, scalar(-5), scalar(1), strict(u)), InvalidArgumentError);
}

TEST_P(Substr, Utf8TruncatedSequenceAtEndStaysInside) {
  // A lead byte promising 4 bytes, then the string ends: one character, never read past.
  StringTensor in = strings({"ab\xf0\x9f"}, Shape{});
  const SubstrUnit u = SubstrUnit::kUtf8Char;
  EXPECT_EQ(substr(in, scalar(2), scalar(5), strict(u)).to_strings(), Strings{"\xf0\x9f"});
  EXPECT_EQ(substr(in, scalar(-1), scalar(-1), strict(u)).to_strings(), Strings{"\xf0\x9f"});
  EXPECT_EQ(substr(in, scalar(3), scalar(1), strict(u)).to_strings(), Strings{""});
}

TEST_P(Substr, DtypeErrors) {
  StringTensor in = strings({"abc"}, Shape{});
  TensorBuffer f = TensorBuffer::create_fixed_size(Shape{}, DataType::kFloat32);
  TensorBuffer f2 = TensorBuffer::create_fixed_size(Shape{}, DataType::kFloat32);
  EXPECT_EQ(testing::invalid_argument_text([&] { substr(in, f, f2, opts()); }),
            "pos must be int32 or int64, got: float32");
  TensorBuffer i16 = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt16);
  TensorBuffer i16b = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt16);
  EXPECT_EQ(testing::invalid_argument_text([&] { substr(in, i16, i16b, opts()); }),
            "pos must be int32 or int64, got: int16");
  try {
    substr(in, scalar(0, DataType::kInt32), scalar(1, DataType::kInt64), opts());
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()),
              "pos and len should have the same dtype, got: int32 vs. int64");
  }
}

TEST_P(Substr, EmptyBroadcastShapes) {
  // Input [2,0] against pos [1]: [2,0]; input [] against pos [0,3]: [0,3]; both no error.
  StringTensor a =
      substr(strings({}, Shape{2, 0}), ints({9}, Shape{1}), ints({1}, Shape{1}), strict());
  EXPECT_EQ(a.shape(), (Shape{2, 0}));
  StringTensor b =
      substr(strings({"x"}, Shape{}), ints({}, Shape{0, 3}), ints({}, Shape{0, 3}), strict());
  EXPECT_EQ(b.shape(), (Shape{0, 3}));
  EXPECT_EQ(b.size(), 0);
  EXPECT_THROW(
      substr(strings({}, Shape{0}), ints({1, 1}, Shape{2}), ints({1, 1}, Shape{2}), strict()),
      InvalidArgumentError);
}

TEST_P(Substr, HigherRankBroadcastBothWays) {
  // input [2,1,3] x pos [4,1]: output [2,4,3].
  Strings values = {"abcd", "efgh", "ijkl", "mnop", "qrst", "uvwx"};
  StringTensor in = strings(values, Shape{2, 1, 3});
  StringTensor out =
      substr(in, ints({0, 1, 2, 3}, Shape{4, 1}), ints({1, 2, 1, 2}, Shape{4, 1}), strict());
  EXPECT_EQ(out.shape(), (Shape{2, 4, 3}));
  const Strings got = out.to_strings();
  const int pos[] = {0, 1, 2, 3};
  const int len[] = {1, 2, 1, 2};
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 4; ++b) {
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(got[static_cast<std::size_t>((a * 4 + b) * 3 + c)],
                  values[static_cast<std::size_t>(a * 3 + c)].substr(
                      static_cast<std::size_t>(pos[b]), static_cast<std::size_t>(len[b])));
      }
    }
  }
}

TEST_P(Substr, InputsAreUnchanged) {
  StringTensor in = strings({"Hello", "World"}, Shape{2});
  TensorBuffer pos = ints({1, 9}, Shape{2});
  TensorBuffer len = ints({2, 2}, Shape{2});
  EXPECT_THROW(substr(in, pos, len, strict()), InvalidArgumentError);
  EXPECT_EQ(in.to_strings(), (Strings{"Hello", "World"}));
  EXPECT_EQ(pos.get_int_array(), (std::vector<std::int32_t>{1, 9}));
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(Substr);

TEST(SubstrDevice, CudaWithoutGpuIsUnavailable) {
  if (cuda_available()) GTEST_SKIP() << "a GPU is present";
  StringTensor in = StringTensor::from_strings(Strings{"a"}, Shape{});
  EXPECT_THROW(substr(in, scalar(0), scalar(1), SubstrOptions{.device = Device::cuda(0)}),
               UnavailableError);
}

}  // namespace
}  // namespace tensorbuf
