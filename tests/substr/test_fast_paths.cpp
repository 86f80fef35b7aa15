// substr's CPU fast paths (docs/substr.md, "CPU fast paths") against an independent serial
// reference: the AVX-512 UTF-8 paths (when the CPU has them: one masked load for strings below
// 64 bytes, 64-byte blocks above) and the portable path (forced with
// cpu::set_simd_enabled(false)), and the 16/32-byte copies of pass 2. Every string
// length 0..72 and lengths around 64-byte block ends up to 300, multi-byte and invalid UTF-8,
// strings at both ends of a chars buffer of exactly their bytes (caller memory, so ASan sees any
// read outside it), every pos from -size-2 to size+2, both units, both policies, int32 and int64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/plan_substr.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/substr_tuning.hpp"
#include "substr/helpers.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using Strings = std::vector<std::string>;

// ---- inputs in caller memory of exactly their bytes ----------------------------------------

// Keeps the chars alive (the tensor references them) and exactly sized: no slack after the
// last string, so any read past it is a heap overflow under ASan.
struct ExactStrings {
  std::unique_ptr<std::uint8_t[]> bytes;
  StringTensor tensor;
};

ExactStrings exact_strings(const Strings& values, const Shape& shape) {
  std::int64_t total = 0;
  for (const std::string& v : values) total += static_cast<std::int64_t>(v.size());
  ExactStrings out;
  out.bytes.reset(new std::uint8_t[static_cast<std::size_t>(std::max<std::int64_t>(total, 1))]);
  TensorBuffer offsets = TensorBuffer::create_fixed_size(
      Shape{static_cast<std::int64_t>(values.size()) + 1}, DataType::kInt64);
  auto* off = offsets.mutable_host<std::int64_t>();
  off[0] = 0;
  std::int64_t at = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::memcpy(out.bytes.get() + at, values[i].data(), values[i].size());
    at += static_cast<std::int64_t>(values[i].size());
    off[i + 1] = at;
  }
  TensorBuffer chars = TensorBuffer::create_dynamic(DataType::kUInt8);
  chars.load_buffer(std::as_bytes(std::span(out.bytes.get(), static_cast<std::size_t>(total))),
                    Shape{total});
  out.tensor = StringTensor::from_buffers(std::move(offsets), std::move(chars), shape);
  return out;
}

// ASCII, NUL, DEL, continuation bytes (0x80, 0xA9, 0xBF), lead bytes (0xC0, 0xC3, 0xE2, 0xF0)
// and 0xFF: valid and invalid UTF-8.
std::string random_string(std::mt19937_64& rng, std::size_t size) {
  static const unsigned char kBytes[] = {'a',  'Z',  '0',  0x00, 0x7F, 0x80, 0xA9,
                                         0xBF, 0xC0, 0xC3, 0xE2, 0xF0, 0xFF};
  std::string s;
  const int style = static_cast<int>(rng() % 4);
  while (s.size() < size) {
    if (style == 0) {  // ASCII
      s.push_back(static_cast<char>('a' + rng() % 26));
    } else if (style == 1) {  // valid UTF-8, 1-4 byte characters (cut at size)
      static const char* kChars[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
      s += kChars[rng() % 4];
    } else {  // any of the bytes above
      s.push_back(static_cast<char>(kBytes[rng() % sizeof kBytes]));
    }
  }
  s.resize(size);
  return s;
}

struct Mode {
  bool utf8;
  bool simd;
  DataType type;
  bool wide = false;  // the element records of inputs of 2^31+ bytes (cpu/substr_tuning.hpp)
};

std::vector<Mode> modes() {
  std::vector<Mode> out;
  for (bool utf8 : {false, true}) {
    for (bool simd : {true, false}) {
      if (simd && !cpu_code_paths().substr_avx512) continue;
      for (DataType type : {DataType::kInt32, DataType::kInt64}) out.push_back({utf8, simd, type});
      out.push_back({utf8, simd, DataType::kInt64, true});
    }
  }
  return out;
}

struct ScopedSimd {
  explicit ScopedSimd(bool on) { cpu::set_simd_enabled(on); }
  ~ScopedSimd() { cpu::set_simd_enabled(true); }
};

struct ScopedWideRecords {
  explicit ScopedWideRecords(bool on) { cpu::set_substr_wide_records(on); }
  ~ScopedWideRecords() { cpu::set_substr_wide_records(false); }
};

// Runs input x (pos, len) (same shapes) under kDrop and kError and checks both against the
// reference.
void check(const ExactStrings& in, const Strings& values, const std::vector<std::int64_t>& pos,
           const std::vector<std::int64_t>& len, const Mode& mode, const std::string& what) {
  const auto n = static_cast<std::int64_t>(pos.size());
  ASSERT_TRUE(values.size() == 1 || static_cast<std::int64_t>(values.size()) == n);
  Strings expected;
  std::int64_t first_bad = -1;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::string& s = values[values.size() == 1 ? 0 : static_cast<std::size_t>(i)];
    const auto r = testing::reference_substr(s, pos[static_cast<std::size_t>(i)],
                                             len[static_cast<std::size_t>(i)], mode.utf8);
    if (!r && first_bad < 0) first_bad = i;
    expected.push_back(r.value_or(""));
  }
  const ScopedSimd simd(mode.simd);
  const ScopedWideRecords wide(mode.wide);
  const Shape shape{static_cast<std::int64_t>(pos.size())};
  const TensorBuffer p = testing::index_buffer(pos, shape, mode.type);
  const TensorBuffer l = testing::index_buffer(len, shape, mode.type);
  SubstrOptions options{.device = Device::cpu(),
                        .unit = mode.utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte,
                        .out_of_bounds = OutOfBoundsPolicy::kDrop};
  const std::string label =
      what + (mode.utf8 ? " utf8" : " byte") + (mode.simd ? " simd" : " portable") +
      (mode.type == DataType::kInt32 ? " int32" : " int64") + (mode.wide ? " wide records" : "");
  ASSERT_EQ(substr(in.tensor, p, l, options).to_strings(), expected) << label;
  options.out_of_bounds = OutOfBoundsPolicy::kError;
  if (first_bad < 0) {
    ASSERT_EQ(substr(in.tensor, p, l, options).to_strings(), expected) << label;
    return;
  }
  try {
    substr(in.tensor, p, l, options);
    FAIL() << "expected InvalidArgumentError: " << label;
  } catch (const InvalidArgumentError& e) {
    const std::string message = e.what();
    const std::string pos_text =
        "pos " + std::to_string(pos[static_cast<std::size_t>(first_bad)]) + " ";
    EXPECT_EQ(message.rfind(pos_text, 0), 0u) << label << ": " << message;
    EXPECT_TRUE(testing::names_element(message, first_bad)) << label << ": " << message;
  }
}

