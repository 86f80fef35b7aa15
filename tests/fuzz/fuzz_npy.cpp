// Fuzzes the .npy reader: parse_npy on arbitrary bytes either returns a valid TensorBuffer /
// StringTensor or throws InvalidArgumentError (any other exception escapes and libFuzzer
// reports it). A parsed array round-trips through serialize_npy + parse_npy to the same dtype,
// shape and bytes (bool compared as truth values: the writer stores 0/1), with several writer
// options (little/big endian, format versions 1-3).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tensorbuf/npy.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_npy: %s\n", what);
  std::abort();
}

std::vector<std::uint8_t> bytes_of(const TensorBuffer& t) {
  const auto* p = static_cast<const std::uint8_t*>(t.host_bytes());
  if (t.size_bytes() == 0) return {};
  return std::vector<std::uint8_t>(p, p + t.size_bytes());
}

void check_tensor_valid(const TensorBuffer& t) {
  if (t.flat_size() != t.shape().num_elements()) fail("flat_size differs from the shape's count");
  if (t.size_bytes() != static_cast<std::size_t>(t.flat_size()) * type_size(t.data_type())) {
    fail("size_bytes differs from count * type size");
  }
  (void)bytes_of(t);  // ASan: every byte of the host copy is readable
}

void check_strings_valid(const StringTensor& s) {
  const std::vector<std::string> all = s.to_strings();
  if (static_cast<std::int64_t>(all.size()) != s.size()) fail("to_strings count differs");
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < s.size(); ++i) {
    const std::string_view v = s.at(i);
    if (v != all[static_cast<std::size_t>(i)]) fail("at(i) differs from to_strings()[i]");
    if (!v.empty() && v.back() == '\0') fail("a parsed string kept a trailing NUL");
    total += static_cast<std::int64_t>(v.size());
  }
  if (total != s.num_chars()) fail("string bytes do not add up to the chars size");
}

void round_trip(const TensorBuffer& t, const NpyReadOptions& read_options) {
  for (int variant = 0; variant < 3; ++variant) {
    NpyWriteOptions w;
    w.bfloat16_as_uint16 = t.data_type() == DataType::kBFloat16;
    w.big_endian = variant == 1;
    w.format_version = variant == 2 ? 3 : variant;  // 0 (auto), 1, 3
    const std::vector<std::byte> file = serialize_npy(t, w);
    NpyReadOptions r = read_options;
    r.uint16_as_bfloat16 = t.data_type() == DataType::kBFloat16;
    NpyArray back = parse_npy(std::span<const std::byte>(file), r);
    auto* b = std::get_if<TensorBuffer>(&back);
    if (b == nullptr) fail("a tensor came back as strings");
    if (b->data_type() != t.data_type()) fail("round trip changed the dtype");
    if (b->shape() != t.shape()) fail("round trip changed the shape");
    std::vector<std::uint8_t> x = bytes_of(t), y = bytes_of(*b);
    if (t.data_type() == DataType::kBool) {
      for (auto& v : x) v = v != 0;
      for (auto& v : y) if (v > 1) fail("a written bool byte is neither 0 nor 1");
    }
    if (x != y) fail("round trip changed the bytes");
  }
}

void round_trip(const StringTensor& s) {
  for (int variant = 0; variant < 2; ++variant) {
    NpyWriteOptions w;
    w.format_version = variant == 0 ? 0 : 2;
    const std::vector<std::byte> file = serialize_npy(s, w);
    NpyArray back = parse_npy(std::span<const std::byte>(file));
    auto* b = std::get_if<StringTensor>(&back);
    if (b == nullptr) fail("strings came back as a tensor");
    if (b->shape() != s.shape()) fail("round trip changed the string shape");
    if (b->to_strings() != s.to_strings()) fail("round trip changed the strings");
  }
}

void one(std::span<const std::byte> input, bool u2_as_bf16) {
  NpyReadOptions options;
  options.uint16_as_bfloat16 = u2_as_bf16;
  std::optional<NpyArray> result;
  try {
    result.emplace(parse_npy(input, options));
  } catch (const InvalidArgumentError&) {
    return;
  }
  NpyArray& parsed = *result;
  // The typed readers agree with parse_npy: one returns the same array, the other refuses.
  const bool is_tensor = std::holds_alternative<TensorBuffer>(parsed);
  try {
    TensorBuffer t = parse_npy_tensor(input, options);
    if (!is_tensor) fail("parse_npy_tensor accepted a string array");
    const auto& p = std::get<TensorBuffer>(parsed);
    if (t.data_type() != p.data_type() || t.shape() != p.shape() || bytes_of(t) != bytes_of(p)) {
      fail("parse_npy_tensor differs from parse_npy");
    }
  } catch (const InvalidArgumentError&) {
    if (is_tensor) fail("parse_npy_tensor refused a numeric array");
  }
  if (!options.uint16_as_bfloat16) {
    try {
      StringTensor s = parse_npy_strings(input);
      if (is_tensor) fail("parse_npy_strings accepted a numeric array");
      const auto& p = std::get<StringTensor>(parsed);
      if (s.shape() != p.shape() || s.to_strings() != p.to_strings()) {
        fail("parse_npy_strings differs from parse_npy");
      }
    } catch (const InvalidArgumentError&) {
      if (!is_tensor) fail("parse_npy_strings refused a string array");
    }
  }
  if (auto* t = std::get_if<TensorBuffer>(&parsed)) {
    if (t->data_type() == DataType::kBFloat16 && !u2_as_bf16) fail("bfloat16 without the option");
    check_tensor_valid(*t);
    round_trip(*t, options);
  } else {
    const StringTensor& s = std::get<StringTensor>(parsed);
    check_strings_valid(s);
    round_trip(s);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Copy into a buffer of exactly `size` bytes so ASan sees any read past the end.
  std::vector<std::byte> copy(size);
  if (size != 0) std::memcpy(copy.data(), data, size);
  const std::span<const std::byte> input(copy);
  one(input, false);
  one(input, true);
  return 0;
}
