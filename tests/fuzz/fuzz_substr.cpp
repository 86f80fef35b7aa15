// Fuzzes substr on the CPU: arbitrary bytes as strings (invalid UTF-8 included), input and
// pos/len shapes that broadcast (or not), int32/int64 pos/len around the string lengths, both
// units and both policies, against a reference written here from spec/substr.md (byte rule;
// UTF-8 rule where a character starts at byte 0 and at every byte outside 0x80..0xBF).
// Output strings must be exact; kError raises InvalidArgumentError naming the first failing
// flat output index (the full message as docs/substr.md formats it); kDrop gives "".
// The chars buffer holds exactly the strings' bytes (no slack), so ASan catches a read past
// the last string. TENSORBUF_FUZZ_BIG=1 adds rare inputs of 32768+ strings (several CPU chunks).
// Valid calls also run the CUDA backend's driver on the CPU (kernels::HostExecutor), with one
// thread per string and with kLanes per string, against the same reference.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/input.hpp"
#include "substr/helpers.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;
using namespace tensorbuf::fuzz;
using Dims = std::vector<std::int64_t>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_substr: %s\n", what.c_str());
  std::abort();
}

// Python's repr() of a bytes object, first 64 bytes, then "..." when longer.
std::string py_repr(const std::string& s) {
  const std::string head = s.size() > 64 ? s.substr(0, 64) : s;
  const bool dq = head.find('\'') != std::string::npos && head.find('"') == std::string::npos;
  const char quote = dq ? '"' : '\'';
  std::string out = "b";
  out += quote;
  for (unsigned char c : head) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == static_cast<unsigned char>(quote)) { out += '\\'; out += static_cast<char>(c); }
    else if (c < 0x20 || c > 0x7e) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else out += static_cast<char>(c);
  }
  out += quote;
  if (s.size() > 64) out += "...";
  return out;
}

// NumPy broadcast of two shapes; nullopt when incompatible.
std::optional<Dims> broadcast_shapes(const Dims& a, const Dims& b) {
  const std::size_t r = std::max(a.size(), b.size());
  Dims out(r);
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const std::int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// Flat index into `from` (broadcast to `out`) of the output's flat index `i`.
std::int64_t source_index(const Dims& from, const Dims& out, std::int64_t i) {
  std::int64_t index = 0, stride = 1;
  const std::size_t shift = out.size() - from.size();
  for (std::size_t k = out.size(); k-- > 0;) {
    const std::int64_t c = i % out[k];
    i /= out[k];
    if (k >= shift) {
      const std::int64_t d = from[k - shift];
      if (d != 1) index += c * stride;
      stride *= d;
    }
  }
  return index;
}

// The reference substring; nullopt when pos is out of range.
std::optional<std::string> reference(const std::string& s, std::int64_t pos, std::int64_t len,
                                     bool utf8) {
  const auto size = static_cast<std::int64_t>(s.size());
  if (!utf8) {
    const std::int64_t p = pos < 0 ? size + pos : pos;
    if (p < 0 || p > size) return std::nullopt;
    const std::int64_t n = len < 0 ? size - p : std::min(len, size - p);
    return s.substr(static_cast<std::size_t>(p), static_cast<std::size_t>(n));
  }
  std::vector<std::int64_t> starts;
  for (std::int64_t i = 0; i < size; ++i) {
    const auto c = static_cast<unsigned char>(s[static_cast<std::size_t>(i)]);
    if (i == 0 || c < 0x80 || c > 0xbf) starts.push_back(i);
  }
  const auto nchars = static_cast<std::int64_t>(starts.size());
  starts.push_back(size);
  const std::int64_t p = pos < 0 ? nchars + pos : pos;
  if (p < 0 || p > nchars) return std::nullopt;
  const std::int64_t n = len < 0 ? nchars - p : std::min(len, nchars - p);
  const std::int64_t begin = starts[static_cast<std::size_t>(p)];
  const std::int64_t end = starts[static_cast<std::size_t>(p + n)];
  return s.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
}

std::string random_string(FuzzInput& in) {
  static const unsigned char kBytes[] = {'a', 'b', 'c', 'H', '\'', '"', '\\', '\n', 0x00,
                                         0x80, 0xbf, 0xa9, 0xc3, 0xe2, 0xf0, 0xff};
  const std::uint8_t mode = in.take<std::uint8_t>();
  std::size_t length = mode % 10;
  if (mode >= 250) length = 60 + mode % 10;  // around the 64-byte repr cut
  std::string s(length, '\0');
  for (auto& c : s) {
    const std::uint8_t b = in.take<std::uint8_t>();
    c = static_cast<char>(b < 192 ? kBytes[b % 16] : b);
  }
  return s;
}

Dims random_dims(FuzzInput& in, int max_rank, std::int64_t max_dim) {
  Dims d(static_cast<std::size_t>(in.range(0, max_rank)));
  for (auto& x : d) x = in.range(0, max_dim);
  return d;
}

TensorBuffer make_ints(const Dims& dims, bool is64, const std::vector<std::int64_t>& values) {
  TensorBuffer t =
      TensorBuffer::create_fixed_size(Shape(dims), is64 ? DataType::kInt64 : DataType::kInt32);
  if (t.size_bytes() == 0) return t;
  auto* p = static_cast<std::uint8_t*>(t.mutable_host_bytes());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (is64) {
      std::memcpy(p + i * 8, &values[i], 8);
    } else {
      const auto v = static_cast<std::int32_t>(values[i]);
      std::memcpy(p + i * 4, &v, 4);
    }
  }
  return t;
}

