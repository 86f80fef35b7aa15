// Fuzzes boolean_mask_update (and _in_place) on the CPU against a reference written here that
// implements NumPy's `out[(slice(None),)*axis + (mask,)] = updates` directly: the true mask
// positions taken row-major, `updates` broadcast to the target shape by NumPy's rules.
// InvalidArgumentError exactly when the reference says the call is invalid; results bitwise
// equal; inputs never modified; an in-place tensor unchanged on error. Calls that pass the
// plan also run the CUDA backend's driver on the CPU (kernels::HostExecutor, widest carrier),
// in place and out of place: the reference's result when valid, else nothing applied (the
// count check) and an in-place tensor untouched.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/plan_boolean_mask_update.hpp"
#include "fuzz/input.hpp"
#include "kernels/boolean_mask_update.hpp"
#include "kernels/host_executor.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;
using namespace tensorbuf::fuzz;
using Dims = std::vector<std::int64_t>;
using Bytes = std::vector<std::uint8_t>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_boolean_mask_update: %s\n", what.c_str());
  std::abort();
}

constexpr DataType kTypes[] = {DataType::kInt32, DataType::kUInt8,   DataType::kFloat32,
                               DataType::kBool,  DataType::kFloat16, DataType::kFloat64,
                               DataType::kInt16, DataType::kInt64,   DataType::kInt8};

Bytes bytes_of(const TensorBuffer& t) {
  if (t.size_bytes() == 0) return {};
  const auto* p = static_cast<const std::uint8_t*>(t.host_bytes());
  return Bytes(p, p + t.size_bytes());
}

TensorBuffer make_buffer(const Dims& dims, DataType type, const Bytes& data) {
  TensorBuffer t = TensorBuffer::create_fixed_size(Shape(dims), type);
  if (t.size_bytes() != data.size()) fail("harness: buffer size");
  if (!data.empty()) std::memcpy(t.mutable_host_bytes(), data.data(), data.size());
  return t;
}

Bytes decode_data(FuzzInput& in, DataType type, std::int64_t n) {
  const std::size_t size = type_size(type);
  Bytes out(static_cast<std::size_t>(n) * size);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint8_t mode = in.take<std::uint8_t>();
    std::uint8_t* p = out.data() + static_cast<std::size_t>(i) * size;
    if (type == DataType::kBool) {
      p[0] = mode & 1;
    } else if (mode < 200) {  // a small recognisable value in the low byte
      p[0] = static_cast<std::uint8_t>(mode % 13 + 1);
      if (type == DataType::kFloat32) {
        const float f = static_cast<float>(mode % 13 + 1);
        std::memcpy(p, &f, 4);
      } else if (type == DataType::kFloat64) {
        const double f = mode % 13 + 1;
        std::memcpy(p, &f, 8);
      } else if (type == DataType::kFloat16) {
        const float16 f(static_cast<float>(mode % 13 + 1));
        std::memcpy(p, &f.bits, 2);
      }
    } else {
      for (std::size_t b = 0; b < size; ++b) p[b] = in.take<std::uint8_t>();
    }
  }
  return out;
}

