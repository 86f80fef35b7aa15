// The table of C API calls the error tests run: every function returning a status, with valid
// arguments, any one of its pointer arguments replaceable by NULL.
#include "c_api/fixture.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::testing {
namespace {

// `p`, or NULL when it is pointer argument `k` and `null_arg == k`.
template <class T>
T* arg(T* p, int null_arg, int k) {
  return null_arg == k ? nullptr : p;
}

// A handle argument: `p`, or a.stand_in when it is pointer argument `k` and `null_arg == k`.
tb_buffer* handle_arg(CApiArguments& a, tb_buffer* p, int null_arg, int k) {
  if (null_arg != k) return p;
  ++a.stand_ins_passed;
  return a.stand_in;
}

// A processor handle argument: `p`, or a.processor_stand_in when it is pointer argument `k` and
// `null_arg == k`.
tb_processor* processor_arg(CApiArguments& a, tb_processor* p, int null_arg, int k) {
  if (null_arg != k) return p;
  ++a.stand_ins_passed;
  return a.processor_stand_in;
}

// The four calls of one combine of the op table, each followed by a comma.
#define TB_SCATTER_CALLS_(op, enumerator, what)                                                   \
  CApiCall{"tb_tensor_scatter_nd_" #op "_in_place", 3,                                            \
           [](CApiArguments& a, int n) {                                                          \
             return tb_tensor_scatter_nd_##op##_in_place(                                         \
                 handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.indices.get, n, 1),           \
                 handle_arg(a, a.updates.get, n, 2), TB_OOB_DEFAULT, nullptr);                    \
           }},                                                                                    \
      CApiCall{"tb_tensor_scatter_nd_" #op, 4,                                                    \
               [](CApiArguments& a, int n) {                                                      \
                 return tb_tensor_scatter_nd_##op(handle_arg(a, a.tensor.get, n, 0),              \
                                                  handle_arg(a, a.indices.get, n, 1),             \
                                                  handle_arg(a, a.updates.get, n, 2),             \
                                                  TB_OOB_DEFAULT, nullptr, arg(&a.out, n, 3));    \
               }},                                                                                \
      CApiCall{"tb_tensor_scatter_nd_" #op "_in_place_ex", 4,                                     \
               [](CApiArguments& a, int n) {                                                      \
                 return tb_tensor_scatter_nd_##op##_in_place_ex(                                  \
                     handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.indices.get, n, 1),       \
                     handle_arg(a, a.updates.get, n, 2), arg(&a.scatter, n, 3));                  \
               }},                                                                                \
      CApiCall{"tb_tensor_scatter_nd_" #op "_ex", 5, [](CApiArguments& a, int n) {                \
                 return tb_tensor_scatter_nd_##op##_ex(handle_arg(a, a.tensor.get, n, 0),         \
                                                       handle_arg(a, a.indices.get, n, 1),        \
                                                       handle_arg(a, a.updates.get, n, 2),        \
                                                       arg(&a.scatter, n, 3), arg(&a.out, n, 4)); \
               }},

}  // namespace