// One string alone in its buffer (it starts and ends the chars), every length 0..72 and the
// lengths around block ends beyond, every pos, lens around the interesting values.
std::vector<std::size_t> tested_lengths() {
  std::vector<std::size_t> sizes;
  for (std::size_t size = 0; size <= 72; ++size) sizes.push_back(size);
  for (std::size_t size : {100, 127, 128, 129, 191, 192, 193, 255, 300}) sizes.push_back(size);
  return sizes;
}

TEST(SubstrFastPaths, EveryLengthAloneInExactBuffer) {
  std::mt19937_64 rng(606);
  for (std::size_t size : tested_lengths()) {
    for (int rep = 0; rep < 4; ++rep) {
      const Strings values{random_string(rng, size)};
      const ExactStrings in = exact_strings(values, Shape{});
      std::vector<std::int64_t> pos;
      std::vector<std::int64_t> len;
      const auto s = static_cast<std::int64_t>(size);
      for (std::int64_t p = -s - 2; p <= s + 2; ++p) {
        for (std::int64_t l :
             {std::int64_t{-2}, std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, std::int64_t{2},
              std::int64_t{3}, std::int64_t{7}, std::int64_t{16}, std::int64_t{63},
              std::int64_t{64}, std::int64_t{65}, s - 1, s, s + 1, std::int64_t{1} << 30}) {
          pos.push_back(p);
          len.push_back(l);
        }
      }
      // Bad positions only at the end, so that kError also returns a full result sometimes.
      for (const Mode& mode : modes()) {
        check(in, values, pos, len, mode, "size " + std::to_string(size));
        std::vector<std::int64_t> good_pos;
        std::vector<std::int64_t> good_len;
        for (std::size_t i = 0; i < pos.size(); ++i) {
          if (pos[i] >= 0 && pos[i] <= 1) {
            good_pos.push_back(pos[i]);
            good_len.push_back(len[i]);
          }
        }
        check(in, values, good_pos, good_len, mode, "good size " + std::to_string(size));
      }
    }
  }
}

// Many strings of 0..400 bytes back to back (the last at the buffer end), several chunks per
// thread, pos/len per string: pass 2's wide copies near chunk and buffer ends.
TEST(SubstrFastPaths, ManyStringsAgreeWithReference) {
  std::mt19937_64 rng(607);
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{70000}}) {
    Strings values;
    std::vector<std::int64_t> pos;
    std::vector<std::int64_t> len;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t kind = rng() % 16;
      const std::size_t size = kind == 0 ? 64 + rng() % 337 : kind < 4 ? rng() % 73 : rng() % 20;
      values.push_back(random_string(rng, size));
      const auto s = static_cast<std::int64_t>(size);
      pos.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * s + 1)) - s);
      len.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(s + 3)) - 1);
    }
    // The last strings: long, taken to their end (wide copies must not pass the buffer end).
    values.back() = std::string(40, 'x');
    pos.back() = 1;
    len.back() = -1;
    const ExactStrings in = exact_strings(values, Shape{n});
    for (const Mode& mode : modes()) check(in, values, pos, len, mode, "n " + std::to_string(n));
    // An out-of-range pos deep in the last chunk: the smallest bad index is named.
    std::vector<std::int64_t> late = pos;
    for (std::int64_t i = 0; i < n; ++i) late[static_cast<std::size_t>(i)] = 0;
    late[static_cast<std::size_t>(n - 1)] = 1000;
    for (const Mode& mode : modes()) check(in, values, late, len, mode, "late bad");
  }
}

// Only empty strings: the chars buffer has no bytes, on both UTF-8 paths and the byte path.
// (The fuzzer found the short UTF-8 path adding a prefetch offset to a null chars pointer; its
// input is kept in tests/fuzz/corpus/substr as regression-null-chars-prefetch.)
TEST(SubstrFastPaths, EmptyStringsWithoutChars) {
  const StringTensor in = StringTensor::from_strings({"", "", ""}, Shape{3});
  const TensorBuffer pos = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  const TensorBuffer len = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  for (bool simd : {true, false}) {
    const ScopedSimd use(simd);
    for (SubstrUnit unit : {SubstrUnit::kUtf8Char, SubstrUnit::kByte}) {
      SubstrOptions options;
      options.unit = unit;
      const StringTensor out = substr(in, pos, len, options);
      ASSERT_EQ(out.size(), 3);
      for (std::int64_t i = 0; i < 3; ++i) EXPECT_EQ(out.at(i), "");
    }
  }
}

}  // namespace
}  // namespace tensorbuf
