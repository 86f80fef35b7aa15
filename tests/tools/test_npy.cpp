// .npy reading and writing (include/tensorbuf/npy.hpp, docs/npy.md), against files written by
// NumPy itself (tests/data/npy/make_fixtures.py).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

namespace fs = std::filesystem;

fs::path fixture(const std::string& name) {
  return fs::path(TENSORBUF_TEST_DATA_DIR) / "npy" / name;
}

std::vector<std::byte> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  std::memcpy(out.data(), chars.data(), chars.size());
  return out;
}

// A fresh empty directory for files a test writes.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("tensorbuf_test_npy_" + std::to_string(::getpid()) + "_" + std::to_string(next_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path().filename().string());
    return out;
  }

 private:
  static inline int next_ = 0;
  fs::path path_;
};

// Expects InvalidArgumentError whose message contains `needle`.
#define EXPECT_INVALID(statement, needle)                                              \
  do {                                                                                 \
    try {                                                                              \
      statement;                                                                       \
      ADD_FAILURE() << #statement " did not throw";                                    \
    } catch (const InvalidArgumentError& e) {                                          \
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)                 \
          << "message: " << e.what();                                                  \
    }                                                                                  \
  } while (0)

const std::vector<float> kFloats = {0.0f, 1.5f, -2.25f, 1000.0f, INFINITY, -0.0f};
const std::vector<float> kInts = {0, 1, -2, 3, 100, -100};
const std::vector<float> kUInts = {0, 1, 2, 3, 200, 255};
const std::vector<float> kBools = {1, 0, 1, 1, 0, 0};

struct DtypeCase {
  const char* code;
  DataType type;
  const std::vector<float>* values;
};
const DtypeCase kDtypes[] = {
    {"b1", DataType::kBool, &kBools},      {"u1", DataType::kUInt8, &kUInts},
    {"i1", DataType::kInt8, &kInts},       {"i2", DataType::kInt16, &kInts},
    {"i4", DataType::kInt32, &kInts},      {"i8", DataType::kInt64, &kInts},
    {"f2", DataType::kFloat16, &kFloats},  {"f4", DataType::kFloat32, &kFloats},
    {"f8", DataType::kFloat64, &kFloats},
};

TEST(NpyRead, EveryDtypeInBothByteOrders) {
  for (const DtypeCase& c : kDtypes) {
    for (const char* order : {"le", "be"}) {
      SCOPED_TRACE(std::string(c.code) + "_" + order);
      TensorBuffer t = load_npy_tensor(fixture(std::string(c.code) + "_" + order + ".npy"));
      EXPECT_EQ(t.data_type(), c.type);
      EXPECT_EQ(t.shape(), (Shape{2, 3}));
      const std::vector<float> got = t.get_float_array();
      ASSERT_EQ(got.size(), 6u);
      for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(got[i], (*c.values)[i]) << "element " << i;
      if (c.type == DataType::kFloat32) {
        EXPECT_TRUE(std::signbit(got[5]));  // -0.0 kept
      }
    }
  }
}

TEST(NpyRead, FormatVersions1To3) {
  for (const char* name : {"f4_v1.npy", "f4_v2.npy", "f4_v3.npy"}) {
    SCOPED_TRACE(name);
    TensorBuffer t = load_npy_tensor(fixture(name));
    EXPECT_EQ(t.shape(), (Shape{2, 3}));
    EXPECT_EQ(t.get_float_array(), kFloats);
  }
}

TEST(NpyRead, ZeroDArrayIsAScalar) {
  TensorBuffer d = load_npy_tensor(fixture("scalar_f8.npy"));
  EXPECT_EQ(d.shape(), Shape{});
  EXPECT_EQ(d.flat_size(), 1);
  EXPECT_EQ(d.get_float_value(0), 2.5f);
  TensorBuffer i = load_npy_tensor(fixture("scalar_i4.npy"));
  EXPECT_EQ(i.data_type(), DataType::kInt32);
  EXPECT_EQ(i.shape(), Shape{});
  EXPECT_EQ(i.get_int_value(0), -7);
}

