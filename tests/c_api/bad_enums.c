/* Enum arguments a C caller may pass: any int. Written in C, where that is well defined (in C++
 * a value outside an enumeration's range is not); test_errors.cpp calls it. Returns the number
 * of calls that did not fail with TB_INVALID_ARGUMENT and untouched outputs. */
#include <stddef.h>
#include <tensorbuf/c_api.h>

int tb_test_out_of_range_enums(tb_buffer* tensor, const tb_buffer* indices,
                               const tb_buffer* updates, const tb_buffer* offsets,
                               const tb_buffer* chars, const tb_buffer* pos,
                               const tb_buffer* len) {
  static const int bad[] = {-1, 10, 99, -2147483647 - 1, 2147483647};
  const int64_t shape[1] = {2};
  float data[2] = {0, 0};
  const tb_device cpu = {0, 0};
  int failures = 0;
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    tb_buffer* out = NULL;
    tb_buffer* out_chars = NULL;
    int out_ndim = -1;
    int64_t out_shape[TB_MAX_NDIM] = {0};
    tb_scatter_options scatter = {sizeof(tb_scatter_options), TB_OOB_DEFAULT, 0, NULL, NULL};
    tb_substr_options substr = {sizeof(tb_substr_options), TB_UNIT_BYTE, TB_OOB_DEFAULT, NULL,
                                NULL};
    tb_borrow_desc desc = {
        sizeof(tb_borrow_desc), data, TB_FLOAT32, 1, shape, {0, 0}, 0, NULL, NULL, NULL, 0};
    scatter.oob = (tb_oob)bad[i];
    substr.unit = (tb_substr_unit)bad[i];
    desc.dtype = (tb_dtype)bad[i];
    failures += tb_buffer_create((tb_dtype)bad[i], 1, shape, &out) != TB_INVALID_ARGUMENT;
    failures += tb_buffer_borrow(data, (tb_dtype)bad[i], 1, shape, cpu, 0, NULL, &out) !=
                TB_INVALID_ARGUMENT;
    failures += tb_buffer_borrow_ex(&desc, &out) != TB_INVALID_ARGUMENT;
    failures += tb_tensor_scatter_nd_add_in_place(tensor, indices, updates, (tb_oob)bad[i],
                                                  NULL) != TB_INVALID_ARGUMENT;
    failures += tb_tensor_scatter_nd_min(tensor, indices, updates, (tb_oob)bad[i], NULL, &out) !=
                TB_INVALID_ARGUMENT;
    failures += tb_tensor_scatter_nd_max_in_place_ex(tensor, indices, updates, &scatter) !=
                TB_INVALID_ARGUMENT;
    failures += tb_substr(offsets, chars, 1, shape, pos, len, &substr, &out, &out_chars,
                          &out_ndim, out_shape) != TB_INVALID_ARGUMENT;
    substr.unit = TB_UNIT_BYTE;
    substr.oob = (tb_oob)bad[i];
    failures += tb_substr(offsets, chars, 1, shape, pos, len, &substr, &out, &out_chars,
                          &out_ndim, out_shape) != TB_INVALID_ARGUMENT;
    {
      tb_gather_options gather = {sizeof(tb_gather_options), TB_OOB_DEFAULT, 0, 0, NULL, NULL};
      gather.oob = (tb_oob)bad[i];
      failures += tb_gather_nd(tensor, indices, &gather, &out) != TB_INVALID_ARGUMENT;
      failures += tb_gather(tensor, indices, &gather, &out) != TB_INVALID_ARGUMENT;
      failures += tb_gather_elements(tensor, indices, &gather, &out) != TB_INVALID_ARGUMENT;
    }
    {
      tb_scatter_elements_options elements = {
          sizeof(tb_scatter_elements_options), TB_OOB_DEFAULT, 0, TB_REDUCTION_ADD, 0, NULL, NULL};
      elements.oob = (tb_oob)bad[i];
      failures += tb_scatter_elements(tensor, indices, updates, &elements, &out) !=
                  TB_INVALID_ARGUMENT;
      elements.oob = TB_OOB_DEFAULT;
      elements.reduction = (tb_reduction)bad[i];
      failures += tb_scatter_elements(tensor, indices, updates, &elements, &out) !=
                  TB_INVALID_ARGUMENT;
      failures += tb_scatter_elements_in_place(tensor, indices, updates, &elements) !=
                  TB_INVALID_ARGUMENT;
    }
    failures += tb_cast(tensor, (tb_dtype)bad[i], NULL, &out) != TB_INVALID_ARGUMENT;
    {
      tb_process_step step = {sizeof(tb_process_step), TB_STEP_CAST, 0, 0, 0, 0, NULL, NULL, 0,
                              TB_FLOAT32};
      tb_processor* processor = NULL;
      tb_dtype type = TB_BOOL;
      step.kind = (tb_step_kind)bad[i];
      failures += tb_processor_create(&step, 1, &processor) != TB_INVALID_ARGUMENT;
      step.kind = TB_STEP_CAST;
      step.dtype = (tb_dtype)bad[i];
      failures += tb_processor_create(&step, 1, &processor) != TB_INVALID_ARGUMENT;
      failures += processor != NULL;
      step.dtype = TB_FLOAT32;
      failures += tb_processor_create(&step, 1, &processor) != TB_OK;
      failures += tb_processor_output_dtype(processor, (tb_dtype)bad[i], &type) !=
                  TB_INVALID_ARGUMENT;
      failures += type != TB_BOOL;
      tb_processor_destroy(processor);
    }
    failures += out != NULL || out_chars != NULL || out_ndim != -1 || out_shape[0] != 0;
  }
  return failures;
}
