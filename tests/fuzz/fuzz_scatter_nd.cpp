// Fuzzes tensor_scatter_nd_{sub,add,update,min,max} (and _in_place) on the CPU against a plain
// serial reference written here from spec/tensor_scatter_nd.md: rows applied in order, integer
// wrap computed in unsigned, float16/bfloat16 accumulating through their own operators,
// NaN-propagating min/max as NumPy minimum/maximum, update keeping the last row. Results must
// be bitwise equal; kError with a bad row must raise InvalidArgumentError naming the first bad
// row as the spec formats it; argument errors must raise InvalidArgumentError; inputs are never
// modified and an in-place tensor is unchanged on any error. TENSORBUF_FUZZ_BIG=1 adds rare
// inputs of 16384+ rows (several CPU chunks); TENSORBUF_FUZZ_STATS=1 prints outcome counts.
#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "fuzz/input.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;
using namespace tensorbuf::fuzz;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_scatter_nd: %s\n", what.c_str());
  std::abort();
}

enum class Op { kSub, kAdd, kUpdate, kMin, kMax };
const char* const kOpNames[] = {"sub", "add", "update", "min", "max"};

constexpr DataType kTypes[] = {DataType::kInt32,   DataType::kUInt8,   DataType::kInt8,
                               DataType::kFloat32, DataType::kFloat16, DataType::kFloat64,
                               DataType::kInt16,   DataType::kInt64,   DataType::kBFloat16,
                               DataType::kBool};

using Bytes = std::vector<std::uint8_t>;

Bytes bytes_of(const TensorBuffer& t) {
  if (t.size_bytes() == 0) return {};
  const auto* p = static_cast<const std::uint8_t*>(t.host_bytes());
  return Bytes(p, p + t.size_bytes());
}

TensorBuffer make_buffer(const std::vector<std::int64_t>& dims, DataType type, const Bytes& data) {
  TensorBuffer t = TensorBuffer::create_fixed_size(Shape(dims), type);
  if (t.size_bytes() != data.size()) fail("harness: buffer size");
  if (!data.empty()) std::memcpy(t.mutable_host_bytes(), data.data(), data.size());
  return t;
}

// Element values: mostly small integers (duplicates, ties), some specials, some raw bits.
template <class T>
T decode_value(FuzzInput& in) {
  const std::uint8_t mode = in.take<std::uint8_t>();
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    if (mode < 180) return T(static_cast<float>(static_cast<int>(mode % 11) - 5));
    if (mode < 240) {
      static const float special[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0f, 0.5f, 65504.0f,
                                      -65504.0f, 6e-8f, 1e-3f, 3e38f, 0.1f, 2048.0f, 1.0f,
                                      -2.5f};
      return T(special[mode % 15]);
    }
    return T::from_bits(in.take<std::uint16_t>());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (mode < 180) return static_cast<T>(static_cast<int>(mode % 11) - 5);
    if (mode < 240) {
      static const T special[] = {
          std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(),
          std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
          static_cast<T>(-0.0), static_cast<T>(0.5), std::numeric_limits<T>::max(),
          std::numeric_limits<T>::lowest(), std::numeric_limits<T>::denorm_min(),
          static_cast<T>(1e-3), static_cast<T>(0.1), static_cast<T>(1e30), static_cast<T>(1),
          static_cast<T>(-2.5), std::numeric_limits<T>::epsilon()};
      return special[mode % 15];
    }
    return in.take<T>();  // raw bits, NaN payloads included
  } else if constexpr (std::is_same_v<T, std::uint8_t>) {
    return mode < 200 ? static_cast<T>(mode % 7) : in.take<T>();
  } else {
    if (mode < 180) return static_cast<T>(static_cast<int>(mode % 11) - 5);
    if (mode < 220) {
      return mode % 2 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    }
    return in.take<T>();
  }
}

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    const float f = static_cast<float>(v);
    return f != f;
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// The reference combine step.
template <class T>
T combine(Op op, T current, T value) {
  switch (op) {
    case Op::kUpdate: return value;
    case Op::kAdd:
    case Op::kSub:
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        const U a = static_cast<U>(current), b = static_cast<U>(value);
        const U r = op == Op::kAdd ? static_cast<U>(a + b) : static_cast<U>(a - b);
        return static_cast<T>(r);
      } else {
        return op == Op::kAdd ? current + value : current - value;
      }
    case Op::kMin:
      // NumPy minimum: (in1 <= in2 || isnan(in1)) ? in1 : in2, in1 = current.
      if (is_nan(current)) return current;
      if (is_nan(value)) return value;
      return value < current ? value : current;
    case Op::kMax:
      if (is_nan(current)) return current;
      if (is_nan(value)) return value;
      return value > current ? value : current;
  }
  return current;
}

