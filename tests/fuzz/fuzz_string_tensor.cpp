// Fuzzes StringTensor::from_buffers with arbitrary offsets (int64, sometimes int32 or a wrong
// count; non-monotonic, negative, beyond the chars) and chars: either InvalidArgumentError,
// exactly when the offsets break the documented layout, or a valid tensor whose at(i) views
// lie inside the chars and whose to_strings matches the offsets.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fuzz/input.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;
using namespace tensorbuf::fuzz;
using Dims = std::vector<std::int64_t>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_string_tensor: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> input = extended(data, size);
  FuzzInput in(input.data(), input.size());
  const std::uint8_t flags = in.take<std::uint8_t>();
  const std::uint8_t flags2 = in.take<std::uint8_t>();

  // Shape of the strings: rank 0-2.
  Dims dims(static_cast<std::size_t>(in.range(0, 2)));
  for (auto& d : dims) d = in.range(0, 4);
  const std::int64_t n = count(dims);

  const std::vector<std::uint8_t> chars_bytes = in.bytes(static_cast<std::size_t>(in.range(0, 40)));
  const auto nchars = static_cast<std::int64_t>(chars_bytes.size());

  // Offsets: count n+1, or a wrong one.
  std::int64_t noffsets = n + 1;
  switch (flags & 7) {
    case 1: noffsets = n; break;
    case 2: noffsets = n + 2; break;
    case 3: noffsets = in.range(0, 3); break;
    default: break;
  }
  DataType otype = DataType::kInt64;
  switch ((flags >> 3) & 7) {
    case 1: otype = DataType::kInt32; break;
    case 2: otype = DataType::kUInt8; break;
    default: break;
  }
  DataType ctype = DataType::kUInt8;
  switch ((flags >> 6) & 3) {
    case 1: ctype = (flags2 & 1) ? DataType::kBool : DataType::kInt8; break;
    default: break;
  }

  // Offset values: a valid layout (sorted cut points) that is then perhaps perturbed.
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(noffsets));
  for (auto& o : offsets) o = nchars == 0 ? 0 : in.range(0, nchars);
  std::sort(offsets.begin(), offsets.end());
  if (!offsets.empty()) {
    offsets.front() = 0;
    if ((flags2 >> 1) % 4 != 0) offsets.back() = nchars;
  }
  const int perturbations = (flags2 >> 3) % 4 == 0 ? static_cast<int>(in.range(1, 3)) : 0;
  for (int k = 0; k < perturbations && !offsets.empty(); ++k) {
    const auto i = static_cast<std::size_t>(in.range(0, noffsets - 1));
    switch (in.range(0, 5)) {
      case 0: offsets[i] = -in.range(1, 3); break;
      case 1: offsets[i] = nchars + in.range(1, 3); break;
      case 2: offsets[i] = std::numeric_limits<std::int64_t>::max(); break;
      case 3: offsets[i] = std::numeric_limits<std::int64_t>::min(); break;
      default: offsets[i] = in.range(0, nchars); break;
    }
  }
  const bool offsets_2d = (flags2 >> 5) & 1;  // shape [1, count]: only the count is checked

  // ---- reference validity ----
  bool valid = otype == DataType::kInt64 && ctype == DataType::kUInt8 && noffsets == n + 1 &&
               !offsets.empty() && offsets.front() == 0 && offsets.back() == nchars;
  for (std::size_t i = 1; valid && i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) valid = false;
  }

  // ---- build the buffers ----
  const Shape oshape = offsets_2d ? Shape{1, noffsets} : Shape{noffsets};
  TensorBuffer ob = TensorBuffer::create_fixed_size(oshape, otype);
  if (ob.size_bytes() != 0) {
    auto* p = static_cast<std::uint8_t*>(ob.mutable_host_bytes());
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      if (otype == DataType::kInt64) {
        std::memcpy(p + i * 8, &offsets[i], 8);
      } else if (otype == DataType::kInt32) {
        const auto v = static_cast<std::int32_t>(offsets[i]);
        std::memcpy(p + i * 4, &v, 4);
      } else {
        p[i] = static_cast<std::uint8_t>(offsets[i]);
      }
    }
  }
  // chars: copied, or referenced zero-copy from caller memory sized exactly.
  const bool zero_copy = (flags2 >> 6) & 1;
  std::vector<std::uint8_t> caller_chars = chars_bytes;
  TensorBuffer cb = TensorBuffer::create_dynamic(ctype);
  if (zero_copy) {
    cb.load_buffer(std::as_bytes(std::span<const std::uint8_t>(caller_chars)), Shape{nchars});
  } else {
    cb = TensorBuffer::create_fixed_size(Shape{nchars}, ctype);
    if (nchars != 0) std::memcpy(cb.mutable_host_bytes(), chars_bytes.data(), chars_bytes.size());
  }

  std::optional<StringTensor> st;
  try {
    st.emplace(StringTensor::from_buffers(std::move(ob), std::move(cb), Shape(dims)));
  } catch (const InvalidArgumentError&) {
    if (valid) fail("valid offsets were refused");
    return 0;
  }
  if (!valid) fail("invalid offsets were accepted");
  if (caller_chars != chars_bytes) fail("caller chars were written");

  // ---- check the tensor ----
  if (st->shape() != Shape(dims) || st->size() != n) fail("shape or size");
  if (st->num_chars() != nchars) fail("num_chars");
  const auto* base = static_cast<const char*>(st->chars().host_bytes());
  const std::vector<std::string> all = st->to_strings();
  if (static_cast<std::int64_t>(all.size()) != n) fail("to_strings count");
  for (std::int64_t i = 0; i < n; ++i) {
    const std::string_view v = st->at(i);
    const std::int64_t b = offsets[static_cast<std::size_t>(i)];
    const std::int64_t e = offsets[static_cast<std::size_t>(i) + 1];
    if (static_cast<std::int64_t>(v.size()) != e - b) fail("at(i) has the wrong size");
    if (!v.empty()) {
      if (v.data() < base || v.data() + v.size() > base + nchars) fail("at(i) lies outside chars");
      if (std::memcmp(v.data(), chars_bytes.data() + b, v.size()) != 0) fail("at(i) bytes differ");
    }
    if (all[static_cast<std::size_t>(i)] != v) fail("to_strings differs from at(i)");
  }
  for (const std::int64_t i : {std::int64_t{-1}, n, std::numeric_limits<std::int64_t>::min()}) {
    try {
      (void)st->at(i);
      fail("at() outside [0, size()) did not throw");
    } catch (const OutOfRangeError&) {
    }
  }
  return 0;
}
