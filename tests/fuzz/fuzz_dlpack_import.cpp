// Fuzzes DLPack import: DLManagedTensor and DLManagedTensorVersioned capsules with hostile
// ndim and shapes (negative, huge, overflowing products, NULL), strides (NULL, contiguous,
// size-1 dims' strides anything, zero, negative, Fortran order), byte_offset (aligned, odd,
// wrapping the address space), dtypes (code, bits, lanes), devices, versions, flags, data
// pointers (NULL, misaligned, near the top of the address space) and NULL deleters, through
// tensorbuf::from_dlpack (both forms, as_bool) and the C API's tb_buffer_from_dlpack_versioned.
//
// Each import is checked against the harness's own reading of the documented rules
// (tensorbuf/dlpack.hpp): accepted exactly when they hold, else InvalidArgumentError, and
// UnavailableError for CUDA memory or a producer stream (this build has no CUDA). The deleter
// runs exactly once: on failure before the call returns, on success not before the buffer is
// gone; it frees the capsule (ASan reports any later use). An accepted import is zero-copy:
// its host pointer is data + byte_offset, and where the claimed bytes lie inside the harness's
// arena it reads them back, and writes through to them unless read-only.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "fuzz/input.hpp"
#include "tensorbuf/c_api.h"
#include "tensorbuf/dlpack.hpp"
#include "tensorbuf/errors.hpp"

namespace {

using namespace tensorbuf;
using tensorbuf::fuzz::FuzzInput;

std::string g_case;  // what the current input built, for failure reports

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_dlpack_import: %s\n  case: %s\n  last C error: %s\n", what,
               g_case.c_str(), tb_last_error());
  std::abort();
}

constexpr std::size_t kArenaBytes = 4096;
alignas(64) std::uint8_t g_arena[kArenaBytes];

enum class Form { kLegacy, kVersioned, kCApi };
enum class Outcome { kOk, kInvalid, kUnavailable };

const char* name(Outcome o) {
  return o == Outcome::kOk ? "ok" : o == Outcome::kInvalid ? "invalid argument" : "unavailable";
}

// ---- The capsule ----

struct DeleterCount {
  int calls = 0;
};

// A producer's capsule: one heap block holding the managed struct, its shape and strides; the
// deleter counts, then frees the whole block (as a real producer does).
template <class Managed>
struct Owned {
  Managed managed{};
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  DeleterCount* count = nullptr;

  static void deleter(Managed* self) {
    auto* owned = static_cast<Owned*>(self->manager_ctx);
    ++owned->count->calls;
    delete owned;
  }
};

// ---- What the input asks for ----

struct Spec {
  Form form = Form::kLegacy;
  bool as_bool = false;
  bool stream = false;  // a producer stream (needs CUDA)
  bool null_deleter = false;
  std::int32_t ndim = 0;
  bool null_shape = false;
  std::vector<std::int64_t> dims;  // max(ndim, 0) entries
  int stride_mode = 0;
  std::vector<std::int64_t> strides;
  DLDataType dtype{};
  // DLDevice's fields as the producer's ints: a C producer may store any int in device_type,
  // which C++ must not load as the enum (UBSan's -fsanitize=enum), so it is written by memcpy.
  std::int32_t device_type = kDLCPU;
  std::int32_t device_id = 0;
  void* data = nullptr;
  std::uint64_t byte_offset = 0;
  std::uint32_t major = 1, minor = 0;
  std::uint64_t flags = 0;
};

std::int64_t pick_dim(FuzzInput& in) {
  switch (in.range(0, 15)) {
    case 0:
      return -1;
    case 1:
      return std::numeric_limits<std::int64_t>::min();
    case 2:
      return std::numeric_limits<std::int64_t>::max();
    case 3:
      return std::int64_t{1} << 31;
    case 4:
      return std::int64_t{1} << 32;
    case 5:
      return std::int64_t{1} << 62;
    case 6:
      return in.take<std::int64_t>();
    case 7:
    case 8:
      return 1;
    default:
      return in.range(0, 5);
  }
}

