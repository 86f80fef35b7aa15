// Valid arguments for every C API function, and the table of calls the error tests run.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "interop/dlpack_capsules.hpp"
#include "tensorbuf/c_api.h"

namespace tensorbuf::testing {

// A handle freed at scope exit.
struct Handle {
  tb_buffer* get = nullptr;
  Handle() = default;
  explicit Handle(tb_buffer* b) : get(b) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { tb_buffer_destroy(get); }
};

// A processor handle freed at scope exit.
struct ProcessorHandle {
  tb_processor* get = nullptr;
  ProcessorHandle() = default;
  explicit ProcessorHandle(tb_processor* p) : get(p) {}
  ProcessorHandle(const ProcessorHandle&) = delete;
  ProcessorHandle& operator=(const ProcessorHandle&) = delete;
  ~ProcessorHandle() { tb_processor_destroy(get); }
};

// A processor of `steps` (each step's struct_size set here).
inline tb_processor* make_processor(std::vector<tb_process_step> steps) {
  for (tb_process_step& s : steps) s.struct_size = sizeof(tb_process_step);
  tb_processor* p = nullptr;
  EXPECT_EQ(tb_processor_create(steps.data(), static_cast<std::int64_t>(steps.size()), &p), TB_OK)
      << tb_last_error();
  return p;
}

template <class T>
tb_buffer* make_buffer(tb_dtype dtype, std::vector<std::int64_t> shape, std::vector<T> values) {
  tb_buffer* b = nullptr;
  EXPECT_EQ(tb_buffer_create(dtype, static_cast<int>(shape.size()), shape.data(), &b), TB_OK)
      << tb_last_error();
  EXPECT_EQ(tb_buffer_copy_from_host(b, values.data(), values.size() * sizeof(T)), TB_OK)
      << tb_last_error();
  return b;
}

template <class T>
std::vector<T> contents(const tb_buffer* b, std::size_t n) {
  std::vector<T> out(n);
  EXPECT_EQ(tb_buffer_copy_to_host(b, out.data(), n * sizeof(T)), TB_OK) << tb_last_error();
  return out;
}

// One valid argument of each kind: a float32 [8] tensor, int32 [4, 1] indices, float32 [4]
// updates, a bool [8] mask, a float32 scalar, the strings {"hello", "ab"} and int32 [2] pos/len.
struct CApiArguments {
  Handle tensor{make_buffer<float>(TB_FLOAT32, {8}, {1, 1, 1, 1, 1, 1, 1, 1})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {4, 1}, {4, 3, 1, 7})};
  Handle updates{make_buffer<float>(TB_FLOAT32, {4}, {9, 10, 11, 12})};
  Handle mask{make_buffer<std::uint8_t>(TB_BOOL, {8}, {1, 0, 0, 0, 0, 0, 0, 1})};
  Handle scalar{make_buffer<float>(TB_FLOAT32, {}, {5})};
  Handle offsets{make_buffer<std::int64_t>(TB_INT64, {3}, {0, 5, 7})};
  Handle chars{make_buffer<std::uint8_t>(TB_UINT8, {7}, {'h', 'e', 'l', 'l', 'o', 'a', 'b'})};
  Handle pos{make_buffer<std::int32_t>(TB_INT32, {2}, {1, 0})};
  Handle len{make_buffer<std::int32_t>(TB_INT32, {2}, {3, 1})};
  // boolean_mask_into's caller-sized output (capacity 8) and its count.
  Handle masked{make_buffer<float>(TB_FLOAT32, {8}, {0, 0, 0, 0, 0, 0, 0, 0})};
  Handle count{make_buffer<std::int64_t>(TB_INT64, {1}, {0})};
  // quantize_linear's zero point (uint8, one element) and dequantize_linear's input.
  Handle zero_point{make_buffer<std::uint8_t>(TB_UINT8, {}, {3})};
  Handle quantized{make_buffer<std::uint8_t>(TB_UINT8, {2}, {0, 255})};
  // The elements ops' indices: int32 [4], of the tensor's rank (gather_elements, scatter_elements).
  Handle positions{make_buffer<std::int32_t>(TB_INT32, {4}, {4, 3, 1, 7})};
  // A processor, normalize(1, 2) (float32 -> float32), and the steps of one.
  ProcessorHandle processor{make_processor({tb_process_step{0, TB_STEP_NORMALIZE, 1.0f, 2.0f}})};
  tb_process_step steps[1] = {{sizeof(tb_process_step), TB_STEP_NORMALIZE, 1.0f, 2.0f}};
  std::int64_t shape[1] = {2};
  float host[8] = {};
  std::int64_t dims[TB_MAX_NDIM] = {};
  int ndim = -1;
  tb_dtype dtype = TB_FLOAT16;
  tb_scatter_options scatter{sizeof(tb_scatter_options), TB_OOB_DEFAULT, 0, nullptr};
  tb_mask_update_options mask_update{sizeof(tb_mask_update_options), 0, 1, nullptr};
  tb_substr_options substr{sizeof(tb_substr_options), TB_UNIT_BYTE, TB_OOB_DEFAULT, nullptr};
  float borrowed[8] = {};
  tb_borrow_desc borrow{
      sizeof(tb_borrow_desc), borrowed, TB_FLOAT32, 1, shape, {0, 0}, 0, nullptr, nullptr, nullptr};
  VersionedCapsule capsule{borrowed, {8}, kF32};
  // Outputs: a sentinel each, so a test sees that a failing call left them alone.
  tb_buffer* const sentinel = reinterpret_cast<tb_buffer*>(std::uintptr_t{0x5e11});
  tb_buffer* out = sentinel;
  tb_buffer* out_chars = sentinel;
  DLManagedTensorVersioned* exported = reinterpret_cast<DLManagedTensorVersioned*>(0x5e11);
  tb_processor* const processor_sentinel = reinterpret_cast<tb_processor*>(std::uintptr_t{0x5e11});
  tb_processor* out_processor = processor_sentinel;
  std::int64_t step_count = -1;
  // What a call passes for its replaced argument when that is a handle (NULL, or a destroyed or
  // forged handle), and how many handles it replaced (handle_arg).
  tb_buffer* stand_in = nullptr;
  tb_processor* processor_stand_in = nullptr;  // the same, for a processor handle argument
  int stand_ins_passed = 0;

