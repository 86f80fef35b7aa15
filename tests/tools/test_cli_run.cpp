// End-to-end tests of `tensorbuf run` (apps/, docs/cli.md): the built binary is run on .npy
// files; outputs, exit statuses (0 / 2 invalid inputs / 1 other) and "no output file on
// failure" are checked for every op.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"
#include "tools/cli_fixture.hpp"

namespace tensorbuf {
namespace {

using namespace cli_test;  // NOLINT(google-build-using-namespace): the fixture of these tests

TEST_F(Cli, ScatterSubWritesTheResult) {
  const Result r = run({"run", "tensor_scatter_nd_sub", "--tensor",
                        save("t.npy", i32({1, 1, 1, 1, 1, 1, 1, 1}, {8})), "--indices",
                        save("i.npy", i32({4, 3, 1, 7}, {4, 1})), "--updates",
                        save("u.npy", i32({9, 10, 11, 12}, {4})), "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty());
  TensorBuffer out = load_npy_tensor(path("o.npy"));
  EXPECT_EQ(out.data_type(), DataType::kInt32);
  EXPECT_EQ(out.get_int_array(), (std::vector<std::int32_t>{1, -10, 1, -9, -8, 1, 1, -11}));
}

TEST_F(Cli, EveryScatterSibling) {
  const std::string t = save("t.npy", i32({5, 5, 5}, {3}));
  const std::string i = save("i.npy", i32({0, 2, 0}, {3, 1}));
  const std::string u = save("u.npy", i32({1, 9, 3}, {3}));
  const std::vector<std::pair<std::string, std::vector<std::int32_t>>> cases = {
      {"tensor_scatter_nd_add", {9, 5, 14}},
      {"tensor_scatter_nd_update", {3, 5, 9}},
      {"tensor_scatter_nd_min", {1, 5, 5}},
      {"tensor_scatter_nd_max", {5, 5, 9}},
      {"tensor_scatter_nd_sub", {1, 5, -4}}};
  for (const auto& [op, expected] : cases) {
    const Result r = run({"run", op, "--tensor", t, "--indices", i, "--updates", u, "--out",
                          path(op + ".npy"), "--deterministic"});
    ASSERT_EQ(r.status, 0) << op << ": " << r.err;
    EXPECT_EQ(load_npy_tensor(path(op + ".npy")).get_int_array(), expected) << op;
  }
}

TEST_F(Cli, ScatterOutOfBoundsIsExit2WithoutOutputUnlessDropped) {
  const std::string t = save("t.npy", f32({0, 0, 0, 0, 0}, {5}));
  const std::string i = save("i.npy", i32({0, 5, 2, -1}, {4, 1}));
  const std::string u = save("u.npy", f32({1, 2, 3, 4}, {4}));
  Result r = run({"run", "tensor_scatter_nd_sub", "--tensor", t, "--indices", i, "--updates", u,
                  "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_line(r, "InvalidArgument: indices[1] = [5] does not index into shape [5]");
  EXPECT_FALSE(fs::exists(path("o.npy")));
  r = run({"run", "tensor_scatter_nd_sub", "--tensor", t, "--indices", i, "--updates", u,
           "--out-of-bounds", "drop", "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_float_array(),
            (std::vector<float>{-1, 0, -3, 0, 0}));
}

TEST_F(Cli, FailureKeepsAnExistingOutputFile) {
  std::ofstream(path("o.npy")) << "previous";
  const Result r =
      run({"run", "tensor_scatter_nd_sub", "--tensor", save("t.npy", i32({1, 2, 3, 4}, {4})),
           "--indices", save("i.npy", i32({1, 2}, {1, 2})), "--updates",
           save("u.npy", i32({5}, {1})), "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_line(r, "InvalidArgument: ");
  EXPECT_EQ(read_text(path("o.npy")), "previous");
}

TEST_F(Cli, BooleanMaskAndCompress) {
  const std::string t = save("t.npy", i32({1, 2, 3, 4, 5, 6}, {2, 3}));
  Result r = run({"run", "boolean_mask", "--tensor", t, "--mask", save("m.npy", bools({1, 0, 1}, {3})),
                  "--axis", "1", "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o.npy"), DataType::kInt32, "<i4", Shape({2, 2}), "(2, 2)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_int_array(), (std::vector<std::int32_t>{1, 3, 4, 6}));
  r = run({"run", "compress", "--input", t, "--condition",
           save("c.npy", bools({0, 1, 0, 0, 1}, {5})), "--out", path("c_out.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("c_out.npy")).get_int_array(), (std::vector<std::int32_t>{2, 5}));
  // A bad mask: exit 2, the message, no output file.
  r = run({"run", "boolean_mask", "--tensor", t, "--mask", save("m2.npy", bools({1, 0, 1}, {3})),
           "--out", path("bad.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: Mask shape [3] is not compatible with the required "
                          "mask shape: [2].");
  EXPECT_FALSE(std::filesystem::exists(path("bad.npy")));
}

// boolean_mask_into: the output of --capacity slices (zeros past n) and n in a 0-d int64 file;
// n > capacity is no error (the first capacity slices, n says how many were selected).
TEST_F(Cli, BooleanMaskInto) {
  const std::string t = save("t.npy", i32({1, 2, 3, 4, 5, 6}, {2, 3}));
  Result r = run({"run", "boolean_mask_into", "--tensor", t, "--mask",
                  save("m.npy", bools({1, 0, 1}, {3})), "--axis", "1", "--capacity", "3",
                  "--out", path("o.npy"), "--count", path("n.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o.npy"), DataType::kInt32, "<i4", Shape({2, 3}), "(2, 3)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_int_array(),
            (std::vector<std::int32_t>{1, 3, 0, 4, 6, 0}));
  expect_npy(path("n.npy"), DataType::kInt64, "<i8", Shape{}, "()");
  EXPECT_EQ(load_npy_tensor(path("n.npy")).get_int_array(), (std::vector<std::int32_t>{2}));
  // Room for one row of the two selected (axis 0).
  r = run({"run", "boolean_mask_into", "--tensor", t, "--mask", save("m0.npy", bools({1, 1}, {2})),
           "--capacity", "1", "--out", path("o1.npy"), "--count", path("n1.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("o1.npy")).get_int_array(), (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_EQ(load_npy_tensor(path("n1.npy")).get_int_array(), (std::vector<std::int32_t>{2}));
  // A bad mask or capacity: exit 2, the message, no output file.
  r = run({"run", "boolean_mask_into", "--tensor", t, "--mask", path("m.npy"), "--capacity", "3",
           "--out", path("bad.npy"), "--count", path("bad_n.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: Mask shape [3] is not compatible with the required "
                          "mask shape: [2].");
  r = run({"run", "boolean_mask_into", "--tensor", t, "--mask", path("m.npy"), "--capacity", "-1",
           "--out", path("bad.npy"), "--count", path("bad_n.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: --capacity must be an integer >= 0, not '-1'");
  EXPECT_FALSE(std::filesystem::exists(path("bad.npy")));
  EXPECT_FALSE(std::filesystem::exists(path("bad_n.npy")));
}

// The processing ops: TFLite Support's with numbers on the command line, ONNX's with .npy
// tensors; each result checked against float32 arithmetic done here.
TEST_F(Cli, ProcessingOps) {
  const std::string x = save("x.npy", f32({0, 64, 255, 10, 20, 30}, {2, 3}));
  Result r = run({"run", "normalize", "--x", x, "--mean", "1,2,3", "--stddev", "2,4,8", "--out",
                  path("n.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("n.npy")).get_float_array(),
            (std::vector<float>{(0.f - 1) / 2, (64.f - 2) / 4, (255.f - 3) / 8, (10.f - 1) / 2,
                                (20.f - 2) / 4, (30.f - 3) / 8}));
  r = run({"run", "quantize", "--x", x, "--zero-point", "2", "--scale", "0.5", "--out",
           path("q.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("q.npy")).get_float_array()[1], (64.f + 1.f) / 0.5f);
  r = run({"run", "cast", "--x", x, "--dtype", "int8", "--out", path("c.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("c.npy"), DataType::kInt8, "|i1", Shape({2, 3}), "(2, 3)");
  EXPECT_EQ(load_npy_tensor(path("c.npy")).get_int_array(),
            (std::vector<std::int32_t>{0, 64, 127, 10, 20, 30}));  // saturated
  TensorBuffer zero_point = TensorBuffer::create_fixed_size(Shape({}), DataType::kUInt8);
  zero_point.load_array(std::vector<std::int32_t>{10}, Shape({}));
  const std::string scale = save("s.npy", f32({0.5f}, {}));
  const std::string zero = save("z.npy", zero_point);
  r = run({"run", "quantize_linear", "--x", x, "--scale", scale, "--zero-point", zero, "--out",
           path("ql.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("ql.npy")).get_int_array(),
            (std::vector<std::int32_t>{10, 138, 255, 30, 50, 70}));
  r = run({"run", "dequantize_linear", "--x", path("ql.npy"), "--scale", scale, "--zero-point",
           zero, "--out", path("dql.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("dql.npy")).get_float_array(),
            (std::vector<float>{0, 64, 122.5f, 10, 20, 30}));
  // Bad parameters: exit 2, the message, no output file.
  r = run({"run", "normalize", "--x", x, "--mean", "1,x", "--stddev", "1", "--out",
           path("bad.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: --mean must be numbers separated by commas, not '1,x'");
  r = run({"run", "normalize", "--x", x, "--mean", "1", "--stddev", "0", "--out", path("bad.npy")});
  EXPECT_EQ(r.status, 2);
  r = run({"run", "cast", "--x", x, "--dtype", "float128", "--out", path("bad.npy")});
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(std::filesystem::exists(path("bad.npy")));
}

// `run process`: a Processor from --steps, against float32 arithmetic done here.
TEST_F(Cli, ProcessRunsTheStepsAsAChain) {
  const std::string x = save("x.npy", f32({0, 64, 255, 10, 20, 300}, {2, 3}));
  Result r = run({"run", "process", "--x", x, "--steps", "normalize:1,2,3:2,4,8/cast:uint8",
                  "--out", path("p.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("p.npy"), DataType::kUInt8, "|u1", Shape({2, 3}), "(2, 3)");
  EXPECT_EQ(load_npy_tensor(path("p.npy")).get_int_array(),
            (std::vector<std::int32_t>{0, 15, 31, 4, 4, 37}));  // truncated toward zero
  r = run({"run", "process", "--x", x, "--steps", "quantize:2:0.5/dequantize:2:0.5", "--out",
           path("qd.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  // quantize: (x + 1) / 0.5; dequantize: (q - 2) / 2.
  EXPECT_EQ(load_npy_tensor(path("qd.npy")).get_float_array()[1],
            ((64.f + 1.f) / 0.5f - 2.f) / 2.f);
  for (const char* bad : {"normalize:1", "scale:1:2", "cast:float128", "quantize:1,2:3"}) {
    r = run({"run", "process", "--x", x, "--steps", bad, "--out", path("bad.npy")});
    EXPECT_EQ(r.status, 2) << bad;
  }
  r = run({"run", "process", "--x", x, "--steps", "normalize:1:0", "--out", path("bad.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: normalize: stddev cannot be zero");
  EXPECT_FALSE(std::filesystem::exists(path("bad.npy")));
}

TEST_F(Cli, BooleanMaskUpdateWithAxisAndNoBroadcast) {
  const std::string t = save("t.npy", i32({1, 2, 3, 4, 5, 6}, {2, 3}));
  const std::string m = save("m.npy", bools({1, 0, 1}, {3}));
  Result r =
      run({"run", "boolean_mask_update", "--tensor", t, "--mask", m, "--updates",
           save("u.npy", i32({7, 8, 9, 10}, {2, 2})), "--axis", "1", "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o.npy"), DataType::kInt32, "<i4", Shape({2, 3}), "(2, 3)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_int_array(),
            (std::vector<std::int32_t>{7, 2, 8, 9, 5, 10}));
  r = run({"run", "boolean_mask_update", "--tensor", t, "--mask", m, "--updates",
           save("s.npy", i32({0}, {})), "--axis=-1", "--out", path("o2.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o2.npy"), DataType::kInt32, "<i4", Shape({2, 3}), "(2, 3)");
  EXPECT_EQ(load_npy_tensor(path("o2.npy")).get_int_array(),
            (std::vector<std::int32_t>{0, 2, 0, 0, 5, 0}));
  // B16: with --no-broadcast the [n]+trailing updates do not equal the target [2,2,2].
  const std::string z = save("z.npy", i32(std::vector<std::int32_t>(12, 0), {2, 3, 2}));
  const std::string m2 = save("m2.npy", bools({0, 1, 1}, {3}));
  const std::string u2 = save("u2.npy", i32({1, 2, 3, 4}, {2, 2}));
  r = run({"run", "boolean_mask_update", "--tensor", z, "--mask", m2, "--updates", u2, "--axis",
           "1", "--no-broadcast", "--out", path("o3.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: Updates shape [2,2] is not equal to the target shape "
                       "[2,2,2] (broadcast = false).");
  EXPECT_FALSE(fs::exists(path("o3.npy")));
  r = run({"run", "boolean_mask_update", "--tensor", z, "--mask", m2, "--updates", u2, "--axis",
           "1", "--out", path("o3.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o3.npy"), DataType::kInt32, "<i4", Shape({2, 3, 2}), "(2, 3, 2)");
  EXPECT_EQ(load_npy_tensor(path("o3.npy")).get_int_array(),
            (std::vector<std::int32_t>{0, 0, 1, 2, 3, 4, 0, 0, 1, 2, 3, 4}));
  // float32 in, float32 out (not converted through int32).
  r = run({"run", "boolean_mask_update", "--tensor", save("f.npy", f32({0.5f, 1.5f, 2.5f}, {3})),
           "--mask", save("fm.npy", bools({0, 1, 0}, {3})), "--updates",
           save("fu.npy", f32({-0.25f}, {})), "--out", path("o4.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o4.npy"), DataType::kFloat32, "<f4", Shape({3}), "(3,)");
  EXPECT_EQ(load_npy_tensor(path("o4.npy")).get_float_array(),
            (std::vector<float>{0.5f, -0.25f, 2.5f}));
}

TEST_F(Cli, BooleanMaskUpdateBadMaskIsExit2WithoutOutput) {
  const std::string t = save("t.npy", i32({1, 2, 3}, {3}));
  const std::string u = save("u.npy", i32({0}, {}));
  // A mask that is not bool (int32 0/1).
  Result r = run({"run", "boolean_mask_update", "--tensor", t, "--mask",
                  save("m.npy", i32({1, 0, 1}, {3})), "--updates", u, "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: Mask must be of dtype bool, got int32.");
  EXPECT_FALSE(fs::exists(path("o.npy")));
  // A 0-d mask (B4).
  r = run({"run", "boolean_mask_update", "--tensor", t, "--mask", save("s.npy", bools({1}, {})),
           "--updates", u, "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: Mask cannot be a scalar.");
  EXPECT_FALSE(fs::exists(path("o.npy")));
}

TEST_F(Cli, InputsInNumPysOtherFormatsAreRead) {
  // Big-endian int32 [[0,1,-2],[3,100,-100]] from NumPy, mask on axis 1.
  const Result r = run({"run", "boolean_mask_update", "--tensor", fixture("i4_be.npy").string(),
                        "--mask", save("m.npy", bools({0, 1, 0}, {3})), "--updates",
                        save("u.npy", i32({7}, {})), "--axis", "1", "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  // Written in the native (little-endian) order.
  expect_npy(path("o.npy"), DataType::kInt32, "<i4", Shape({2, 3}), "(2, 3)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_int_array(),
            (std::vector<std::int32_t>{0, 7, -2, 3, 7, -100}));
}

TEST_F(Cli, SubstrBytesAndUtf8) {
  const std::string s =
      save("s.npy", StringTensor::from_strings(std::vector<std::string>{"Hello", "World"}, {2}));
  Result r = run({"run", "substr", "--input", s, "--pos", save("p.npy", i32({1}, {})), "--len",
                  save("l.npy", i32({3}, {})), "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_strings(path("o.npy")).to_strings(), (std::vector<std::string>{"ell", "orl"}));
  // The output is dtype S, as NumPy reads it.
  EXPECT_NE(read_text(path("o.npy")).find("'descr': '|S3'"), std::string::npos);

  const std::string he =
      save("he.npy", StringTensor::from_strings(std::vector<std::string>{"H\xc3\xa9llo"}, {}));
  const std::string p1 = save("p1.npy", i32({1}, {}));
  const std::string l2 = save("l2.npy", i32({2}, {}));
  r = run({"run", "substr", "--input", he, "--pos", p1, "--len", l2, "--unit", "utf8_char", "--out",
           path("u.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_strings(path("u.npy")).to_strings(), std::vector<std::string>{"\xc3\xa9l"});
  r = run({"run", "substr", "--input", he, "--pos", p1, "--len", l2, "--unit", "byte", "--out",
           path("b.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_strings(path("b.npy")).to_strings(), std::vector<std::string>{"\xc3\xa9"});
}

TEST_F(Cli, SubstrOutOfRangeIsExit2UnlessDropped) {
  const std::string s =
      save("s.npy", StringTensor::from_strings(std::vector<std::string>{"Hello"}, {}));
  const std::string p = save("p.npy", i32({6}, {}));
  const std::string l = save("l.npy", i32({1}, {}));
  Result r = run({"run", "substr", "--input", s, "--pos", p, "--len", l, "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: pos 6 out of range for string b'Hello' at index 0");
  EXPECT_FALSE(fs::exists(path("o.npy")));
  // The policy asked for by name: the same error (spec/substr.md rule 5: pos as given).
  r = run({"run", "substr", "--input", s, "--pos", p, "--len", l, "--out-of-bounds", "error",
           "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: pos 6 out of range for string b'Hello' at index 0");
  EXPECT_FALSE(fs::exists(path("o.npy")));
  // A negative pos beyond the start, on the second element of the output.
  const std::string s2 =
      save("s2.npy", StringTensor::from_strings(std::vector<std::string>{"Hi", "Hello"}, {2}));
  r = run({"run", "substr", "--input", s2, "--pos", save("pn.npy", i32({0, -6}, {2})), "--len",
           save("l2.npy", i32({1, 1}, {2})), "--out-of-bounds", "error", "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: pos -6 out of range for string b'Hello' at index 1");
  EXPECT_FALSE(fs::exists(path("o.npy")));
  r = run({"run", "substr", "--input", s, "--pos", p, "--len", l, "--out-of-bounds", "drop",
           "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_strings(path("o.npy")).to_strings(), std::vector<std::string>{""});
}

TEST_F(Cli, SubstrOfANumericArrayIsInvalid) {
  const std::string t = save("t.npy", i32({1}, {}));
  const Result r =
      run({"run", "substr", "--input", t, "--pos", t, "--len", t, "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_line(r, "InvalidArgument: npy: expected a byte-string (S) array");
  EXPECT_FALSE(fs::exists(path("o.npy")));
}

TEST_F(Cli, BadInputFilesAreExit2WithoutOutput) {
  const std::string i = save("i.npy", i32({0}, {1, 1}));
  const std::string u = save("u.npy", f32({1}, {1}));
  for (const char* bad :
       {"fortran.npy",          "transposed_i4.npy",      "object.npy",
        "unicode.npy",          "structured.npy",         "complex.npy",
        "uint32.npy",           "bf16_bits_u2.npy",       "truncated.npy",
        "truncated_header.npy", "truncated_preamble.npy", "lying_shape.npy",
        "huge_dims.npy",        "huge_bytes.npy",         "huge_dim_digits.npy",
        "huge_strings.npy",     "huge_itemsize.npy",      "negative_dim.npy",
        "non_ascii.npy",        "unterminated.npy",       "unterminated_string.npy",
        "missing_key.npy",      "extra_key.npy",          "shape_not_tuple.npy",
        "not_a_dict.npy",       "header_length_lies.npy", "v2_header_length_lies.npy",
        "bad_version.npy",      "bad_magic.npy",          "does_not_exist.npy"}) {
    const Result r = run({"run", "tensor_scatter_nd_sub", "--tensor", fixture(bad).string(),
                          "--indices", i, "--updates", u, "--out", path("o.npy")});
    EXPECT_EQ(r.status, 2) << bad << ": " << r.err;
    expect_error_line(r, "InvalidArgument: npy: ");
    EXPECT_FALSE(fs::exists(path("o.npy"))) << bad;
  }
}

TEST_F(Cli, UnwritableOutputIsReportedWithoutAPartialFile) {
  const std::string t = save("t.npy", i32({1, 2}, {2}));
  const std::string i = save("i.npy", i32({0}, {1, 1}));
  const std::string u = save("u.npy", i32({1}, {1}));
  const Result r = run({"run", "tensor_scatter_nd_add", "--tensor", t, "--indices", i, "--updates",
                        u, "--out", path("missing/o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_line(r, "InvalidArgument: npy: cannot create");
  EXPECT_FALSE(fs::exists(path("missing")));
}

TEST_F(Cli, RunOnCUDAMatchesTheCPU) {
  if (!cuda_available()) {
    if (const char* env = std::getenv("TENSORBUF_REQUIRE_CUDA"); env && std::string(env) == "1") {
      FAIL() << "TENSORBUF_REQUIRE_CUDA=1 but CUDA is unavailable: " << cuda_availability_reason();
    }
    GTEST_SKIP() << "CUDA unavailable: " << cuda_availability_reason();
  }
  const std::string t = save("t.npy", i32({5, 5, 5}, {3}));
  const std::string i = save("i.npy", i32({0, 2, 0}, {3, 1}));
  const std::string u = save("u.npy", i32({1, 9, 3}, {3}));
  Result r = run({"run", "tensor_scatter_nd_add", "--tensor", t, "--indices", i, "--updates", u,
                  "--device", "cuda", "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_int_array(), (std::vector<std::int32_t>{9, 5, 14}));

  r = run({"run", "boolean_mask_update", "--tensor", t, "--mask",
           save("m.npy", bools({1, 0, 1}, {3})), "--updates", save("mu.npy", i32({7}, {})),
           "--device", "cuda", "--out", path("om.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("om.npy")).get_int_array(), (std::vector<std::int32_t>{7, 5, 7}));

  const std::string s = save(
      "s.npy", StringTensor::from_strings(std::vector<std::string>{"Hello", "W\xc3\xb6rld"}, {2}));
  r = run({"run", "substr", "--input", s, "--pos", save("p.npy", i32({1}, {})), "--len",
           save("l.npy", i32({3}, {})), "--unit", "utf8_char", "--device", "cuda", "--out",
           path("os.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_strings(path("os.npy")).to_strings(),
            (std::vector<std::string>{"ell", "\xc3\xb6rl"}));
  // CUDA's default policy drops an out-of-range element (an empty string), as TensorFlow does.
  r = run({"run", "substr", "--input", s, "--pos", save("p9.npy", i32({9}, {})), "--len",
           save("l1.npy", i32({1}, {})), "--device", "cuda", "--out", path("od.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_strings(path("od.npy")).to_strings(), (std::vector<std::string>{"", ""}));
}

// gather_nd (docs/gather_nd.md): rows, batch_dims, the bad row under both policies, the flags.
TEST_F(Cli, GatherNd) {
  const std::string p = save("p.npy", i32({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2}));
  Result r = run({"run", "gather_nd", "--params", p, "--indices",
                  save("i.npy", i32({0, 1, 1, 0}, {2, 1, 2})), "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o.npy"), DataType::kInt32, "<i4", Shape({2, 1, 2}), "(2, 1, 2)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_int_array(),
            (std::vector<std::int32_t>{2, 3, 4, 5}));
  // ONNX GatherND's batch_dims = 1 example: params[b][indices[b]].
  r = run({"run", "gather_nd", "--params", p, "--indices", save("b.npy", i32({1, 0}, {2, 1})),
           "--batch-dims", "1", "--out", path("ob.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("ob.npy"), DataType::kInt32, "<i4", Shape({2, 2}), "(2, 2)");
  EXPECT_EQ(load_npy_tensor(path("ob.npy")).get_int_array(),
            (std::vector<std::int32_t>{2, 3, 4, 5}));
  // A bad row: exit 2 with the row named and no output, or zeros with --out-of-bounds drop.
  const std::string bad = save("bad.npy", i32({1, 1, 0, 2, -1, 0}, {3, 2}));
  r = run({"run", "gather_nd", "--params", p, "--indices", bad, "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: indices[1] = [0, 2] does not index into shape "
                          "[2,2,2]");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
  r = run({"run", "gather_nd", "--params", p, "--indices", bad, "--out-of-bounds", "drop",
           "--out", path("d.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("d.npy")).get_int_array(),
            (std::vector<std::int32_t>{6, 7, 0, 0, 0, 0}));
  r = run({"run", "gather_nd", "--params", p, "--indices", bad, "--batch-dims", "one", "--out",
           path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: --batch-dims must be an integer, not 'one'");
  r = run({"run", "gather_nd", "--params", p, "--indices", bad, "--batch-dims", "2", "--out",
           path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: gather_nd: batch_dims = 2 must be between 0 and "
                          "indices.rank - 1 = 1 (indices shape [3,2])");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
}

// gather (docs/elements.md): ONNX Gather's axis-1 example, a negative index, batch_dims, the
// bad index under both policies, the flags.
TEST_F(Cli, Gather) {
  const std::string p =
      save("p.npy", f32({1.0f, 1.2f, 1.9f, 2.3f, 3.4f, 3.9f, 4.5f, 5.7f, 5.9f}, {3, 3}));
  Result r = run({"run", "gather", "--params", p, "--indices", save("i.npy", i32({0, -1}, {1, 2})),
                  "--axis", "1", "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o.npy"), DataType::kFloat32, "<f4", Shape({3, 1, 2}), "(3, 1, 2)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_float_array(),
            (std::vector<float>{1.0f, 1.9f, 2.3f, 3.9f, 4.5f, 5.9f}));
  // Axis 0 by default: rows.
  r = run({"run", "gather", "--params", p, "--indices", save("r.npy", i32({2, 0}, {2})), "--out",
           path("or.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("or.npy")).get_float_array(),
            (std::vector<float>{4.5f, 5.7f, 5.9f, 1.0f, 1.2f, 1.9f}));
  // batch_dims 1: row b takes its own indices.
  r = run({"run", "gather", "--params", p, "--indices", save("b.npy", i32({2, 1, 0}, {3, 1})),
           "--axis", "1", "--batch-dims", "1", "--out", path("ob.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("ob.npy"), DataType::kFloat32, "<f4", Shape({3, 1}), "(3, 1)");
  EXPECT_EQ(load_npy_tensor(path("ob.npy")).get_float_array(),
            (std::vector<float>{1.9f, 3.4f, 4.5f}));
  // A bad index: exit 2 naming it and no output, or zeros with --out-of-bounds drop.
  const std::string bad = save("bad.npy", i32({1, 3, -4, 0}, {2, 2}));
  r = run(
      {"run", "gather", "--params", p, "--indices", bad, "--axis", "1", "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: indices[0,1] = 3 is out of range for axis 1 of "
                       "shape [3,3]");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
  r = run({"run", "gather", "--params", p, "--indices", bad, "--axis", "1", "--out-of-bounds",
           "drop", "--out", path("d.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("d.npy")).get_float_array(),
            (std::vector<float>{1.2f, 0, 0, 1.0f, 3.4f, 0, 0, 2.3f, 5.7f, 0, 0, 4.5f}));
  r = run(
      {"run", "gather", "--params", p, "--indices", bad, "--axis", "2", "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: gather: axis = 2 is out of range for params of rank "
                       "2 (shape [3,3])");
  r = run({"run", "gather", "--params", p, "--indices", bad, "--batch-dims", "x", "--out",
           path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: --batch-dims must be an integer, not 'x'");
  r = run({"run", "gather", "--params", p, "--indices", p, "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: gather: indices must be int32 or int64, got float32");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
}

// gather_elements: axis 1, ONNX GatherElements' negative-indices example (axis 0), a bad
// index under both policies, a shape error.
TEST_F(Cli, GatherElements) {
  const std::string p = save("p.npy", i32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}));
  Result r = run({"run", "gather_elements", "--params", p, "--indices",
                  save("i.npy", i32({0, 0, 1, 0}, {2, 2})), "--axis", "1", "--out", path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o.npy"), DataType::kInt32, "<i4", Shape({2, 2}), "(2, 2)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_int_array(),
            (std::vector<std::int32_t>{1, 1, 5, 4}));
  r = run({"run", "gather_elements", "--params", p, "--indices",
           save("n.npy", i32({-1, -2, 0, -2, 0, 0}, {2, 3})), "--out", path("on.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("on.npy")).get_int_array(),
            (std::vector<std::int32_t>{7, 5, 3, 4, 2, 3}));
  const std::string bad = save("bad.npy", i32({0, 1, 7, -4}, {2, 2}));
  r = run({"run", "gather_elements", "--params", p, "--indices", bad, "--axis", "-1", "--out",
           path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: indices[1,0] = 7 is out of range for axis 1 of "
                       "shape [3,3]");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
  r = run({"run", "gather_elements", "--params", p, "--indices", bad, "--axis", "-1",
           "--out-of-bounds", "drop", "--out", path("d.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("d.npy")).get_int_array(),
            (std::vector<std::int32_t>{1, 2, 0, 0}));
  r = run({"run", "gather_elements", "--params", p, "--indices",
           save("w.npy", i32({0, 1, 2, 0}, {4})), "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: gather_elements: indices shape [4] must have the "
                       "rank of params shape [3,3]");
  r = run({"run", "gather_elements", "--params", p, "--indices", bad, "--batch-dims", "1", "--out",
           path("x.npy")});
  EXPECT_EQ(r.status, 2);  // gather_elements has no --batch-dims
  expect_error_line(r, "InvalidArgument: ");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
}

// scatter_elements: ONNX ScatterElements' examples, every --reduction on duplicates, --in-place,
// a bad index under both policies (nothing written in place), bad flags.
TEST_F(Cli, ScatterElements) {
  const std::string t = save("t.npy", f32({0, 0, 0, 0, 0, 0, 0, 0, 0}, {3, 3}));
  Result r = run({"run", "scatter_elements", "--tensor", t, "--indices",
                  save("i.npy", i32({1, 0, 2, 0, 2, 1}, {2, 3})), "--updates",
                  save("u.npy", f32({1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f}, {2, 3})), "--out",
                  path("o.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  expect_npy(path("o.npy"), DataType::kFloat32, "<f4", Shape({3, 3}), "(3, 3)");
  EXPECT_EQ(load_npy_tensor(path("o.npy")).get_float_array(),
            (std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f}));
  const std::string row = save("row.npy", i32({1, 2, 3, 4, 5}, {1, 5}));
  const std::string dup = save("dup.npy", i32({1, -4}, {1, 2}));  // both are column 1
  const std::string du = save("du.npy", i32({10, 3}, {1, 2}));
  const std::vector<std::pair<std::string, std::vector<std::int32_t>>> cases = {
      {"none", {1, 3, 3, 4, 5}},  // the last duplicate wins
      {"add", {1, 15, 3, 4, 5}},
      {"mul", {1, 60, 3, 4, 5}},
      {"min", {1, 2, 3, 4, 5}},
      {"max", {1, 10, 3, 4, 5}}};
  for (const auto& [reduction, expected] : cases) {
    r = run({"run", "scatter_elements", "--tensor", row, "--indices", dup, "--updates", du,
             "--axis", "1", "--reduction", reduction, "--out", path(reduction + ".npy")});
    ASSERT_EQ(r.status, 0) << reduction << ": " << r.err;
    EXPECT_EQ(load_npy_tensor(path(reduction + ".npy")).get_int_array(), expected) << reduction;
  }
  // In place: the file's data is updated.
  const std::string mapped = save("m.npy", i32({1, 2, 3, 4, 5}, {1, 5}));
  r = run({"run", "scatter_elements", "--tensor", mapped, "--indices", dup, "--updates", du,
           "--axis", "1", "--reduction", "add", "--in-place"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(mapped).get_int_array(), (std::vector<std::int32_t>{1, 15, 3, 4, 5}));
  // A bad index: exit 2 naming it, no output and the in-place file unchanged; drop skips it.
  const std::string bad = save("bad.npy", i32({4, 5}, {1, 2}));
  r = run({"run", "scatter_elements", "--tensor", row, "--indices", bad, "--updates", du, "--axis",
           "1", "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: indices[0,1] = 5 is out of range for axis 1 of "
                       "shape [1,5]");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
  r = run({"run", "scatter_elements", "--tensor", mapped, "--indices", bad, "--updates", du,
           "--axis", "1", "--in-place"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(load_npy_tensor(mapped).get_int_array(), (std::vector<std::int32_t>{1, 15, 3, 4, 5}));
  r = run({"run", "scatter_elements", "--tensor", row, "--indices", bad, "--updates", du, "--axis",
           "1", "--out-of-bounds", "drop", "--out", path("d.npy")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(path("d.npy")).get_int_array(),
            (std::vector<std::int32_t>{1, 2, 3, 4, 10}));
  r = run({"run", "scatter_elements", "--tensor", row, "--indices", dup, "--updates", du, "--axis",
           "1", "--reduction", "sum", "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: --reduction must be none, add, mul, min or max, not "
                       "'sum'");
  r = run({"run", "scatter_elements", "--tensor", row, "--indices", dup, "--updates", du, "--axis",
           "1", "--in-place", "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r, "InvalidArgument: --in-place and --out cannot both be given");
  r = run({"run", "scatter_elements", "--tensor", row, "--indices", dup, "--updates",
           save("uf.npy", f32({1, 2}, {1, 2})), "--axis", "1", "--out", path("x.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_exactly(r,
                       "InvalidArgument: scatter_elements: updates must have the tensor's "
                       "dtype int32, got float32");
  EXPECT_FALSE(std::filesystem::exists(path("x.npy")));
}

}  // namespace
}  // namespace tensorbuf