std::int64_t pick_stride(FuzzInput& in, std::int64_t contiguous) {
  switch (in.range(0, 7)) {
    case 0:
      return 0;
    case 1:
      return -1;
    case 2:
      return static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(contiguous));
    case 3:
      return static_cast<std::int64_t>(static_cast<std::uint64_t>(contiguous) + 1);
    case 4:
      return std::numeric_limits<std::int64_t>::min();
    case 5:
      return std::numeric_limits<std::int64_t>::max();
    case 6:
      return in.take<std::int64_t>();
    default:
      return contiguous;
  }
}

// C-order strides of `dims`, products wrapping (dims may be hostile).
std::vector<std::int64_t> c_order(const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> s(dims.size());
  std::uint64_t stride = 1;
  for (std::size_t d = dims.size(); d-- > 0;) {
    s[d] = static_cast<std::int64_t>(stride);
    stride *= static_cast<std::uint64_t>(dims[d]);
  }
  return s;
}

Spec decode(FuzzInput& in) {
  Spec s;
  s.form = static_cast<Form>(in.range(0, 2));
  const std::uint8_t options = in.take<std::uint8_t>();
  s.as_bool = s.form != Form::kCApi && (options & 1) != 0;
  s.stream = (options & 0x0e) == 0x0e;
  s.null_deleter = (options & 0x70) == 0x70;

  switch (in.range(0, 15)) {
    case 0:
      s.ndim = -1;
      break;
    case 1:
      s.ndim = std::numeric_limits<std::int32_t>::min();
      break;
    case 2:
      s.ndim = static_cast<std::int32_t>(in.range(9, 12));
      break;  // > TB_MAX_NDIM
    case 3:
      s.ndim = static_cast<std::int32_t>(in.range(5, 8));
      break;
    default:
      s.ndim = static_cast<std::int32_t>(in.range(0, 4));
  }
  s.null_shape = in.range(0, 15) == 0;
  s.dims.resize(s.ndim > 0 ? static_cast<std::size_t>(s.ndim) : 0);
  const bool hostile_dims = in.range(0, 3) == 0;
  for (auto& d : s.dims) d = hostile_dims ? pick_dim(in) : in.range(0, 4);

  s.stride_mode = static_cast<int>(in.range(0, 6));
  const std::vector<std::int64_t> contiguous = c_order(s.dims);
  switch (s.stride_mode) {
    case 0:
      break;  // NULL: C-contiguous
    case 1:
      s.strides = contiguous;
      break;
    case 2:  // contiguous, the strides of size-1 dims anything
      s.strides = contiguous;
      for (std::size_t d = 0; d < s.dims.size(); ++d) {
        if (s.dims[d] == 1) s.strides[d] = pick_stride(in, contiguous[d]);
      }
      break;
    case 3:  // one stride changed
      s.strides = contiguous;
      if (!s.strides.empty()) {
        const auto d = static_cast<std::size_t>(in.range(0, s.ndim - 1));
        s.strides[d] = pick_stride(in, contiguous[d]);
      }
      break;
    case 4: {  // Fortran order
      std::uint64_t stride = 1;
      s.strides.resize(s.dims.size());
      for (std::size_t d = 0; d < s.dims.size(); ++d) {
        s.strides[d] = static_cast<std::int64_t>(stride);
        stride *= static_cast<std::uint64_t>(s.dims[d]);
      }
      break;
    }
    case 5:
      s.strides.assign(s.dims.size(), 0);
      break;
    default:
      s.strides.resize(s.dims.size());
      for (std::size_t d = 0; d < s.dims.size(); ++d) s.strides[d] = pick_stride(in, contiguous[d]);
  }

  static constexpr std::uint8_t kCodes[] = {kDLInt, kDLUInt, kDLFloat, kDLBfloat, 6 /* bool */};
  static constexpr std::uint8_t kBits[] = {8, 16, 32, 64};
  switch (in.range(0, 7)) {
    case 0:
      s.dtype.code = in.take<std::uint8_t>();
      break;  // any code: opaque, complex, ...
    default:
      s.dtype.code = kCodes[in.range(0, 4)];
  }
  switch (in.range(0, 7)) {
    case 0:
      s.dtype.bits = in.take<std::uint8_t>();
      break;  // 0, 1, 128, ...
    default:
      s.dtype.bits = kBits[in.range(0, 3)];
  }
  switch (in.range(0, 15)) {
    case 0:
      s.dtype.lanes = 0;
      break;
    case 1:
      s.dtype.lanes = static_cast<std::uint16_t>(in.range(2, 4));
      break;
    case 2:
      s.dtype.lanes = in.take<std::uint16_t>();
      break;
    default:
      s.dtype.lanes = 1;
  }

  switch (in.range(0, 11)) {
    case 0:
      s.device_type = kDLCUDA;
      break;
    case 1:
      s.device_type = kDLCUDAHost;
      break;
    case 2:
      s.device_type = 13;
      break;  // CUDA managed
    case 3:
      s.device_type = in.take<std::int32_t>();
      break;
    case 4:
      s.device_type = static_cast<std::int32_t>(in.range(0, 16));
      break;
    default:
      s.device_type = kDLCPU;
  }
  s.device_id = in.range(0, 7) == 0 ? in.take<std::int32_t>() : 0;

  switch (in.range(0, 11)) {
    case 0:
      s.data = nullptr;
      break;
    case 1:
      s.data = g_arena + in.range(1, 7);
      break;  // misaligned for wide types
    case 2:
      s.data = reinterpret_cast<void*>(~std::uintptr_t{0} - 63);
      break;  // top of memory
    default:
      s.data = g_arena;
  }
  switch (in.range(0, 11)) {
    case 0:
      s.byte_offset = in.take<std::uint64_t>();
      break;
    case 1:
      s.byte_offset = std::uint64_t{1} << 63;
      break;
    case 2:
      s.byte_offset = ~std::uint64_t{0} - static_cast<std::uint64_t>(in.range(0, 64));
      break;
    case 3:  // exactly to the end of the address space
      s.byte_offset = 0ull - reinterpret_cast<std::uintptr_t>(s.data);
      break;
    case 4:
      s.byte_offset = static_cast<std::uint64_t>(in.range(1, 7));
      break;  // odd
    case 5:
    case 6:
    case 7:
      s.byte_offset = static_cast<std::uint64_t>(in.range(0, 64)) * 8;
      break;
    default:
      s.byte_offset = 0;
  }

  switch (in.range(0, 11)) {
    case 0:
      s.major = 0;
      break;
    case 1:
      s.major = 2;
      break;
    case 2:
      s.major = in.take<std::uint32_t>();
      break;
    default:
      s.major = 1;
  }
  s.minor = in.range(0, 3) == 0 ? in.take<std::uint32_t>() : 0;
  switch (in.range(0, 3)) {
    case 0:
      s.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
      break;
    case 1:
      s.flags = in.take<std::uint64_t>();
      break;
    default:
      s.flags = 0;
  }
  return s;
}