template <class F>
void with_type(DataType type, F&& f) {
  switch (type) {
    case DataType::kBool:
    case DataType::kUInt8: f(std::uint8_t{}); break;
    case DataType::kInt8: f(std::int8_t{}); break;
    case DataType::kInt16: f(std::int16_t{}); break;
    case DataType::kInt32: f(std::int32_t{}); break;
    case DataType::kInt64: f(std::int64_t{}); break;
    case DataType::kFloat16: f(float16{}); break;
    case DataType::kBFloat16: f(bfloat16{}); break;
    case DataType::kFloat32: f(float{}); break;
    case DataType::kFloat64: f(double{}); break;
  }
}

Bytes decode_data(FuzzInput& in, DataType type, std::int64_t n) {
  Bytes out(static_cast<std::size_t>(n) * type_size(type));
  with_type(type, [&](auto tag) {
    using T = decltype(tag);
    for (std::int64_t i = 0; i < n; ++i) {
      T v = decode_value<T>(in);
      if constexpr (std::is_same_v<T, std::uint8_t>) {
        if (type == DataType::kBool) v = static_cast<T>(v & 1);
      }
      std::memcpy(out.data() + static_cast<std::size_t>(i) * sizeof(T), &v, sizeof(T));
    }
  });
  return out;
}

std::string dims_string(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

using InPlaceFn = void (*)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                           const ScatterOptions&);
using OutFn = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                               const ScatterOptions&);
const OutFn kOut[] = {tensor_scatter_nd_sub, tensor_scatter_nd_add, tensor_scatter_nd_update,
                      tensor_scatter_nd_min, tensor_scatter_nd_max};