TEST(NpyRead, EmptyArrayKeepsItsShape) {
  TensorBuffer t = load_npy_tensor(fixture("empty_f4.npy"));
  EXPECT_EQ(t.shape(), (Shape{0, 3}));
  EXPECT_EQ(t.flat_size(), 0);
}

TEST(NpyRead, NaNStaysNaN) {
  TensorBuffer t = load_npy_tensor(fixture("nan_f4.npy"));
  const std::vector<float> v = t.get_float_array();
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], 1.0f);
}

// np.save writes a transposed (F-contiguous) array in Fortran order: rejected like any other.
TEST(NpyRead, TransposedArraySavedByNumPyIsFortranOrder) {
  EXPECT_INVALID(load_npy(fixture("transposed_i4.npy")), "np.ascontiguousarray");
}

TEST(NpyRead, UnusualButValidHeader) {
  TensorBuffer t = load_npy_tensor(fixture("reordered_keys.npy"));
  EXPECT_EQ(t.data_type(), DataType::kInt16);
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.get_int_array(), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(NpyRead, BytesAfterTheDataAreIgnoredAsNumPyDoes) {
  TensorBuffer t = load_npy_tensor(fixture("trailing_bytes.npy"));
  EXPECT_EQ(t.shape(), Shape{6});
  EXPECT_EQ(t.get_float_array(), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST(NpyRead, MemoryAndFileGiveTheSameArray) {
  const std::vector<std::byte> bytes = read_bytes(fixture("i2_be.npy"));
  TensorBuffer a = parse_npy_tensor(bytes);
  TensorBuffer b = load_npy_tensor(fixture("i2_be.npy"));
  EXPECT_EQ(a.shape(), b.shape());
  EXPECT_EQ(a.get_int_array(), b.get_int_array());
}

TEST(NpyRead, ByteStringsWithTrailingNulsStripped) {
  StringTensor s = load_npy_strings(fixture("strings.npy"));
  EXPECT_EQ(s.shape(), (Shape{2, 3}));
  const std::vector<std::string> expected = {"Hello", "", std::string("a\0b", 3),
                                             "xyz", "\xc3\xa9", "longer string"};
  EXPECT_EQ(s.to_strings(), expected);
  NpyArray any = load_npy(fixture("strings.npy"));
  EXPECT_TRUE(std::holds_alternative<StringTensor>(any));
}

TEST(NpyRead, ZeroDByteStringIsAScalar) {
  StringTensor s = load_npy_strings(fixture("strings_scalar.npy"));
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.to_strings(), std::vector<std::string>{"Hi"});
  StringTensor e = load_npy_strings(fixture("strings_empty.npy"));
  EXPECT_EQ(e.shape(), Shape{0});
}

TEST(NpyRead, NumericAndStringEntryPointsCheckTheKind) {
  EXPECT_INVALID(load_npy_tensor(fixture("strings.npy")), "expected a numeric array");
  EXPECT_INVALID(load_npy_strings(fixture("f4_le.npy")), "expected a byte-string");
}

TEST(NpyRead, Uint16IsBFloat16OnlyWhenAsked) {
  EXPECT_INVALID(load_npy_tensor(fixture("bf16_bits_u2.npy")), "uint16_as_bfloat16");
  TensorBuffer t = load_npy_tensor(fixture("bf16_bits_u2.npy"), {.uint16_as_bfloat16 = true});
  EXPECT_EQ(t.data_type(), DataType::kBFloat16);
  EXPECT_EQ(t.get_float_array(), (std::vector<float>{1.0f, 2.0f, -3.0f}));
}

TEST(NpyRead, RejectsFortranOrder) {
  EXPECT_INVALID(load_npy(fixture("fortran.npy")), "Fortran-order");
}

TEST(NpyRead, RejectsUnsupportedDtypes) {
  EXPECT_INVALID(load_npy(fixture("object.npy")), "object arrays");
  EXPECT_INVALID(load_npy(fixture("unicode.npy")), "unicode");
  EXPECT_INVALID(load_npy(fixture("structured.npy")), "structured");
  EXPECT_INVALID(load_npy(fixture("complex.npy")), "complex");
  EXPECT_INVALID(load_npy(fixture("uint32.npy")), "'<u4'");
}

TEST(NpyRead, RejectsTruncatedFiles) {
  EXPECT_INVALID(load_npy(fixture("truncated.npy")), "need 24 data bytes, but only 19");
  EXPECT_INVALID(load_npy(fixture("truncated_header.npy")), "truncated file: the header claims");
  EXPECT_INVALID(load_npy(fixture("truncated_preamble.npy")), "too short");
  EXPECT_INVALID(parse_npy({}), "too short");
}

TEST(NpyRead, RejectsLyingHeaders) {
  EXPECT_INVALID(load_npy(fixture("lying_shape.npy")), "need 4000 data bytes, but only 24");
  EXPECT_INVALID(load_npy(fixture("huge_dims.npy")), "more elements than int64");
  EXPECT_INVALID(load_npy(fixture("huge_bytes.npy")), "more bytes than int64");
  EXPECT_INVALID(load_npy(fixture("huge_dim_digits.npy")), "does not fit in int64");
  EXPECT_INVALID(load_npy(fixture("huge_strings.npy")), "but only 3 follow");
  EXPECT_INVALID(load_npy(fixture("huge_itemsize.npy")), "but only 3 follow");
  EXPECT_INVALID(load_npy(fixture("negative_dim.npy")), "negative dimension");
  EXPECT_INVALID(load_npy(fixture("header_length_lies.npy")), "the header claims 60000 bytes");
  EXPECT_INVALID(load_npy(fixture("v2_header_length_lies.npy")), "the header claims");
}

TEST(NpyRead, RejectsMalformedHeaders) {
  EXPECT_INVALID(load_npy(fixture("non_ascii.npy")), "non-ASCII byte 0xc3");
  EXPECT_INVALID(load_npy(fixture("unterminated.npy")), "unterminated dict");
  EXPECT_INVALID(load_npy(fixture("unterminated_string.npy")), "expected ',' or '}'");
  EXPECT_INVALID(load_npy(fixture("missing_key.npy")), "'fortran_order' is missing");
  EXPECT_INVALID(load_npy(fixture("extra_key.npy")), "unexpected key 'extra'");
  EXPECT_INVALID(load_npy(fixture("shape_not_tuple.npy")), "not a tuple");
  EXPECT_INVALID(load_npy(fixture("not_a_dict.npy")), "expected '{'");
  EXPECT_INVALID(load_npy(fixture("bad_magic.npy")), "magic string");
  EXPECT_INVALID(load_npy(fixture("bad_version.npy")), "version 4.0");
}

TEST(NpyRead, RejectsPathsThatAreNotReadableFiles) {
  EXPECT_INVALID(load_npy(fixture("does_not_exist.npy")), "No such file");
  EXPECT_INVALID(load_npy(fs::path(TENSORBUF_TEST_DATA_DIR)), "is a directory");
}

// Writing what was read gives NumPy's own bytes back: same header text, padding and data.
TEST(NpyWrite, ByteIdenticalToNumPy) {
  for (const DtypeCase& c : kDtypes) {
    for (bool big : {false, true}) {
      const std::string name = std::string(c.code) + (big ? "_be.npy" : "_le.npy");
      SCOPED_TRACE(name);
      TensorBuffer t = load_npy_tensor(fixture(name));
      EXPECT_EQ(serialize_npy(t, {.big_endian = big}), read_bytes(fixture(name)));
    }
  }
  for (int version : {1, 2, 3}) {
    const std::string name = "f4_v" + std::to_string(version) + ".npy";
    TensorBuffer t = load_npy_tensor(fixture(name));
    EXPECT_EQ(serialize_npy(t, {.format_version = version}), read_bytes(fixture(name))) << name;
  }
  for (const char* name : {"scalar_f8.npy", "empty_f4.npy", "nan_f4.npy"}) {
    EXPECT_EQ(serialize_npy(load_npy_tensor(fixture(name))), read_bytes(fixture(name))) << name;
  }
  for (const char* name : {"strings.npy", "strings_scalar.npy"}) {
    EXPECT_EQ(serialize_npy(load_npy_strings(fixture(name))), read_bytes(fixture(name))) << name;
  }
}

TEST(NpyWrite, BoolIsWrittenAsZeroOrOne) {
  const std::byte raw[3] = {std::byte{0}, std::byte{2}, std::byte{255}};
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kBool);
  t.load_buffer(raw, Shape{3});
  TensorBuffer back = parse_npy_tensor(serialize_npy(t));
  const auto* b = back.host<std::uint8_t>();
  EXPECT_EQ(b[0], 0);
  EXPECT_EQ(b[1], 1);
  EXPECT_EQ(b[2], 1);
}

TEST(NpyWrite, BFloat16OnlyAsUint16WhenAsked) {
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kBFloat16);
  t.load_array(std::vector<float>{1.0f, -3.0f}, Shape{2});
  EXPECT_INVALID(serialize_npy(t), "bfloat16_as_uint16");
  const std::vector<std::byte> bytes = serialize_npy(t, {.bfloat16_as_uint16 = true});
  EXPECT_INVALID(parse_npy(bytes), "uint16");
  TensorBuffer back = parse_npy_tensor(bytes, {.uint16_as_bfloat16 = true});
  EXPECT_EQ(back.get_float_array(), (std::vector<float>{1.0f, -3.0f}));
}