// ---- The documented rules (tensorbuf/dlpack.hpp, spec/interop.md I2), written here ----

struct Expected {
  Outcome outcome = Outcome::kOk;
  DataType type{};
  std::int64_t elements = 0;
  std::uint64_t bytes = 0;
  std::uintptr_t address = 0;  // data + byte_offset (0 for NULL data)
  bool read_only = false;
  bool cuda = false;
};

bool dtype_of(const DLDataType& t, bool as_bool, DataType* type) {
  if (t.lanes != 1) return false;
  switch (t.code) {
    case kDLInt:
      if (t.bits == 8)
        *type = DataType::kInt8;
      else if (t.bits == 16)
        *type = DataType::kInt16;
      else if (t.bits == 32)
        *type = DataType::kInt32;
      else if (t.bits == 64)
        *type = DataType::kInt64;
      else
        return false;
      break;
    case kDLUInt:
      if (t.bits != 8) return false;
      *type = DataType::kUInt8;
      break;
    case kDLFloat:
      if (t.bits == 16)
        *type = DataType::kFloat16;
      else if (t.bits == 32)
        *type = DataType::kFloat32;
      else if (t.bits == 64)
        *type = DataType::kFloat64;
      else
        return false;
      break;
    case kDLBfloat:
      if (t.bits != 16) return false;
      *type = DataType::kBFloat16;
      break;
    case 6:  // kDLBool
      if (t.bits != 8) return false;
      *type = DataType::kBool;
      break;
    default:
      return false;
  }
  if (as_bool && (*type == DataType::kUInt8 || *type == DataType::kInt8)) *type = DataType::kBool;
  return true;
}

