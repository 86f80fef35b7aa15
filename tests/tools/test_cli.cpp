// End-to-end tests of the `tensorbuf` command (apps/, docs/cli.md): the built binary is run on
// .npy files; outputs, exit statuses (0 / 2 invalid inputs / 1 other) and "no output file on
// failure" are checked.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "cpu/cpu_features.hpp"
#include "tensorbuf/tensorbuf.hpp"

#ifndef TENSORBUF_CLI_PATH
#error "TENSORBUF_CLI_PATH must name the built tensorbuf binary"
#endif

namespace tensorbuf {
namespace {

namespace fs = std::filesystem;

fs::path fixture(const std::string& name) {
  return fs::path(TENSORBUF_TEST_DATA_DIR) / "npy" / name;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tensorbuf_test_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs the binary with `args`; stdout and stderr are captured.
  Result run(const std::vector<std::string>& args) const {
    std::string command = quote(TENSORBUF_CLI_PATH);
    for (const std::string& a : args) {
      command += ' ';
      command += quote(a);
    }
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    command += " > ";
    command += quote(out);
    command += " 2> ";
    command += quote(err);
    const int raw = std::system(command.c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = read_text(out);
    r.err = read_text(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  std::string save(const std::string& name, const TensorBuffer& t) const {
    save_npy(path(name), t);
    return path(name);
  }
  std::string save(const std::string& name, const StringTensor& s) const {
    save_npy(path(name), s);
    return path(name);
  }

  static std::string quote(const std::string& s) {
    std::string out = "'";
    for (const char c : s) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
    return out;
  }

  fs::path dir_;
};

TensorBuffer i32(const std::vector<std::int32_t>& v, const Shape& shape) {
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kInt32);
  t.load_array(v, shape);
  return t;
}
TensorBuffer f32(const std::vector<float>& v, const Shape& shape) {
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kFloat32);
  t.load_array(v, shape);
  return t;
}
TensorBuffer bools(const std::vector<std::int32_t>& v, const Shape& shape) {
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kBool);
  t.load_array(v, shape);
  return t;
}

// An error is one line on stderr that begins with its class.
void expect_error_line(const Result& r, const std::string& prefix) {
  EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << "stderr: " << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "stderr: " << r.err;
}

// The whole of stderr is exactly `line` and a newline.
void expect_error_exactly(const Result& r, const std::string& line) {
  EXPECT_EQ(r.err, line + "\n");
}

// The .npy at `path` holds `dtype` and `shape` as NumPy reads them: the header's dict, and the
// loaded tensor's dtype and shape.
void expect_npy(const std::string& path, DataType dtype, const std::string& descr,
                const Shape& shape, const std::string& npy_shape) {
  const std::string header = read_text(path).substr(0, 128);
  EXPECT_NE(header.find("{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + npy_shape +
                        ", }"),
            std::string::npos)
      << header;
  const TensorBuffer loaded = load_npy_tensor(path);
  EXPECT_EQ(loaded.data_type(), dtype);
  EXPECT_EQ(loaded.shape(), shape);
}

TEST_F(Cli, InfoPrintsVersionBuildAndWhyCudaIsOrIsNotUsable) {
  const Result r = run({"info"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("tensorbuf " + std::string(kVersion)), std::string::npos);
  EXPECT_NE(r.out.find(std::string(build_description())), std::string::npos);
  EXPECT_NE(r.out.find("CUDA: "), std::string::npos);
  EXPECT_NE(r.out.find(cuda_availability_reason()), std::string::npos);
  // Which CPU code runs: the AVX-512 paths where this CPU and build have them, else portable.
  const cpu::CpuFeatures& features = cpu::detected_cpu_features();
  const bool substr_simd = features.avx512bw && features.bmi2;
  const bool mask_simd = features.avx512bw;
  std::string paths = "  cpu paths: AVX-512 (";  // one fast path only: which one is named
  if (substr_simd && mask_simd) {
    paths = "  cpu paths: AVX-512 (substr UTF-8 scans, boolean_mask_update)\n";
  } else if (!substr_simd && !mask_simd) {
    paths = "  cpu paths: portable (no AVX-512BW/BMI2 here, or a TENSORBUF_PORTABLE build)\n";
  }
  EXPECT_NE(r.out.find(paths), std::string::npos) << r.out;
}

TEST_F(Cli, HelpOnEveryCommand) {
  const std::vector<std::vector<std::string>> commands = {
      {"--help"},
      {"info", "--help"},
      {"examples", "--help"},
      {"run", "--help"},
      {"run", "tensor_scatter_nd_sub", "--help"},
      {"run", "tensor_scatter_nd_add", "--help"},
      {"run", "tensor_scatter_nd_update", "--help"},
      {"run", "tensor_scatter_nd_min", "--help"},
      {"run", "tensor_scatter_nd_max", "--help"},
      {"run", "boolean_mask_update", "--help"},
      {"run", "substr", "--help"},
      {"bench", "--help"}};
  for (const auto& c : commands) {
    const Result r = run(c);
    EXPECT_EQ(r.status, 0) << c[0] << " " << r.err;
    EXPECT_NE(r.out.find("usage: tensorbuf"), std::string::npos) << c[0];
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

TEST_F(Cli, UsageErrorsAreInvalidArgumentExit2) {
  const std::string t = save("t.npy", i32({1, 1, 1}, {3}));
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "tensorbuf <command>"},
      {{"frobnicate"}, "InvalidArgument: unknown command"},
      {{"run"}, "InvalidArgument: tensorbuf run needs an op"},
      {{"run", "tensor_scatter_nd_mul"}, "InvalidArgument: unknown op"},
      {{"run", "substr", "--bogus", "x"}, "InvalidArgument: unknown flag '--bogus'"},
      {{"run", "tensor_scatter_nd_sub", "--tensor", t, "--indices", t, "--updates", t},
       "InvalidArgument: missing flag '--out'"},
      {{"run", "tensor_scatter_nd_sub", "--tensor"},
       "InvalidArgument: flag '--tensor' needs a value"},
      {{"run", "boolean_mask_update", "--tensor", t, "--mask", t, "--updates", t, "--axis", "one",
        "--out", path("o.npy")},
       "InvalidArgument: --axis must be an integer"},
      {{"run", "substr", "--input", t, "--pos", t, "--len", t, "--unit", "rune", "--out",
        path("o.npy")},
       "InvalidArgument: --unit must be byte or utf8_char"},
      {{"run", "substr", "--input", t, "--pos", t, "--len", t, "--out-of-bounds", "wrap", "--out",
        path("o.npy")},
       "InvalidArgument: --out-of-bounds must be"},
      {{"run", "tensor_scatter_nd_add", "--tensor", t, "--indices", t, "--updates", t, "--device",
        "tpu", "--out", path("o.npy")},
       "InvalidArgument: --device must be cpu or cuda"},
      {{"bench", "--device", "gpu"}, "InvalidArgument: --device must be cpu, cuda or all"},
      {{"info", "extra"}, "InvalidArgument: unexpected argument 'extra'"},
  };
  for (const auto& [args, prefix] : cases) {
    const Result r = run(args);
    EXPECT_EQ(r.status, 2) << prefix << " / " << r.err;
    if (args.empty()) {
      EXPECT_NE(r.err.find(prefix), std::string::npos) << r.err;
    } else {
      expect_error_line(r, prefix);
    }
  }
  EXPECT_FALSE(fs::exists(path("o.npy")));
}

TEST_F(Cli, ExamplesMatchTheDocumentedResults) {
  const Result r = run({"examples"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all match the documented results"), std::string::npos) << r.out;
  for (const char* id : {"TB1 [cpu]", "TB21 [cpu]", "T1 [cpu]", "T23 [cpu]", "B1/1 [cpu]",
                         "B16 [cpu]", "S1 [cpu]", "S18 [cpu]"}) {
    EXPECT_NE(r.out.find(id), std::string::npos) << id;
  }
  EXPECT_NE(r.out.find("T1 [cpu] sub(ones([8], int32), [[4],[3],[1],[7]], [9,10,11,12]) -> "
                       "[1,-10,1,-9,-8,1,1,-11]\n"),
            std::string::npos);
  if (cuda_available()) {
    EXPECT_NE(r.out.find("T1 [cuda:0]"), std::string::npos);
  }
}

TEST_F(Cli, ExamplesOnlyFiltersById) {
  const Result r = run({"examples", "--only", "TB1", "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("TB1 [cpu]"), std::string::npos);
  EXPECT_EQ(r.out.find("T1 [cpu]"), std::string::npos);
}

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

// Every malformed or unsupported .npy file of tests/data/npy: exit 2, one InvalidArgument line
// on stderr, no output file.
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

TEST_F(Cli, CudaWhereUnusableIsUnavailableExit1) {
  if (cuda_available()) GTEST_SKIP() << "CUDA is usable here";
  const std::string t = save("t.npy", i32({1, 2}, {2}));
  const std::string i = save("i.npy", i32({0}, {1, 1}));
  const std::string u = save("u.npy", i32({1}, {1}));
  const Result r = run({"run", "tensor_scatter_nd_add", "--tensor", t, "--indices", i, "--updates",
                        u, "--device", "cuda", "--out", path("o.npy")});
  EXPECT_EQ(r.status, 1);
  expect_error_line(r, "Unavailable: ");
  EXPECT_FALSE(fs::exists(path("o.npy")));
}

// Each op through the CLI on CUDA, with exact results (skips where CUDA is unusable).
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

TEST_F(Cli, BenchQuickWritesJson) {
#if TENSORBUF_CLI_HAS_BENCH
  const Result r = run({"bench", "--quick", "--device", "cpu", "--filter", "load_array_f32_to_u8",
                        "--json", path("bench.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("load_array_f32_to_u8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ratio"), std::string::npos);
  const std::string json = read_text(path("bench.json"));
  for (const char* key : {"\"case\": \"load_array_f32_to_u8\"", "\"device\": \"cpu\"",
                          "\"bytes\": ", "\"seconds\": ", "\"gbps\": ", "\"ratio_to_limit\": "}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
  }
  EXPECT_EQ(json.front(), '[');
#else
  const Result r = run({"bench", "--quick"});
  EXPECT_EQ(r.status, 1);
  expect_error_line(r, "Unavailable: benchmarks are not built");
#endif
}

// Without a usable GPU the CUDA cases are summed up in one line that says why they were
// skipped, not one line per case; the JSON keeps one "skipped" entry per case.
TEST_F(Cli, BenchSkippedCudaCasesAreOneLine) {
#if TENSORBUF_CLI_HAS_BENCH
  if (cuda_available()) GTEST_SKIP() << "CUDA is usable here: no case is skipped";
  const Result r = run({"bench", "--quick", "--device", "cuda", "--filter", "sync_",
                        "--json", path("bench.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string reason = cuda_availability_reason();
  ASSERT_FALSE(reason.empty());
  std::size_t count = 0;
  for (std::size_t at = r.out.find(reason); at != std::string::npos;
       at = r.out.find(reason, at + reason.size())) {
    ++count;
  }
  EXPECT_EQ(count, 1u) << r.out;
  EXPECT_NE(r.out.find("cuda: 2 cases skipped: CUDA unavailable: " + reason + "\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("sync_host_to_device_1gib"), std::string::npos) << r.out;
  const std::string json = read_text(path("bench.json"));
  for (const char* name : {"sync_host_to_device_1gib", "sync_device_to_host_1gib"}) {
    EXPECT_NE(json.find(std::string("{\"case\": \"") + name +
                        "\", \"device\": \"cuda\", \"skipped\": \"CUDA unavailable: "),
              std::string::npos)
        << name << " in " << json;
  }
#else
  GTEST_SKIP() << "benchmarks are not built in";
#endif
}

}  // namespace
}  // namespace tensorbuf
