/* docs/c_api.md's C example, compiled with -std=c99 -Wall -Wextra -pedantic -Werror and run by
 * ctest (c_api.example_c) and by scripts/check_install.sh against the installed package. */
#include <stdio.h>
#include <string.h>
#include <tensorbuf/c_api.h>

#define CHECK(call)                                                       \
  do {                                                                    \
    if ((call) != TB_OK) {                                                \
      fprintf(stderr, "%s failed: %s\n", #call, tb_last_error());         \
      return 1;                                                           \
    }                                                                     \
  } while (0)

int main(void) {
  /* The caller's own array, updated in place: tensor[indices] -= updates. */
  float data[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const int64_t shape[1] = {8};
  const tb_device cpu = {0, 0};
  tb_buffer* tensor = NULL;
  CHECK(tb_buffer_borrow(data, TB_FLOAT32, 1, shape, cpu, 0, NULL, &tensor));

  int32_t index_values[4] = {4, 3, 1, 7};
  const int64_t index_shape[2] = {4, 1};
  float update_values[4] = {9, 10, 11, 12};
  const int64_t update_shape[1] = {4};
  tb_buffer* indices = NULL;
  tb_buffer* updates = NULL;
  CHECK(tb_buffer_create(TB_INT32, 2, index_shape, &indices));
  CHECK(tb_buffer_copy_from_host(indices, index_values, sizeof index_values));
  CHECK(tb_buffer_borrow(update_values, TB_FLOAT32, 1, update_shape, cpu, 1, NULL, &updates));
  CHECK(tb_tensor_scatter_nd_sub_in_place(tensor, indices, updates, TB_OOB_DEFAULT, NULL));
  printf("scatter_nd_sub in place: %g %g %g %g %g %g %g %g\n", data[0], data[1], data[2],
         data[3], data[4], data[5], data[6], data[7]); /* 1 -10 1 -9 -8 1 1 -11 */

  /* tensor[mask] = 0, out of place. */
  uint8_t mask_values[8] = {1, 0, 0, 0, 0, 0, 0, 1};
  float zero = 0;
  tb_buffer* mask = NULL;
  tb_buffer* scalar = NULL;
  tb_buffer* masked = NULL;
  CHECK(tb_buffer_borrow(mask_values, TB_BOOL, 1, shape, cpu, 1, NULL, &mask));
  CHECK(tb_buffer_borrow(&zero, TB_FLOAT32, 0, NULL, cpu, 1, NULL, &scalar));
  CHECK(tb_boolean_mask_update(tensor, mask, scalar, 0, NULL, &masked));
  float result[8];
  CHECK(tb_buffer_copy_to_host(masked, result, sizeof result));
  printf("boolean_mask_update: %g ... %g\n", result[0], result[7]); /* 0 ... 0 */

  /* A failing call: its status is the C++ error class, its message is tb_last_error(). */
  index_values[0] = 8;
  CHECK(tb_buffer_copy_from_host(indices, index_values, sizeof index_values));
  const tb_status status =
      tb_tensor_scatter_nd_sub_in_place(tensor, indices, updates, TB_OOB_ERROR, NULL);
  printf("out-of-bounds index: status %d, \"%s\"; data[4] still %g\n", (int)status,
         tb_last_error(), data[4]);

  /* The gather family: params[positions] (-1 is the last), then a scatter-add of duplicates. */
  float params_values[3] = {10, 20, 30};
  int32_t positions[3] = {2, -1, 0};
  float zeros[3] = {0, 0, 0};
  float adds[3] = {1, 2, 3};
  const int64_t three[1] = {3};
  tb_buffer* params = NULL;
  tb_buffer* where = NULL;
  tb_buffer* base = NULL;
  tb_buffer* add_values = NULL;
  tb_buffer* gathered = NULL;
  tb_buffer* sums = NULL;
  CHECK(tb_buffer_borrow(params_values, TB_FLOAT32, 1, three, cpu, 1, NULL, &params));
  CHECK(tb_buffer_borrow(positions, TB_INT32, 1, three, cpu, 1, NULL, &where));
  CHECK(tb_buffer_borrow(zeros, TB_FLOAT32, 1, three, cpu, 1, NULL, &base));
  CHECK(tb_buffer_borrow(adds, TB_FLOAT32, 1, three, cpu, 1, NULL, &add_values));
  CHECK(tb_gather(params, where, NULL, &gathered));
  tb_scatter_elements_options add_options;
  memset(&add_options, 0, sizeof add_options); /* every field's default is zero */
  add_options.struct_size = sizeof add_options;
  add_options.reduction = TB_REDUCTION_ADD;
  positions[1] = 2; /* the borrowed indices now read 2, 2, 0 */
  CHECK(tb_scatter_elements(base, where, add_values, &add_options, &sums));
  float picked[3];
  float summed[3];
  CHECK(tb_buffer_copy_to_host(gathered, picked, sizeof picked));
  CHECK(tb_buffer_copy_to_host(sums, summed, sizeof summed));
  printf("gather: %g %g %g; scatter_elements add: %g %g %g\n", picked[0], picked[1], picked[2],
         summed[0], summed[1], summed[2]); /* 30 30 10; 3 0 3 */
  tb_buffer_destroy(sums);
  tb_buffer_destroy(gathered);
  tb_buffer_destroy(add_values);
  tb_buffer_destroy(base);
  tb_buffer_destroy(where);
  tb_buffer_destroy(params);
  const int gathers_ok = picked[0] == 30 && picked[1] == 30 && picked[2] == 10 &&
                         summed[0] == 3 && summed[1] == 0 && summed[2] == 3;

  /* A Processor: a uint8 image [2, 3] (2 pixels, 3 channels) normalized per channel and cast to
   * int16, in one pass; then a model's int8 output dequantized into a buffer kept by the caller.
   * Unset fields are zero (designated initialisers would do the same). */
  uint8_t pixel_values[6] = {0, 64, 255, 10, 20, 30};
  const int64_t image_shape[2] = {2, 3};
  const float means[3] = {1, 2, 3};
  const float stddevs[3] = {2, 4, 8};
  tb_process_step pre_steps[2];
  memset(pre_steps, 0, sizeof pre_steps);
  pre_steps[0].struct_size = pre_steps[1].struct_size = sizeof(tb_process_step);
  pre_steps[0].kind = TB_STEP_NORMALIZE_CHANNELS;
  pre_steps[0].means = means;
  pre_steps[0].stddevs = stddevs;
  pre_steps[0].channels = 3;
  pre_steps[1].kind = TB_STEP_CAST;
  pre_steps[1].dtype = TB_INT16;
  tb_processor* pre = NULL;
  tb_buffer* image = NULL;
  tb_buffer* input = NULL;
  CHECK(tb_processor_create(pre_steps, 2, &pre));
  CHECK(tb_buffer_borrow(pixel_values, TB_UINT8, 2, image_shape, cpu, 1, NULL, &image));
  CHECK(tb_processor_run(pre, image, NULL, &input));
  int16_t model_input[6];
  CHECK(tb_buffer_copy_to_host(input, model_input, sizeof model_input));
  printf("processor: %d %d %d %d %d %d\n", model_input[0], model_input[1], model_input[2],
         model_input[3], model_input[4], model_input[5]); /* 0 15 31 4 4 3 */

  int8_t logit_values[3] = {-3, 17, 127};
  float scores[3] = {0, 0, 0};
  tb_process_step post_step;
  memset(&post_step, 0, sizeof post_step);
  post_step.struct_size = sizeof post_step;
  post_step.kind = TB_STEP_DEQUANTIZE; /* (q - zero_point) / (1 / scale) */
  post_step.zero_point = -3.0f;
  post_step.scale = 0.25f;
  tb_processor* post = NULL;
  tb_buffer* logits = NULL;
  tb_buffer* score_buffer = NULL;
  CHECK(tb_processor_create(&post_step, 1, &post));
  CHECK(tb_buffer_borrow(logit_values, TB_INT8, 1, three, cpu, 1, NULL, &logits));
  CHECK(tb_buffer_borrow(scores, TB_FLOAT32, 1, three, cpu, 0, NULL, &score_buffer));
  CHECK(tb_processor_run_into(post, logits, score_buffer, NULL));
  printf("dequantize into the caller's array: %g %g %g\n", scores[0], scores[1],
         scores[2]); /* 0 5 32.5 */
  tb_buffer_destroy(score_buffer);
  tb_buffer_destroy(logits);
  tb_buffer_destroy(input);
  tb_buffer_destroy(image);
  tb_processor_destroy(post);
  tb_processor_destroy(pre);
  const int processor_ok = model_input[0] == 0 && model_input[1] == 15 &&
                           model_input[2] == 31 && model_input[3] == 4 && model_input[4] == 4 &&
                           model_input[5] == 3 && scores[0] == 0 && scores[1] == 5 &&
                           scores[2] == 32.5f;

  tb_buffer_destroy(masked);
  tb_buffer_destroy(scalar);
  tb_buffer_destroy(mask);
  tb_buffer_destroy(updates);
  tb_buffer_destroy(indices);
  tb_buffer_destroy(tensor);
  const int ok = status == TB_INVALID_ARGUMENT && data[1] == -10 && result[0] == 0 &&
                 result[7] == 0 && result[1] == -10 && data[4] == -8 && gathers_ok &&
                 processor_ok;
  printf("tensorbuf C API (ABI %u): %s\n", (unsigned)tb_abi_version(), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