Expected expect(const Spec& s) {
  Expected e;
  e.read_only = s.form != Form::kLegacy && (s.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  const auto invalid = [&e] {
    e.outcome = Outcome::kInvalid;
    return e;
  };
  if (s.form != Form::kLegacy && s.major != 1) return invalid();
  if (s.ndim < 0 || (s.ndim > 0 && s.null_shape)) return invalid();
  std::int64_t elements = 1;
  bool overflow = false;
  for (std::int64_t d : s.dims) {
    if (d < 0) return invalid();
    if (__builtin_mul_overflow(elements, d, &elements)) overflow = true;
  }
  for (std::int64_t d : s.dims) {
    if (d == 0) elements = 0, overflow = false;
  }
  if (overflow) return invalid();
  e.elements = elements;
  if (!dtype_of(s.dtype, s.as_bool, &e.type)) return invalid();
  const int type = s.device_type;
  if (type != kDLCPU && type != kDLCUDA && type != kDLCUDAHost) return invalid();
  e.cuda = type == kDLCUDA;
  if (s.stride_mode != 0 && elements > 0) {
    std::int64_t expected = 1;
    for (std::size_t d = s.dims.size(); d-- > 0;) {
      if (s.dims[d] != 1 && s.strides[d] != expected) return invalid();
      expected *= s.dims[d];  // no overflow: a prefix of a product that fits
    }
  }
  if (s.data == nullptr && elements > 0) return invalid();
  const auto size = static_cast<std::int64_t>(type_size(e.type));
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(elements, size, &bytes)) return invalid();
  e.bytes = static_cast<std::uint64_t>(bytes);
  if (s.data != nullptr) {
    // The claimed memory [data + byte_offset, + bytes) must not wrap the address space.
    const auto base = reinterpret_cast<std::uintptr_t>(s.data);
    std::uintptr_t end = 0;
    if (__builtin_add_overflow(base, s.byte_offset, &e.address) ||
        __builtin_add_overflow(e.address, e.bytes, &end)) {
      return invalid();
    }
  }
  if (e.address % static_cast<std::uintptr_t>(size) != 0) return invalid();
  if (e.cuda || s.stream) e.outcome = Outcome::kUnavailable;
  return e;
}

// The claimed bytes lie inside the arena (read back and write through only then).
bool in_arena(const Expected& e) {
  const auto begin = reinterpret_cast<std::uintptr_t>(g_arena);
  return e.bytes > 0 && e.address >= begin && e.address - begin <= kArenaBytes &&
         e.bytes <= kArenaBytes - (e.address - begin);
}

// ---- Import, each form ----

template <class Managed>
Owned<Managed>* build(const Spec& s, DeleterCount* count) {
  auto* owned = new Owned<Managed>;
  owned->count = count;
  owned->shape = s.dims;
  if (owned->shape.empty()) owned->shape.push_back(7);  // a pointer even for ndim <= 0
  owned->strides = s.strides;
  DLTensor& t = owned->managed.dl_tensor;
  t.data = s.data;
  static_assert(sizeof(t.device.device_type) == sizeof(s.device_type));
  std::memcpy(&t.device.device_type, &s.device_type, sizeof s.device_type);
  t.device.device_id = s.device_id;
  t.ndim = s.ndim;
  t.dtype = s.dtype;
  t.shape = s.null_shape ? nullptr : owned->shape.data();
  t.strides = s.stride_mode == 0 ? nullptr : owned->strides.data();
  if (s.stride_mode != 0 && owned->strides.empty()) {
    owned->strides.push_back(7);
    t.strides = owned->strides.data();
  }
  t.byte_offset = s.byte_offset;
  owned->managed.manager_ctx = owned;
  owned->managed.deleter = s.null_deleter ? nullptr : &Owned<Managed>::deleter;
  if constexpr (requires { owned->managed.version; }) {
    owned->managed.version = DLPackVersion{s.major, s.minor};
    owned->managed.flags = s.flags;
  }
  return owned;
}

