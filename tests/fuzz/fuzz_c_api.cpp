// Fuzzes the C API's argument handling: a program of calls decoded from the input, with
// dtypes, devices, policies, units, ranks, dims, struct sizes and axes drawn from valid and
// invalid values, and NULL in place of any handle or pointer. Every call must return a status
// in [TB_OK, TB_INTERNAL], set a message on failure, leave its outputs untouched on failure,
// and never crash or leak (ASan + UBSan); a borrow's release runs exactly once and never when
// the borrow fails. Pointers are always NULL or valid memory large enough for what they claim;
// handles may also be destroyed ones (a destroy's value is kept and passed again later), which
// every call must refuse, and destroy again (a no-op that records the error).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz/input.hpp"
#include "tensorbuf/c_api.h"

namespace {

using tensorbuf::fuzz::FuzzInput;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_c_api: %s (last error: %s)\n", what, tb_last_error());
  std::abort();
}

tb_buffer* const kSentinel = reinterpret_cast<tb_buffer*>(std::uintptr_t{0x5e11});

void check(tb_status status, bool outputs_untouched) {
  if (status < TB_OK || status > TB_INTERNAL) fail("status out of range");
  if (status != TB_OK && tb_last_error()[0] == '\0') fail("failure without a message");
  if (status != TB_OK && !outputs_untouched) fail("output written on failure");
}

constexpr int kSlots = 4;
constexpr std::size_t kBorrowBytes = 512;

struct Program {
  FuzzInput& in;
  tb_buffer* slots[kSlots] = {};
  alignas(16) std::uint8_t memory[kSlots][kBorrowBytes] = {};
  int releases[kSlots] = {};
  int borrowed[kSlots] = {};     // successful borrows whose release has not run yet
  tb_buffer* dead[kSlots] = {};  // destroyed handles

  bool flag() { return (in.take<std::uint8_t>() & 1) != 0; }
  // A handle, NULL (one time in eight) or a destroyed one (one in eight).
  tb_buffer* handle() {
    const int kind = in.take<std::uint8_t>() & 7;
    const int slot = static_cast<int>(in.range(0, kSlots - 1));
    return kind == 0 ? nullptr : kind == 1 ? dead[slot] : slots[slot];
  }
  // Enum values outside the enumerations but inside their C++ range (a C++ caller cannot pass
  // others; c_api/bad_enums.c passes any int from C).
  tb_dtype dtype() { return static_cast<tb_dtype>(in.range(0, 15)); }
  tb_oob oob() { return static_cast<tb_oob>(in.range(0, 3)); }
  int ndim() { return static_cast<int>(in.range(-1, TB_MAX_NDIM + 1)); }
  void dims(std::int64_t* d, int n) {
    for (int i = 0; i < n; ++i) d[i] = in.range(-1, 5);
  }
  std::size_t struct_size(std::size_t real) {
    return in.take<std::uint8_t>() % 8 == 0 ? static_cast<std::size_t>(in.range(0, 64)) : real;
  }

  // A destroyed handle's value is never a live handle's (generations are not reused).
  bool is_dead(const tb_buffer* h) const {
    for (const tb_buffer* d : dead) {
      if (h != nullptr && h == d) return true;
    }
    return false;
  }

  void store(int slot, tb_buffer* b) {
    if (slots[slot] != nullptr) {
      tb_buffer_destroy(slots[slot]);
      dead[slot] = slots[slot];
    }
    slots[slot] = b;
  }