TEST(NpyWrite, RoundTripEveryDtypeOrderAndVersion) {
  const std::vector<float> values = {0, 1, -1, 127.5f, -128, 3e4f, 0.25f};
  for (DataType type : {DataType::kBool, DataType::kUInt8, DataType::kInt8, DataType::kInt16,
                        DataType::kInt32, DataType::kInt64, DataType::kFloat16,
                        DataType::kBFloat16, DataType::kFloat32, DataType::kFloat64}) {
    for (bool big : {false, true}) {
      for (int version : {0, 1, 2, 3}) {
        SCOPED_TRACE(std::string(to_string(type)) + (big ? " big" : " little") + " v" +
                     std::to_string(version));
        TensorBuffer t = TensorBuffer::create_dynamic(type);
        t.load_array(values, Shape{7, 1});
        const std::vector<std::byte> bytes = serialize_npy(
            t, {.bfloat16_as_uint16 = true, .big_endian = big, .format_version = version});
        EXPECT_EQ(bytes.size() % 64, (t.size_bytes()) % 64);  // header padded to 64
        TensorBuffer back = parse_npy_tensor(bytes, {.uint16_as_bfloat16 = true});
        EXPECT_EQ(back.data_type(), type);
        EXPECT_EQ(back.shape(), (Shape{7, 1}));
        EXPECT_EQ(back.get_float_array(), t.get_float_array());
      }
    }
  }
}