void* stream_of(const Spec& s) { return s.stream ? reinterpret_cast<void*>(0x1000) : nullptr; }

// Checks an accepted C++ import, then drops it.
void check_buffer(TensorBuffer buffer, const Spec& s, const Expected& e, const DeleterCount& n) {
  if (buffer.data_type() != e.type) fail("wrong dtype");
  if (buffer.shape().dims() != s.dims) fail("wrong shape");
  if (buffer.is_read_only() != e.read_only) fail("wrong read-only flag");
  if (!buffer.is_borrowed()) fail("an import is not borrowed");
  if (e.bytes > 0) {
    if (reinterpret_cast<std::uintptr_t>(buffer.host_bytes()) != e.address) {
      fail("host pointer is not data + byte_offset");
    }
    if (in_arena(e) && !e.read_only) {
      // Writes go to the producer's memory, exactly the claimed bytes.
      std::vector<std::uint8_t> before(g_arena, g_arena + kArenaBytes);
      auto* p = static_cast<std::uint8_t*>(buffer.mutable_host_bytes());
      if (reinterpret_cast<std::uintptr_t>(p) != e.address) fail("write pointer moved");
      for (std::uint64_t i = 0; i < e.bytes; ++i) p[i] = static_cast<std::uint8_t>(~p[i]);
      const std::size_t at = e.address - reinterpret_cast<std::uintptr_t>(g_arena);
      for (std::size_t i = 0; i < kArenaBytes; ++i) {
        const bool inside = i >= at && i < at + e.bytes;
        if (g_arena[i] != (inside ? static_cast<std::uint8_t>(~before[i]) : before[i])) {
          fail("a write did not land on exactly the claimed bytes");
        }
      }
    }
  }
  if (n.calls != 0) fail("deleter ran while the buffer lives");
}

template <class Managed>
Outcome import_cpp(const Spec& s, const Expected& e, DeleterCount& n) {
  Owned<Managed>* owned = build<Managed>(s, &n);
  DLPackImportOptions options;
  options.as_bool = s.as_bool;
  options.stream = Stream{stream_of(s)};
  Outcome outcome = Outcome::kOk;
  try {
    TensorBuffer buffer = from_dlpack(&owned->managed, options);
    if (e.outcome == Outcome::kOk) check_buffer(std::move(buffer), s, e, n);
  } catch (const InvalidArgumentError&) {
    outcome = Outcome::kInvalid;
  } catch (const UnavailableError&) {
    outcome = Outcome::kUnavailable;
  } catch (const Error& error) {
    g_case += std::string(" threw ") + error.what();
    fail("an error class the rules do not allow");
  }
  if (s.null_deleter) delete owned;  // nothing else frees it
  return outcome;
}