std::int64_t random_position(FuzzInput& in, bool is64, std::int64_t low, std::int64_t high) {
  const std::uint8_t mode = in.take<std::uint8_t>();
  if (mode < 240) return in.range(low, high);
  switch (mode % 4) {
    case 0: return is64 ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int32_t>::min();
    case 1: return is64 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int32_t>::max();
    case 2: return is64 ? std::numeric_limits<std::int64_t>::min() + 1 : std::numeric_limits<std::int32_t>::min() + 1;
    default: return is64 ? std::numeric_limits<std::int64_t>::max() - 1 : std::numeric_limits<std::int32_t>::max() - 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes = extended(data, size);
  FuzzInput in(bytes.data(), bytes.size());
  const std::uint8_t flags = in.take<std::uint8_t>();
  const std::uint8_t flags2 = in.take<std::uint8_t>();
  const bool utf8 = flags & 1;
  const int policy_choice = (flags >> 1) % 3;
  const bool is64 = (flags >> 3) & 1;
  const bool len_other_type = ((flags >> 4) & 15) == 1;
  const bool len_other_shape = ((flags >> 4) & 15) == 2;
  const bool pos_bad_type = ((flags >> 4) & 15) == 3;
  const int pos_shape_form = flags2 % 4;  // 0: scalar, 1: input's shape, 2: related, 3: random

  // Rarely a big case (more elements than one CPU chunk, so several threads share the work):
  // the bulk values then come from a generator seeded by the input.
  const bool big = big_cases_enabled() && ((flags2 >> 2) & 15) == 15 && in.take<std::uint8_t>() % 16 == 0;
  std::vector<std::uint8_t> bulk;
  if (big) bulk = generated_bytes(in.take<std::uint64_t>(), std::size_t{1} << 20);
  FuzzInput bulk_in(bulk.data(), bulk.size());
  FuzzInput& values_in = big ? bulk_in : in;

  const Dims idims = big ? Dims{in.range(32768, 36000)} : random_dims(in, 3, 3);
  std::vector<std::string> strings(static_cast<std::size_t>(count(idims)));
  for (auto& s : strings) s = random_string(values_in);

  Dims pdims;
  if (pos_shape_form == 1) {
    pdims = idims;
  } else if (pos_shape_form == 2) {  // a suffix of the input's shape with some dims 1, maybe a lead
    const std::size_t keep = static_cast<std::size_t>(in.range(0, idims.size()));
    pdims.assign(idims.end() - static_cast<std::ptrdiff_t>(keep), idims.end());
    for (auto& d : pdims) {
      if (in.take<std::uint8_t>() & 1) d = 1;
    }
    if (in.take<std::uint8_t>() % 4 == 0) pdims.insert(pdims.begin(), in.range(0, 3));
  } else if (pos_shape_form == 3) {
    pdims = random_dims(in, 3, 3);
  }
  Dims ldims = pdims;
  if (len_other_shape) {
    if (!ldims.empty() && (in.take<std::uint8_t>() & 1)) ldims.pop_back();
    else ldims.push_back(in.range(0, 2));
  }

  const std::int64_t np = count(pdims);
  std::vector<std::int64_t> pos(static_cast<std::size_t>(np)), len(static_cast<std::size_t>(count(ldims)));
  std::int64_t max_len = 0;
  for (const auto& s : strings) max_len = std::max<std::int64_t>(max_len, static_cast<std::int64_t>(s.size()));
  const std::uint16_t bad_rate = big ? in.take<std::uint8_t>() : 0;  // per 65536 elements
  for (auto& p : pos) {
    // big: a position out of range is rare, so the error (if any) can fall in any chunk
    if (big && values_in.take<std::uint16_t>() >= bad_rate) {
      p = 0;  // always in range
    } else {
      p = random_position(values_in, is64, -max_len - 2, max_len + 2);
    }
  }
  for (auto& l : len) l = random_position(values_in, is64, -3, max_len + 2);

  // Strings: from_strings, or from_buffers over chars sized exactly (no slack for ASan).
  std::string all;
  for (const auto& s : strings) all += s;
  StringTensor input = [&] {
    if (in.take<std::uint8_t>() & 1) return StringTensor::from_strings(strings, Shape(idims));
    TensorBuffer offsets = TensorBuffer::create_fixed_size(
        Shape{static_cast<std::int64_t>(strings.size()) + 1}, DataType::kInt64);
    auto* o = offsets.mutable_host<std::int64_t>();
    o[0] = 0;
    for (std::size_t i = 0; i < strings.size(); ++i) {
      o[i + 1] = o[i] + static_cast<std::int64_t>(strings[i].size());
    }
    TensorBuffer chars = TensorBuffer::create_fixed_size(
        Shape{static_cast<std::int64_t>(all.size())}, DataType::kUInt8);
    if (!all.empty()) std::memcpy(chars.mutable_host_bytes(), all.data(), all.size());
    return StringTensor::from_buffers(std::move(offsets), std::move(chars), Shape(idims));
  }();

  TensorBuffer pos_t = pos_bad_type ? TensorBuffer::create_fixed_size(Shape(pdims), DataType::kFloat32)
                                    : make_ints(pdims, is64, pos);
  TensorBuffer len_t = make_ints(ldims, len_other_type ? !is64 : is64, len);
  if (pos_bad_type) {  // keep the values the reference uses (exact small ints)
    std::vector<float> f(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i) f[i] = static_cast<float>(pos[i]);
    if (!f.empty()) std::memcpy(pos_t.mutable_host_bytes(), f.data(), f.size() * 4);
  }
  // The values as the library sees them (int32 truncation).
  if (!is64) {
    for (auto& p : pos) p = static_cast<std::int32_t>(p);
    for (auto& l : len) l = static_cast<std::int32_t>(l);
  }

  const OutOfBoundsPolicy policy = policy_choice == 0   ? OutOfBoundsPolicy::kError
                                   : policy_choice == 1 ? OutOfBoundsPolicy::kDrop
                                                        : OutOfBoundsPolicy::kDeviceDefault;
  const bool drop = policy == OutOfBoundsPolicy::kDrop;

  // ---- reference ----
  const std::optional<Dims> odims = broadcast_shapes(idims, pdims);
  const bool valid = !pos_bad_type && !len_other_type && pdims == ldims && odims.has_value();
  std::vector<std::string> expected;
  std::optional<std::string> expected_error;
  std::int64_t expected_bad = -1;  // its index
  if (valid) {
    const std::int64_t n = count(*odims);
    for (std::int64_t i = 0; i < n && !expected_error; ++i) {
      const std::string& s = strings[static_cast<std::size_t>(source_index(idims, *odims, i))];
      const std::int64_t pi = source_index(pdims, *odims, i);
      const std::int64_t p = pos[static_cast<std::size_t>(pi)];
      const std::optional<std::string> r = reference(s, p, len[static_cast<std::size_t>(pi)], utf8);
      if (r) {
        expected.push_back(*r);
      } else if (drop) {
        expected.emplace_back();
      } else {
        expected_error = "pos " + std::to_string(p) + " out of range for string " + py_repr(s) +
                         " at index " + std::to_string(i);
        expected_bad = i;
      }
    }
  }

  // ---- run ----
  const SubstrOptions options{.device = Device::cpu(),
                              .unit = utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte,
                              .out_of_bounds = policy};
  std::optional<std::string> error;
  std::optional<StringTensor> out;
  try {
    out.emplace(substr(input, pos_t, len_t, options));
  } catch (const InvalidArgumentError& e) {
    error = e.what();
  }
  if (input.to_strings() != strings) fail("the input was modified");

  const std::string what = "input " + str(idims) + " pos " + str(pdims) + " len " + str(ldims) +
                           (utf8 ? " utf8" : " byte") + (drop ? " drop" : " error") +
                           (is64 ? " int64" : " int32");
  ++g_stats.counts[!valid ? 2 : expected_error ? 1 : 0];
  if (!valid) {
    if (!error) fail("an invalid call did not raise: " + what);
    return 0;
  }
  for (const std::int64_t lane_threshold : {std::int64_t{0}, std::numeric_limits<std::int64_t>::max()}) {
    testing::DriverSettings settings;
    settings.unit = options.unit;
    settings.report = !drop;
    settings.lane_threshold = lane_threshold;
    settings.reverse = (flags2 >> 6) & 1;
    const testing::DriverRun run = testing::run_driver(input, pos_t, len_t, settings);
    const std::string form = lane_threshold == 0 ? "driver, lanes: " : "driver, threads: ";
    if (run.first_bad != expected_bad) {
      fail(form + "first bad " + std::to_string(run.first_bad) + ", expected " +
           std::to_string(expected_bad) + ": " + what);
    }
    if (!expected_error && run.values != expected) fail(form + "result differs: " + what);
  }
  if (expected_error) {
    if (!error) fail("an out-of-range pos did not raise: " + what + "; expected " + *expected_error);
    if (error->find(*expected_error) == std::string::npos) {
      fail("wrong message: got '" + *error + "', expected '" + *expected_error + "': " + what);
    }
    return 0;
  }
  if (error) fail("a valid call raised '" + *error + "': " + what);
  if (out->shape() != Shape(*odims)) fail("output shape: " + what);
  const std::vector<std::string> got = out->to_strings();
  if (got != expected) {
    for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i) {
      if (got[i] != expected[i]) {
        const std::string& s =
            strings[static_cast<std::size_t>(source_index(idims, *odims, static_cast<std::int64_t>(i)))];
        const std::int64_t pi = source_index(pdims, *odims, static_cast<std::int64_t>(i));
        fail("element " + std::to_string(i) + " of " + py_repr(s) + " pos " +
             std::to_string(pos[static_cast<std::size_t>(pi)]) + " len " +
             std::to_string(len[static_cast<std::size_t>(pi)]) + ": got " + py_repr(got[i]) +
             ", expected " + py_repr(expected[i]) + ": " + what);
      }
    }
    fail("result differs: " + what);
  }
  for (std::int64_t i = 0; i < out->size(); ++i) {
    if (out->at(i) != expected[static_cast<std::size_t>(i)]) fail("at(i) differs: " + what);
  }
  return 0;
}