const InPlaceFn kInPlace[] = {tensor_scatter_nd_sub_in_place, tensor_scatter_nd_add_in_place,
                              tensor_scatter_nd_update_in_place, tensor_scatter_nd_min_in_place,
                              tensor_scatter_nd_max_in_place};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> input = extended(data, size);
  FuzzInput in(input.data(), input.size());
  const Op op = static_cast<Op>(in.range(0, 4));
  const DataType type = kTypes[in.range(0, 9)];
  const int rank = static_cast<int>(in.range(1, 3));
  std::vector<std::int64_t> tdims(static_cast<std::size_t>(rank));
  for (auto& d : tdims) d = in.range(0, 5);
  const bool index64 = in.take<std::uint8_t>() & 1;
  const std::uint8_t flags = in.take<std::uint8_t>();
  const std::uint8_t flags2 = in.take<std::uint8_t>();
  // Rare argument errors: bad depth, wrong updates shape, wrong updates dtype, bad index dtype.
  const bool bad_depth = (flags & 0x0f) == 1;
  const bool bad_updates_shape = (flags & 0x0f) == 2;
  const bool bad_updates_type = (flags & 0x0f) == 3;
  const bool bad_index_type = (flags & 0x0f) == 4;
  const int index_form = (flags >> 4) % 4;  // 0,1: [N, D]; 2: [D]; 3: [a, b, D]
  const int policy_choice = flags2 % 3;     // kError, kDrop, kDeviceDefault (= kError on CPU)
  const bool in_place = (flags2 >> 2) & 1;
  const bool huge_indices = ((flags2 >> 3) & 7) == 7;

  int depth = static_cast<int>(in.range(1, rank));
  if (bad_depth) depth = in.take<std::uint8_t>() & 1 ? 0 : rank + 1;

  // Rarely a big case (more rows than one CPU chunk holds, so several threads share the rows):
  // the bulk values then come from a generator seeded by the input.
  const bool big = big_cases_enabled() && ((flags2 >> 6) & 3) == 3 && in.take<std::uint8_t>() % 64 == 0;
  std::vector<std::uint8_t> bulk;
  if (big) bulk = generated_bytes(in.take<std::uint64_t>(), std::size_t{1} << 20);
  FuzzInput bulk_in(bulk.data(), bulk.size());
  FuzzInput& values_in = big ? bulk_in : in;

  std::vector<std::int64_t> batch;
  if (big) batch = {in.range(16384, 20000)};
  else if (index_form <= 1) batch = {in.range(0, 6)};
  else if (index_form == 3) batch = {in.range(0, 3), in.range(0, 3)};
  std::vector<std::int64_t> idims = batch;
  idims.push_back(depth);
  const std::int64_t n_rows = count(batch);

  std::vector<std::int64_t> index_values(static_cast<std::size_t>(n_rows * depth));
  for (std::int64_t r = 0; r < n_rows; ++r) {
    for (int d = 0; d < depth; ++d) {
      const std::int64_t dim = d < rank ? tdims[static_cast<std::size_t>(d)] : 3;
      std::int64_t v;
      if (big) {  // mostly in bounds: a bad row is rare
        v = values_in.take<std::uint16_t>() == 0 ? values_in.range(-2, dim + 2)
                                                 : (dim == 0 ? 0 : values_in.range(0, dim - 1));
      } else {
        v = in.range(-2, dim + 2);
      }
      if (huge_indices && (in.take<std::uint8_t>() & 3) == 0) {
        v = in.take<std::uint8_t>() & 1 ? (index64 ? std::numeric_limits<std::int64_t>::min()
                                                   : std::numeric_limits<std::int32_t>::min())
                                        : (index64 ? std::numeric_limits<std::int64_t>::max()
                                                   : std::numeric_limits<std::int32_t>::max());
      }
      index_values[static_cast<std::size_t>(r * depth + d)] = v;
    }
  }

  // updates shape = batch + tensor.shape[D:]
  std::vector<std::int64_t> udims = batch;
  for (int d = depth; d < rank; ++d) udims.push_back(tdims[static_cast<std::size_t>(d)]);
  if (bad_updates_shape) {
    const int how = static_cast<int>(in.range(0, 2));
    if (how == 0 && !udims.empty()) udims.pop_back();
    else if (how == 1) udims.push_back(in.range(0, 2));
    else if (!udims.empty()) udims[static_cast<std::size_t>(in.range(0, udims.size() - 1))] = in.range(0, 5);
  }
  DataType utype = type;
  if (bad_updates_type) utype = kTypes[in.range(0, 9)];

  const DataType itype = bad_index_type ? (in.take<std::uint8_t>() & 1 ? DataType::kFloat32
                                                                       : DataType::kInt16)
                                        : (index64 ? DataType::kInt64 : DataType::kInt32);
  Bytes ibytes(index_values.size() * type_size(itype));
  for (std::size_t i = 0; i < index_values.size(); ++i) {
    const std::int64_t v = index_values[i];
    switch (itype) {
      case DataType::kInt64: std::memcpy(ibytes.data() + i * 8, &v, 8); break;
      case DataType::kInt32: {
        const auto w = static_cast<std::int32_t>(v);
        std::memcpy(ibytes.data() + i * 4, &w, 4);
        break;
      }
      case DataType::kInt16: {
        const auto w = static_cast<std::int16_t>(v);
        std::memcpy(ibytes.data() + i * 2, &w, 2);
        break;
      }
      default: {
        const auto w = static_cast<float>(v);
        std::memcpy(ibytes.data() + i * 4, &w, 4);
        break;
      }
    }
  }
  // The component values as the library sees them (int32 truncation applied).
  for (auto& v : index_values) {
    if (itype == DataType::kInt32) v = static_cast<std::int32_t>(v);
  }

  const Bytes tbytes = decode_data(values_in, type, count(tdims));
  // In place with `updates` being the tensor itself (possible when the shapes agree): every row
  // must read the tensor's original values, never what an earlier row wrote.
  const bool alias_updates = in_place && !big && udims == tdims && utype == type &&
                             ((flags2 >> 6) & 3) == 1;
  const Bytes ubytes = alias_updates ? tbytes : decode_data(values_in, utype, count(udims));

  TensorBuffer tensor = make_buffer(tdims, type, tbytes);
  TensorBuffer indices = make_buffer(idims, itype, ibytes);
  TensorBuffer updates = make_buffer(udims, utype, ubytes);

  // ---- reference ----
  std::vector<std::int64_t> expected_udims = batch;
  for (int d = depth; d < rank; ++d) {
    if (d >= 0) expected_udims.push_back(tdims[static_cast<std::size_t>(d)]);
  }
  const bool args_valid = depth >= 1 && depth <= rank && utype == type &&
                          (itype == DataType::kInt32 || itype == DataType::kInt64) &&
                          (type != DataType::kBool || op == Op::kUpdate) &&
                          udims == expected_udims;
  const OutOfBoundsPolicy policy = policy_choice == 0   ? OutOfBoundsPolicy::kError
                                   : policy_choice == 1 ? OutOfBoundsPolicy::kDrop
                                                        : OutOfBoundsPolicy::kDeviceDefault;
  const bool drop = policy == OutOfBoundsPolicy::kDrop;

  std::optional<std::string> expected_error;  // the bad-row text, when one is expected
  Bytes expected = tbytes;
  if (args_valid) {
    std::int64_t slice = 1;
    for (int d = depth; d < rank; ++d) slice *= tdims[static_cast<std::size_t>(d)];
    std::vector<std::int64_t> strides(static_cast<std::size_t>(depth));
    std::int64_t stride = slice;
    for (int d = depth - 1; d >= 0; --d) {
      strides[static_cast<std::size_t>(d)] = stride;
      stride *= tdims[static_cast<std::size_t>(d)];
    }
    std::vector<std::int64_t> row_offset(static_cast<std::size_t>(n_rows), -1);
    for (std::int64_t r = 0; r < n_rows; ++r) {
      bool ok = true;
      std::int64_t off = 0;
      for (int d = 0; d < depth; ++d) {
        const std::int64_t v = index_values[static_cast<std::size_t>(r * depth + d)];
        if (v < 0 || v >= tdims[static_cast<std::size_t>(d)]) {
          ok = false;
          break;
        }
        off += v * strides[static_cast<std::size_t>(d)];
      }
      if (ok) {
        row_offset[static_cast<std::size_t>(r)] = off;
      } else if (!drop && !expected_error) {
        std::string msg = "indices";
        if (batch.size() == 1) {
          msg += "[" + std::to_string(r) + "]";
        } else if (batch.size() == 2) {
          msg += "[" + std::to_string(r / batch[1]) + "," + std::to_string(r % batch[1]) + "]";
        }
        msg += " = [";
        for (int d = 0; d < depth; ++d) {
          if (d) msg += ", ";
          msg += std::to_string(index_values[static_cast<std::size_t>(r * depth + d)]);
        }
        msg += "] does not index into shape " + dims_string(tdims);
        expected_error = msg;
      }
    }
    if (!expected_error) {
      with_type(type, [&](auto tag) {
        using T = decltype(tag);
        for (std::int64_t r = 0; r < n_rows; ++r) {
          const std::int64_t off = row_offset[static_cast<std::size_t>(r)];
          if (off < 0) continue;
          for (std::int64_t e = 0; e < slice; ++e) {
            T cur, val;
            std::memcpy(&cur, expected.data() + (off + e) * sizeof(T), sizeof(T));
            std::memcpy(&val, ubytes.data() + (r * slice + e) * sizeof(T), sizeof(T));
            cur = combine<T>(op, cur, val);
            std::memcpy(expected.data() + (off + e) * sizeof(T), &cur, sizeof(T));
          }
        }
      });
    }
  }

  // ---- run ----
  const ScatterOptions options{.device = Device::cpu(), .out_of_bounds = policy};
  const int op_index = static_cast<int>(op);
  std::optional<Bytes> got;
  std::optional<std::string> error;
  TensorBuffer target = tensor.clone();
  try {
    if (in_place) {
      kInPlace[op_index](target, indices, alias_updates ? target : updates, options);
      if (target.shape() != Shape(tdims) || target.data_type() != type) {
        fail("in-place op changed the tensor's shape or dtype");
      }
      got = bytes_of(target);
    } else {
      TensorBuffer out = kOut[op_index](tensor, indices, updates, options);
      if (out.shape() != Shape(tdims) || out.data_type() != type) fail("output shape or dtype");
      got = bytes_of(out);
    }
  } catch (const InvalidArgumentError& e) {
    error = e.what();
  }

  // Inputs never modified.
  if (bytes_of(tensor) != tbytes) fail("the tensor input was modified");
  if (bytes_of(indices) != ibytes) fail("indices were modified");
  if (bytes_of(updates) != ubytes) fail("updates were modified");

  const std::string what = std::string(kOpNames[op_index]) + " " +
                           std::string(to_string(type)) + " tensor " + dims_string(tdims) +
                           " indices " + dims_string(idims) + " updates " + dims_string(udims) +
                           (in_place ? " in place" : "") + (alias_updates ? " updates=tensor" : "") +
                           (drop ? " drop" : " error");
  ++g_stats.counts[!args_valid ? 2 : expected_error ? 1 : 0];
  if (!args_valid) {
    if (!error) fail("invalid arguments did not raise: " + what);
  } else if (expected_error) {
    if (!error) fail("a bad row did not raise: " + what + "; expected " + *expected_error);
    if (error->find(*expected_error) == std::string::npos) {
      fail("wrong bad-row message: got '" + *error + "', expected '" + *expected_error + "'");
    }
  } else {
    if (error) fail("unexpected error '" + *error + "': " + what);
    Bytes g = *got;
    Bytes x = expected;
    if (type == DataType::kBool) {
      for (auto& v : g) v = v != 0;
      for (auto& v : x) v = v != 0;
    }
    if (op == Op::kAdd || op == Op::kSub) {
      // Which NaN an arithmetic operation returns (sign, payload) is unspecified by C++ and
      // IEEE 754 (the compiler may swap the operands of +): any NaN equals any NaN here. min,
      // max and update copy an operand, so their NaNs are compared bitwise.
      with_type(type, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t i = 0; i + sizeof(T) <= g.size(); i += sizeof(T)) {
          T a, b;
          std::memcpy(&a, g.data() + i, sizeof(T));
          std::memcpy(&b, x.data() + i, sizeof(T));
          if (is_nan(a) && is_nan(b)) std::memcpy(g.data() + i, x.data() + i, sizeof(T));
        }
      });
    }
    if (g != x) {
      const std::size_t es = type_size(type);
      for (std::size_t i = 0; i < g.size(); i += es) {
        if (std::memcmp(g.data() + i, x.data() + i, es) != 0) {
          std::fprintf(stderr, "element %zu: got 0x", i / es);
          for (std::size_t b = es; b-- > 0;) std::fprintf(stderr, "%02x", g[i + b]);
          std::fprintf(stderr, " expected 0x");
          for (std::size_t b = es; b-- > 0;) std::fprintf(stderr, "%02x", x[i + b]);
          std::fprintf(stderr, "\n");
        }
      }
      fail("result differs from the reference: " + what);
    }
  }
  if (error && in_place && bytes_of(target) != tbytes) {
    fail("a failed in-place call changed the tensor: " + what);
  }
  return 0;
}