  void step() {
    const int slot = static_cast<int>(in.range(0, kSlots - 1));
    tb_buffer* out = kSentinel;
    std::int64_t d[TB_MAX_NDIM + 2] = {};
    switch (in.range(0, 9)) {
      case 0: {
        const int n = ndim();
        dims(d, n < 0 ? 0 : n);
        const tb_status s = tb_buffer_create(dtype(), n, flag() ? d : nullptr, &out);
        check(s, out == kSentinel);
        if (s == TB_OK) store(slot, out);
        break;
      }
      case 1: {  // borrow_ex over this slot's memory, with a counting release
        const int n = ndim();
        dims(d, n < 0 ? 0 : n);
        long long elements = 1;
        for (int i = 0; i < n; ++i) elements *= d[i] < 0 ? 1 : d[i];
        if (elements * 8 + 4 > static_cast<long long>(kBorrowBytes)) break;  // memory stays valid
        if (borrowed[slot] != releases[slot]) break;  // this slot's memory is still lent
        tb_borrow_desc desc{struct_size(sizeof(tb_borrow_desc)),
                            memory[slot] + in.range(0, 1) * 4,
                            dtype(),
                            n,
                            d,
                            {static_cast<int>(in.range(-1, 2)), 0},
                            static_cast<int>(in.range(0, 1)),
                            nullptr,
                            [](void* ctx, void*) { ++*static_cast<int*>(ctx); },
                            &releases[slot]};
        const int before = releases[slot];
        const tb_status s = tb_buffer_borrow_ex(flag() ? &desc : nullptr, &out);
        check(s, out == kSentinel);
        if (releases[slot] != before) fail("release ran during borrow");
        if (s == TB_OK) {
          ++borrowed[slot];
          store(slot, out);
        }
        break;
      }
      case 2: {
        std::uint8_t host[kBorrowBytes];
        const std::size_t bytes = static_cast<std::size_t>(in.range(0, kBorrowBytes));
        if (flag()) {
          check(tb_buffer_copy_to_host(handle(), flag() ? host : nullptr, bytes), true);
        } else {
          std::memset(host, in.take<std::uint8_t>(), sizeof host);
          check(tb_buffer_copy_from_host(handle(), flag() ? host : nullptr, bytes), true);
        }
        break;
      }
      case 3: {
        int n = -7;
        tb_dtype t = TB_BFLOAT16;  // a sentinel: left alone on failure
        tb_buffer* h = handle();
        const tb_status s1 = tb_buffer_shape(h, &n, d);
        check(s1, n == -7);
        if (is_dead(h) && s1 != TB_INVALID_ARGUMENT) fail("a destroyed handle was accepted");
        check(tb_buffer_dtype(handle(), flag() ? &t : nullptr), t == TB_BFLOAT16);
        break;
      }
      case 4: {
        tb_buffer* t = handle();
        tb_buffer* i = handle();
        tb_buffer* u = handle();
        tb_scatter_options o{struct_size(sizeof o), oob(), static_cast<int>(in.range(0, 1)),
                             nullptr};
        switch (in.range(0, 3)) {
          case 0:
            check(tb_tensor_scatter_nd_sub_in_place(t, i, u, oob(), nullptr), true);
            break;
          case 1:
            check(tb_tensor_scatter_nd_max(t, i, u, oob(), nullptr, &out), out == kSentinel);
            break;
          case 2:
            check(tb_tensor_scatter_nd_add_in_place_ex(t, i, u, &o), true);
            break;
          default:
            check(tb_tensor_scatter_nd_update_ex(t, i, u, flag() ? &o : nullptr, &out),
                  out == kSentinel);
        }
        if (out != kSentinel) store(slot, out);
        break;
      }
      case 5: {
        tb_buffer* t = handle();
        tb_buffer* m = handle();
        tb_buffer* u = handle();
        const int axis = static_cast<int>(in.range(-3, 3));
        tb_mask_update_options o{struct_size(sizeof o), axis, static_cast<int>(in.range(0, 1)),
                                 nullptr};
        if (flag()) {
          check(flag() ? tb_boolean_mask_update_in_place(t, m, u, axis, nullptr)
                       : tb_boolean_mask_update_in_place_ex(t, m, u, &o),
                true);
        } else {
          check(flag() ? tb_boolean_mask_update(t, m, u, axis, nullptr, &out)
                       : tb_boolean_mask_update_ex(t, m, u, &o, &out),
                out == kSentinel);
          if (out != kSentinel) store(slot, out);
        }
        break;
      }
      case 6: {
        tb_buffer* o = handle();
        tb_buffer* c = handle();
        tb_buffer* p = handle();
        tb_buffer* l = handle();
        const int n = ndim();
        dims(d, n < 0 ? 0 : n);
        tb_substr_options opt{struct_size(sizeof opt), static_cast<tb_substr_unit>(in.range(0, 1)),
                              oob(), nullptr};
        tb_buffer* out_chars = kSentinel;
        int out_ndim = -7;
        std::int64_t out_shape[TB_MAX_NDIM] = {};
        const tb_status s = tb_substr(o, c, n, d, p, l, flag() ? &opt : nullptr, &out, &out_chars,
                                      &out_ndim, out_shape);
        check(s, out == kSentinel && out_chars == kSentinel && out_ndim == -7);
        if (s == TB_OK) {
          store(slot, out);
          tb_buffer_destroy(out_chars);
        }
        break;
      }
      case 7: {  // export, and import back (or drop the capsule)
        DLManagedTensorVersioned* capsule = nullptr;
        const tb_status s = tb_buffer_to_dlpack_versioned(handle(), nullptr, &capsule);
        check(s, capsule == nullptr);
        if (s == TB_OK) {
          const tb_status s2 =
              tb_buffer_from_dlpack_versioned(capsule, nullptr, flag() ? &out : nullptr);
          check(s2, out == kSentinel);
          if (s2 == TB_OK) store(slot, out);
        }
        break;
      }
      case 8:
        check(tb_synchronize({static_cast<int>(in.range(-1, 2)), 0}, nullptr), true);
        break;
      default:
        if (flag() && dead[slot] != nullptr) {  // a second destroy: nothing, and an error
          tb_buffer_destroy(dead[slot]);
          if (std::strcmp(tb_last_error(),
                          "tb_buffer_destroy: buffer is a destroyed or invalid handle") != 0) {
            fail("a second destroy was not refused");
          }
        } else {
          store(slot, nullptr);
        }
        break;
    }
  }

  ~Program() {
    for (tb_buffer*& b : slots) tb_buffer_destroy(b);
    for (int i = 0; i < kSlots; ++i) {
      if (releases[i] != borrowed[i]) fail("a release ran other than once per borrow");
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  Program program{in};
  for (int steps = 0; steps < 24 && !in.empty(); ++steps) program.step();
  return 0;
}