  bool outputs_untouched() const {
    return out == sentinel && out_chars == sentinel && ndim == -1 && dtype == TB_FLOAT16 &&
           dims[0] == 0 && exported == reinterpret_cast<DLManagedTensorVersioned*>(0x5e11) &&
           out_processor == processor_sentinel && step_count == -1 &&
           contents<float>(masked.get, 8) == std::vector<float>(8, 0.0f);
  }
  // Frees whatever a successful call produced.
  void free_outputs() {
    if (out != sentinel) tb_buffer_destroy(out);
    if (out_chars != sentinel) tb_buffer_destroy(out_chars);
    if (exported != reinterpret_cast<DLManagedTensorVersioned*>(0x5e11)) {
      exported->deleter(exported);
    }
    if (out_processor != processor_sentinel) tb_processor_destroy(out_processor);
    out_processor = processor_sentinel;
    step_count = -1;
    out = out_chars = sentinel;
    exported = reinterpret_cast<DLManagedTensorVersioned*>(0x5e11);
  }
};

// `call(arguments, k)` passes NULL for its k-th pointer argument (k < pointer_count; -1: none),
// or arguments.stand_in when that argument is a buffer handle.
struct CApiCall {
  std::string name;
  int pointer_count;
  std::function<tb_status(CApiArguments&, int)> call;
};

// Every function of <tensorbuf/c_api.h> that returns a status, called with valid arguments.
std::vector<CApiCall> all_calls();

}  // namespace tensorbuf::testing