TEST(NpyWrite, RejectsAnUnknownFormatVersion) {
  TensorBuffer t = TensorBuffer::create_fixed_size(Shape{1}, DataType::kFloat32);
  EXPECT_INVALID(serialize_npy(t, {.format_version = 4}), "format_version");
  TempDir dir;
  EXPECT_INVALID(save_npy(dir / "x.npy", t, {.format_version = 4}), "format_version");
  EXPECT_TRUE(dir.entries().empty());
}

TEST(NpyWrite, LongHeaderNeedsVersion2) {
  std::vector<std::int64_t> dims(25000, 1);
  TensorBuffer t = TensorBuffer::create_fixed_size(Shape(dims), DataType::kUInt8);
  const std::vector<std::byte> bytes = serialize_npy(t);
  EXPECT_EQ(std::to_integer<int>(bytes[6]), 2);  // picked automatically
  EXPECT_EQ(parse_npy_tensor(bytes).shape(), Shape(dims));
  EXPECT_INVALID(serialize_npy(t, {.format_version = 1}), "version 2.0");
}

TEST(NpyWrite, StringsAsDtypeSOfTheLongestLength) {
  StringTensor s = StringTensor::from_strings(std::vector<std::string>{"a", "", "abc"}, Shape{3});
  const std::vector<std::byte> bytes = serialize_npy(s);
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  EXPECT_NE(text.find("'descr': '|S3'"), std::string::npos);
  EXPECT_EQ(parse_npy_strings(bytes).to_strings(), (std::vector<std::string>{"a", "", "abc"}));
  StringTensor empty = StringTensor::from_strings(std::vector<std::string>{}, Shape{0});
  EXPECT_EQ(parse_npy_strings(serialize_npy(empty)).shape(), Shape{0});
}