Outcome import_c(const Spec& s, const Expected& e, DeleterCount& n) {
  Owned<DLManagedTensorVersioned>* owned = build<DLManagedTensorVersioned>(s, &n);
  tb_buffer* out = nullptr;
  const tb_status status = tb_buffer_from_dlpack_versioned(&owned->managed, stream_of(s), &out);
  Outcome outcome = Outcome::kOk;
  if (status == TB_INVALID_ARGUMENT)
    outcome = Outcome::kInvalid;
  else if (status == TB_UNAVAILABLE)
    outcome = Outcome::kUnavailable;
  else if (status != TB_OK)
    fail("a status the rules do not allow");
  if (status != TB_OK && out != nullptr) fail("output written on failure");
  if (status == TB_OK && e.outcome == Outcome::kOk) {
    tb_dtype type = TB_BOOL;
    if (tb_buffer_dtype(out, &type) != TB_OK ||
        static_cast<int>(type) != static_cast<int>(e.type)) {
      fail("wrong dtype (C)");
    }
    int ndim = -1;
    std::int64_t dims[TB_MAX_NDIM] = {};
    const tb_status shape_status = tb_buffer_shape(out, &ndim, dims);
    if (s.dims.size() > TB_MAX_NDIM) {
      if (shape_status != TB_OUT_OF_RANGE || ndim != -1) fail("a rank above 8 was not refused");
    } else if (shape_status != TB_OK || ndim != s.ndim ||
               !std::equal(s.dims.begin(), s.dims.end(), dims)) {
      fail("wrong shape (C)");
    }
    if (in_arena(e)) {
      const std::size_t at = e.address - reinterpret_cast<std::uintptr_t>(g_arena);
      std::vector<std::uint8_t> back(e.bytes);
      if (tb_buffer_copy_to_host(out, back.data(), back.size()) != TB_OK ||
          std::memcmp(back.data(), g_arena + at, back.size()) != 0) {
        fail("read back differs from the producer's bytes");
      }
      std::vector<std::uint8_t> flipped(back);
      for (auto& b : flipped) b = static_cast<std::uint8_t>(~b);
      const std::vector<std::uint8_t> before(g_arena, g_arena + kArenaBytes);
      const tb_status write = tb_buffer_copy_from_host(out, flipped.data(), flipped.size());
      if (e.read_only) {
        if (write != TB_INVALID_ARGUMENT) fail("a read-only import was written");
        if (std::memcmp(before.data(), g_arena, kArenaBytes) != 0) fail("read-only bytes changed");
      } else {
        if (write != TB_OK) fail("a writable import refused a write");
        for (std::size_t i = 0; i < kArenaBytes; ++i) {
          const bool inside = i >= at && i < at + e.bytes;
          if (g_arena[i] != (inside ? flipped[i - at] : before[i])) {
            fail("a C write did not land on exactly the claimed bytes");
          }
        }
      }
    }
    if (n.calls != 0) fail("deleter ran while the buffer lives (C)");
  }
  if (status == TB_OK) tb_buffer_destroy(out);
  if (s.null_deleter) delete owned;
  return outcome;
}

std::string describe(const Spec& s) {
  std::string d = s.form == Form::kLegacy      ? "legacy"
                  : s.form == Form::kVersioned ? "versioned"
                                               : "C";
  d += " ndim " + std::to_string(s.ndim) + (s.null_shape ? " (NULL shape)" : "") + " dims " +
       fuzz::str(s.dims) + " stride mode " + std::to_string(s.stride_mode) + " strides " +
       fuzz::str(s.strides) + " dtype " + std::to_string(s.dtype.code) + "/" +
       std::to_string(s.dtype.bits) + "x" + std::to_string(s.dtype.lanes) + " device " +
       std::to_string(s.device_type) + ":" + std::to_string(s.device_id) + " data " +
       std::to_string(reinterpret_cast<std::uintptr_t>(s.data)) + " (arena " +
       std::to_string(reinterpret_cast<std::uintptr_t>(g_arena)) + ") byte_offset " +
       std::to_string(s.byte_offset) + " version " + std::to_string(s.major) + "." +
       std::to_string(s.minor) + " flags " + std::to_string(s.flags) +
       (s.as_bool ? " as_bool" : "") + (s.stream ? " stream" : "") +
       (s.null_deleter ? " NULL deleter" : "");
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes = fuzz::extended(data, size);
  FuzzInput in(bytes.data(), bytes.size());
  const Spec spec = decode(in);
  const std::vector<std::uint8_t> fill = in.bytes(kArenaBytes);
  std::memcpy(g_arena, fill.data(), fill.size());
  const Expected expected = expect(spec);
  g_case = describe(spec) + ", expected " + name(expected.outcome);

  DeleterCount count;
  Outcome got = Outcome::kOk;
  switch (spec.form) {
    case Form::kLegacy:
      got = import_cpp<DLManagedTensor>(spec, expected, count);
      break;
    case Form::kVersioned:
      got = import_cpp<DLManagedTensorVersioned>(spec, expected, count);
      break;
    case Form::kCApi:
      got = import_c(spec, expected, count);
      break;
  }
  if (got != expected.outcome) {
    g_case += std::string(", got ") + name(got);
    fail("the import's outcome differs from the documented rules");
  }
  if (count.calls != (spec.null_deleter ? 0 : 1)) fail("the deleter did not run exactly once");
  fuzz::g_stats.counts[got == Outcome::kOk ? 0 : got == Outcome::kInvalid ? 2 : 3]++;
  return 0;
}