// Whether `from` broadcasts to `to` by NumPy's assignment rules: leading dims of size 1 beyond
// the target's rank are dropped (NumPy `a[m] = np.ones((1, 1, 3))` into a [n, 3] target
// works), then right-aligned, each dim 1 or equal.
bool broadcasts(Dims from, const Dims& to) {
  while (from.size() > to.size() && from.front() == 1) from.erase(from.begin());
  if (from.size() > to.size()) return false;
  const std::size_t shift = to.size() - from.size();
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (from[i] != 1 && from[i] != to[i + shift]) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> input = extended(data, size);
  FuzzInput in(input.data(), input.size());
  const DataType type = kTypes[in.range(0, 8)];
  const int rank = static_cast<int>(in.range(1, 4));
  Dims tdims(static_cast<std::size_t>(rank));
  for (auto& d : tdims) d = in.range(0, 3);
  const std::uint8_t flags = in.take<std::uint8_t>();
  const std::uint8_t flags2 = in.take<std::uint8_t>();
  const bool broadcast = !(flags & 1);
  const bool in_place = (flags >> 1) & 1;
  const bool bad_mask_shape = ((flags >> 2) & 7) == 1;
  const bool bad_mask_type = ((flags >> 2) & 7) == 2;
  const bool bad_updates_type = ((flags >> 2) & 7) == 3;
  const bool scalar_mask = ((flags >> 2) & 7) == 4;
  const int updates_form = (flags >> 5) & 7;  // see below

  // axis: mostly valid (either sign), sometimes out of range.
  int axis;
  int K;
  if ((flags2 & 7) == 0) {
    axis = static_cast<int>(in.range(-rank - 2, rank + 2));
    K = static_cast<int>(in.range(1, rank + 1));
  } else {
    const int a = static_cast<int>(in.range(0, rank - 1));
    K = static_cast<int>(in.range(1, rank - a));
    axis = (flags2 >> 3) & 1 ? a - rank : a;
  }
  const int a_norm = axis < 0 ? axis + rank : axis;

  Dims mdims;
  if (!scalar_mask) {
    for (int k = 0; k < K; ++k) {
      const int d = a_norm + k;
      mdims.push_back(d >= 0 && d < rank ? tdims[static_cast<std::size_t>(d)] : in.range(0, 3));
    }
  }
  if (bad_mask_shape) {
    const int how = static_cast<int>(in.range(0, 2));
    if (how == 0 && mdims.size() > 1)
      mdims.pop_back();
    else if (how == 1)
      mdims.push_back(in.range(0, 3));
    else if (!mdims.empty())
      mdims[static_cast<std::size_t>(in.range(0, mdims.size() - 1))] = in.range(0, 3);
  }
  const std::int64_t mcount = count(mdims);
  Bytes mbytes(static_cast<std::size_t>(mcount));
  for (auto& b : mbytes) {
    const std::uint8_t v = in.take<std::uint8_t>();
    b = (v & 3) == 0 ? 0 : (v & 3) == 1 ? 1 : ((v >> 2) & 1) ? 0 : static_cast<std::uint8_t>(v | 1);
  }
  const DataType mtype = bad_mask_type ? DataType::kUInt8 : DataType::kBool;

  // ---- reference validity and target shape ----
  const int mask_rank = static_cast<int>(mdims.size());
  bool valid =
      mtype == DataType::kBool && mask_rank >= 1 && a_norm >= 0 && a_norm + mask_rank <= rank;
  std::int64_t n = 0;
  for (auto b : mbytes) n += b != 0;
  Dims lead, trail, target;
  if (valid) {
    for (int k = 0; k < mask_rank; ++k) {
      if (mdims[static_cast<std::size_t>(k)] != tdims[static_cast<std::size_t>(a_norm + k)]) {
        valid = false;
      }
    }
  }
  const int ta = a_norm >= 0 && a_norm <= rank ? a_norm : 0;
  lead.assign(tdims.begin(), tdims.begin() + ta);
  const int trail_from = std::min(rank, std::max(0, ta + mask_rank));
  trail.assign(tdims.begin() + trail_from, tdims.end());
  target = lead;
  target.push_back(n);
  target.insert(target.end(), trail.begin(), trail.end());

  // ---- updates shape ----
  Dims udims;
  switch (updates_form) {
    case 0:
      break;  // scalar
    case 1:
      udims = {n};
      udims.insert(udims.end(), trail.begin(), trail.end());
      break;
    case 2:
      udims = target;
      break;
    case 3:  // size-1 dims, maybe a suffix
    case 4: {
      const std::size_t keep = static_cast<std::size_t>(in.range(0, target.size()));
      udims.assign(target.end() - static_cast<std::ptrdiff_t>(keep), target.end());
      for (auto& d : udims) {
        if (in.take<std::uint8_t>() & 1) d = 1;
      }
      break;
    }
    case 5:
      udims = {1};
      udims.insert(udims.end(), trail.begin(), trail.end());
      break;
    case 6: {  // random (usually wrong)
      udims.resize(static_cast<std::size_t>(in.range(0, 3)));
      for (auto& d : udims) d = in.range(0, 3);
      break;
    }
    default: {  // dims more than the target
      udims = target;
      const int extra = static_cast<int>(in.range(1, 2));
      for (int e = 0; e < extra; ++e) udims.insert(udims.begin(), in.range(0, 2));
      break;
    }
  }
  const DataType utype = bad_updates_type ? kTypes[in.range(0, 8)] : type;
  if (utype != type) valid = false;
  if (valid) valid = broadcast ? broadcasts(udims, target) : udims == target;

  const Bytes tbytes = decode_data(in, type, count(tdims));
  const Bytes ubytes = decode_data(in, utype, count(udims));
  TensorBuffer tensor = make_buffer(tdims, type, tbytes);
  TensorBuffer mask = make_buffer(mdims, mtype, mbytes);
  TensorBuffer updates = make_buffer(udims, utype, ubytes);

  // ---- reference result ----
  Bytes expected = tbytes;
  if (valid) {
    const std::size_t es = type_size(type);
    std::int64_t nlead = count(lead), ntrail = count(trail), mc = mcount;
    std::vector<std::int64_t> positions;  // flat mask positions of the true entries, row-major
    for (std::int64_t i = 0; i < mc; ++i) {
      if (mbytes[static_cast<std::size_t>(i)] != 0) positions.push_back(i);
    }
    // Strides of updates, right-aligned to the target, 0 where broadcast.
    const std::size_t tr = target.size();
    std::vector<std::int64_t> ustride(tr, 0);
    std::int64_t s = 1;
    Dims ud = udims;  // leading size-1 dims beyond the target's rank dropped
    while (ud.size() > tr) ud.erase(ud.begin());
    for (std::size_t i = ud.size(); i-- > 0;) {
      const std::size_t t = i + (tr - ud.size());
      ustride[t] = ud[i] == 1 ? 0 : s;
      s *= ud[i];
    }
    for (std::int64_t b = 0; b < nlead; ++b) {
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t t = 0; t < ntrail; ++t) {
          // target coordinate (lead coords of b, j, trail coords of t) -> updates offset
          std::int64_t uoff = 0;
          std::int64_t rest = t;
          for (std::size_t k = tr; k-- > lead.size() + 1;) {
            const std::int64_t dim = target[k];
            uoff += (rest % dim) * ustride[k];
            rest /= dim;
          }
          uoff += j * ustride[lead.size()];
          rest = b;
          for (std::size_t k = lead.size(); k-- > 0;) {
            const std::int64_t dim = target[k];
            uoff += (rest % dim) * ustride[k];
            rest /= dim;
          }
          const std::int64_t toff = (b * mc + positions[static_cast<std::size_t>(j)]) * ntrail + t;
          std::memcpy(expected.data() + static_cast<std::size_t>(toff) * es,
                      ubytes.data() + static_cast<std::size_t>(uoff) * es, es);
        }
      }
    }
  }

  // ---- run ----
  const BooleanMaskUpdateOptions options{
      .device = Device::cpu(), .axis = axis, .broadcast = broadcast};
  std::optional<Bytes> got;
  std::optional<std::string> error;
  TensorBuffer target_buffer = tensor.clone();
  try {
    if (in_place) {
      boolean_mask_update_in_place(target_buffer, mask, updates, options);
      if (target_buffer.shape() != Shape(tdims) || target_buffer.data_type() != type) {
        fail("in-place call changed shape or dtype");
      }
      got = bytes_of(target_buffer);
    } else {
      TensorBuffer out = boolean_mask_update(tensor, mask, updates, options);
      if (out.shape() != Shape(tdims) || out.data_type() != type) fail("output shape or dtype");
      got = bytes_of(out);
    }
  } catch (const InvalidArgumentError& e) {
    error = e.what();
  }
  if (bytes_of(tensor) != tbytes) fail("the tensor input was modified");
  if (bytes_of(mask) != mbytes) fail("the mask was modified");
  if (bytes_of(updates) != ubytes) fail("the updates were modified");

  const std::string what =
      std::string(to_string(type)) + " tensor " + str(tdims) + " mask " +
      std::string(to_string(mtype)) + str(mdims) + " updates " + std::string(to_string(utype)) +
      str(udims) + " axis " + std::to_string(axis) + " target " + str(target) +
      (broadcast ? " broadcast" : " no-broadcast") + (in_place ? " in place" : "");
  ++g_stats.counts[valid ? 0 : 2];
  if (!valid) {
    if (!error) fail("an invalid call did not raise: " + what);
  } else {
    if (error) fail("a valid call raised '" + *error + "': " + what);
    Bytes g = *got, x = expected;
    if (type == DataType::kBool) {
      for (auto& v : g) v = v != 0;
      for (auto& v : x) v = v != 0;
    }
    if (g != x) fail("result differs from the reference: " + what);
  }
  if (error && in_place && bytes_of(target_buffer) != tbytes) {
    fail("a failed in-place call changed the tensor: " + what);
  }

  // ---- the CUDA backend's driver on the CPU ----
  std::optional<core::BooleanMaskUpdatePlan> plan;
  try {
    plan = core::plan_boolean_mask_update(tensor, mask, updates, options);
  } catch (const InvalidArgumentError&) {
  }
  if (!plan) {
    if (valid) fail("the plan rejected a valid call: " + what);
    return 0;
  }
  for (const bool driver_in_place : {false, true}) {
    // Out of place the output starts as garbage: every byte must be written.
    Bytes out = driver_in_place ? tbytes : Bytes(tbytes.size(), 0xA5);
    kernels::HostExecutor executor((flags2 >> 4) & 1);
    core::BooleanMaskUpdateBuffers buffers;
    buffers.tensor = driver_in_place ? static_cast<const void*>(out.data()) : tbytes.data();
    buffers.mask = mbytes.data();
    buffers.updates = ubytes.data();
    buffers.out = out.data();
    const core::BooleanMaskUpdateResult result =
        kernels::run_boolean_mask_update(executor, *plan, buffers);
    const std::string form = driver_in_place ? "driver in place: " : "driver: ";
    if (!valid) {
      if (result.applied()) fail(form + "applied an invalid call: " + what);
      if (driver_in_place && out != tbytes) fail(form + "changed the tensor on failure: " + what);
      continue;
    }
    if (!result.applied()) fail(form + "rejected a valid call: " + what);
    Bytes x = expected;
    if (type == DataType::kBool) {
      for (auto& v : out) v = v != 0;
      for (auto& v : x) v = v != 0;
    }
    if (out != x) fail(form + "result differs from the reference: " + what);
  }
  return 0;
}