TEST(NpySave, WritesAFileThatReadsBack) {
  TempDir dir;
  TensorBuffer t = load_npy_tensor(fixture("i8_le.npy"));
  save_npy(dir / "out.npy", t);
  EXPECT_EQ(read_bytes(dir / "out.npy"), read_bytes(fixture("i8_le.npy")));
  // Overwrites an existing file; leaves no temporary file behind.
  save_npy(dir / "out.npy", load_npy_tensor(fixture("scalar_f8.npy")));
  EXPECT_EQ(load_npy_tensor(dir / "out.npy").shape(), Shape{});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.npy"});
  StringTensor s = load_npy_strings(fixture("strings.npy"));
  save_npy(dir / "s.npy", s);
  EXPECT_EQ(read_bytes(dir / "s.npy"), read_bytes(fixture("strings.npy")));
}

TEST(NpySave, FailureLeavesNoFile) {
  TempDir dir;
  TensorBuffer t = TensorBuffer::create_fixed_size(Shape{2}, DataType::kFloat32);
  EXPECT_INVALID(save_npy(dir / "missing" / "out.npy", t), "cannot create");
  TensorBuffer bf = TensorBuffer::create_fixed_size(Shape{2}, DataType::kBFloat16);
  EXPECT_INVALID(save_npy(dir / "bf.npy", bf), "bfloat16");
  fs::create_directories(dir / "a_directory");
  EXPECT_INVALID(save_npy(dir / "a_directory", t), "cannot create");
  std::vector<std::string> entries = dir.entries();
  EXPECT_EQ(entries, std::vector<std::string>{"a_directory"});
}

// Random corruptions of valid files: every outcome is an array or a tensorbuf::Error, never a
// crash, a hang, std::bad_alloc or a sanitizer report. Case count: TENSORBUF_RANDOM_CASES.
TEST(NpyFuzz, CorruptedFilesNeverCrash) {
  int cases = 300;
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) cases = std::max(20, std::atoi(env));
  std::vector<std::vector<std::byte>> seeds;
  for (const char* name : {"f4_le.npy", "i2_be.npy", "strings.npy", "f4_v2.npy", "f4_v3.npy",
                           "scalar_f8.npy", "b1_le.npy", "bf16_bits_u2.npy"}) {
    seeds.push_back(read_bytes(fixture(name)));
  }
  std::mt19937_64 rng(12345);
  int parsed = 0;
  for (int c = 0; c < cases; ++c) {
    std::vector<std::byte> bytes = seeds[rng() % seeds.size()];
    const int edits = static_cast<int>(rng() % 4);  // some cases stay valid and must parse
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = bytes.empty() ? 0 : rng() % bytes.size();
      switch (rng() % 4) {
        case 0:  // flip a byte (biased to the header)
          if (!bytes.empty()) bytes[at % std::min<std::size_t>(bytes.size(), 128)] = std::byte(rng());
          break;
        case 1:  // truncate
          bytes.resize(at);
          break;
        case 2:  // a digit into the header (bigger dims, lengths)
          if (!bytes.empty()) bytes[at % std::min<std::size_t>(bytes.size(), 128)] = std::byte('0' + rng() % 10);
          break;
        default:  // insert a byte
          bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), std::byte(rng()));
      }
    }
    try {
      NpyArray a = parse_npy(bytes, {.uint16_as_bfloat16 = (c % 2) == 0});
      ++parsed;
    } catch (const Error&) {
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace tensorbuf