std::vector<CApiCall> all_calls() {
  return {
      {"tb_buffer_create", 2,
       [](CApiArguments& a, int n) {
         return tb_buffer_create(TB_FLOAT32, 1, arg(a.shape, n, 0), arg(&a.out, n, 1));
       }},
      {"tb_buffer_borrow", 3,
       [](CApiArguments& a, int n) {
         return tb_buffer_borrow(arg(a.borrowed, n, 0), TB_FLOAT32, 1, arg(a.shape, n, 1), {0, 0},
                                 0, nullptr, arg(&a.out, n, 2));
       }},
      {"tb_buffer_borrow_ex", 2,
       [](CApiArguments& a, int n) {
         return tb_buffer_borrow_ex(arg(&a.borrow, n, 0), arg(&a.out, n, 1));
       }},
      {"tb_buffer_note_external_write", 1,
       [](CApiArguments& a, int n) {
         return tb_buffer_note_external_write(handle_arg(a, a.tensor.get, n, 0));
       }},
      {"tb_buffer_copy_to_host", 2,
       [](CApiArguments& a, int n) {
         return tb_buffer_copy_to_host(handle_arg(a, a.tensor.get, n, 0), arg(a.host, n, 1),
                                       sizeof a.host);
       }},
      {"tb_buffer_copy_from_host", 2,
       [](CApiArguments& a, int n) {
         return tb_buffer_copy_from_host(handle_arg(a, a.tensor.get, n, 0), arg(a.host, n, 1),
                                         sizeof a.host);
       }},
      {"tb_buffer_dtype", 2,
       [](CApiArguments& a, int n) {
         return tb_buffer_dtype(handle_arg(a, a.tensor.get, n, 0), arg(&a.dtype, n, 1));
       }},
      {"tb_buffer_shape", 3,
       [](CApiArguments& a, int n) {
         return tb_buffer_shape(handle_arg(a, a.tensor.get, n, 0), arg(&a.ndim, n, 1),
                                arg(a.dims, n, 2));
       }},
      {"tb_synchronize", 0,
       [](CApiArguments&, int) {
         return tb_synchronize(tb_device{0, 0}, nullptr);
       }},
      TENSORBUF_SCATTER_COMBINES(TB_SCATTER_CALLS_)  // every combine of the op table
      {"tb_boolean_mask_update_in_place", 3,
       [](CApiArguments& a, int n) {
         return tb_boolean_mask_update_in_place(handle_arg(a, a.tensor.get, n, 0),
                                                handle_arg(a, a.mask.get, n, 1),
                                                handle_arg(a, a.scalar.get, n, 2), 0, nullptr);
       }},
      {"tb_boolean_mask_update", 4,
       [](CApiArguments& a, int n) {
         return tb_boolean_mask_update(
             handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.mask.get, n, 1),
             handle_arg(a, a.scalar.get, n, 2), 0, nullptr, arg(&a.out, n, 3));
       }},
      {"tb_boolean_mask_update_in_place_ex", 4,
       [](CApiArguments& a, int n) {
         return tb_boolean_mask_update_in_place_ex(
             handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.mask.get, n, 1),
             handle_arg(a, a.scalar.get, n, 2), arg(&a.mask_update, n, 3));
       }},
      {"tb_boolean_mask_update_ex", 5,
       [](CApiArguments& a, int n) {
         return tb_boolean_mask_update_ex(
             handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.mask.get, n, 1),
             handle_arg(a, a.scalar.get, n, 2), arg(&a.mask_update, n, 3), arg(&a.out, n, 4));
       }},
      // options may be NULL (defaults), so it is not among the pointer arguments.
      {"tb_boolean_mask", 3,
       [](CApiArguments& a, int n) {
         return tb_boolean_mask(handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.mask.get, n, 1),
                                nullptr, arg(&a.out, n, 2));
       }},
      {"tb_boolean_mask_into", 4,
       [](CApiArguments& a, int n) {
         return tb_boolean_mask_into(handle_arg(a, a.tensor.get, n, 0),
                                     handle_arg(a, a.mask.get, n, 1),
                                     handle_arg(a, a.masked.get, n, 2),
                                     handle_arg(a, a.count.get, n, 3), nullptr);
       }},
      {"tb_compress", 3,
       [](CApiArguments& a, int n) {
         return tb_compress(handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.mask.get, n, 1),
                            nullptr, arg(&a.out, n, 2));
       }},
      {"tb_substr", 9,
       [](CApiArguments& a, int n) {
         return tb_substr(handle_arg(a, a.offsets.get, n, 0), handle_arg(a, a.chars.get, n, 1), 1,
                          arg(a.shape, n, 2), handle_arg(a, a.pos.get, n, 3),
                          handle_arg(a, a.len.get, n, 4), &a.substr, arg(&a.out, n, 5),
                          arg(&a.out_chars, n, 6), arg(&a.ndim, n, 7), arg(a.dims, n, 8));
       }},
      {"tb_buffer_to_dlpack_versioned", 2,
       [](CApiArguments& a, int n) {
         return tb_buffer_to_dlpack_versioned(handle_arg(a, a.tensor.get, n, 0), nullptr,
                                              arg(&a.exported, n, 1));
       }},
      {"tb_buffer_from_dlpack_versioned", 2,
       [](CApiArguments& a, int n) {
         return tb_buffer_from_dlpack_versioned(arg(a.capsule.get(), n, 0), nullptr,
                                                arg(&a.out, n, 1));
       }},
      {"tb_gather_nd", 3,
       [](CApiArguments& a, int n) {
         return tb_gather_nd(handle_arg(a, a.tensor.get, n, 0),
                             handle_arg(a, a.indices.get, n, 1), nullptr, arg(&a.out, n, 2));
       }},
      // The elements ops: options may be NULL (defaults), so they are not pointer arguments.
      {"tb_gather", 3,
       [](CApiArguments& a, int n) {
         return tb_gather(handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.indices.get, n, 1),
                          nullptr, arg(&a.out, n, 2));
       }},
      {"tb_gather_elements", 3,
       [](CApiArguments& a, int n) {
         return tb_gather_elements(handle_arg(a, a.tensor.get, n, 0),
                                   handle_arg(a, a.positions.get, n, 1), nullptr,
                                   arg(&a.out, n, 2));
       }},
      {"tb_scatter_elements", 4,
       [](CApiArguments& a, int n) {
         return tb_scatter_elements(
             handle_arg(a, a.tensor.get, n, 0), handle_arg(a, a.positions.get, n, 1),
             handle_arg(a, a.updates.get, n, 2), nullptr, arg(&a.out, n, 3));
       }},
      {"tb_scatter_elements_in_place", 3,
       [](CApiArguments& a, int n) {
         return tb_scatter_elements_in_place(handle_arg(a, a.tensor.get, n, 0),
                                             handle_arg(a, a.positions.get, n, 1),
                                             handle_arg(a, a.updates.get, n, 2), nullptr);
       }},
      // The processing ops: options may be NULL (defaults), so they are not among the pointer
      // arguments; x is the fixture's float32 tensor, scale and zero point one element each.
      {"tb_normalize", 2,
       [](CApiArguments& a, int n) {
         return tb_normalize(handle_arg(a, a.tensor.get, n, 0), 1.0f, 2.0f, nullptr,
                             arg(&a.out, n, 1));
       }},
      {"tb_normalize_channels", 4,
       [](CApiArguments& a, int n) {
         static const float means[1] = {1.0f};
         static const float stddevs[1] = {2.0f};
         return tb_normalize_channels(handle_arg(a, a.tensor.get, n, 0), arg(means, n, 1),
                                      arg(stddevs, n, 2), 1, nullptr, arg(&a.out, n, 3));
       }},
      {"tb_quantize", 2,
       [](CApiArguments& a, int n) {
         return tb_quantize(handle_arg(a, a.tensor.get, n, 0), 3.0f, 0.5f, nullptr,
                            arg(&a.out, n, 1));
       }},
      {"tb_dequantize", 2,
       [](CApiArguments& a, int n) {
         return tb_dequantize(handle_arg(a, a.tensor.get, n, 0), 3.0f, 0.5f, nullptr,
                              arg(&a.out, n, 1));
       }},
      {"tb_cast", 2,
       [](CApiArguments& a, int n) {
         return tb_cast(handle_arg(a, a.tensor.get, n, 0), TB_INT8, nullptr, arg(&a.out, n, 1));
       }},
      {"tb_quantize_linear", 4,
       [](CApiArguments& a, int n) {
         return tb_quantize_linear(handle_arg(a, a.tensor.get, n, 0),
                                   handle_arg(a, a.scalar.get, n, 1),
                                   handle_arg(a, a.zero_point.get, n, 2), nullptr,
                                   arg(&a.out, n, 3));
       }},
      {"tb_dequantize_linear", 4,
       [](CApiArguments& a, int n) {
         return tb_dequantize_linear(handle_arg(a, a.quantized.get, n, 0),
                                     handle_arg(a, a.scalar.get, n, 1),
                                     handle_arg(a, a.zero_point.get, n, 2), nullptr,
                                     arg(&a.out, n, 3));
       }},
      // The Processor: a.processor is normalize(1, 2); run_into writes a.masked (float32 [8]).
      {"tb_processor_create", 2,
       [](CApiArguments& a, int n) {
         return tb_processor_create(arg(a.steps, n, 0), 1, arg(&a.out_processor, n, 1));
       }},
      {"tb_processor_run", 3,
       [](CApiArguments& a, int n) {
         return tb_processor_run(processor_arg(a, a.processor.get, n, 0),
                                 handle_arg(a, a.tensor.get, n, 1), nullptr, arg(&a.out, n, 2));
       }},
      {"tb_processor_run_into", 3,
       [](CApiArguments& a, int n) {
         return tb_processor_run_into(processor_arg(a, a.processor.get, n, 0),
                                      handle_arg(a, a.tensor.get, n, 1),
                                      handle_arg(a, a.masked.get, n, 2), nullptr);
       }},
      {"tb_processor_output_dtype", 2,
       [](CApiArguments& a, int n) {
         return tb_processor_output_dtype(processor_arg(a, a.processor.get, n, 0), TB_UINT8,
                                          arg(&a.dtype, n, 1));
       }},
      {"tb_processor_step_count", 2,
       [](CApiArguments& a, int n) {
         return tb_processor_step_count(processor_arg(a, a.processor.get, n, 0),
                                        arg(&a.step_count, n, 1));
       }},
  };
}

}  // namespace tensorbuf::testing
