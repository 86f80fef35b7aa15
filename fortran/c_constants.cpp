// What fortran.constants compares the module tensorbuf_c with: the constants and struct
// layouts of <tensorbuf/c_api.h>, by name, and the op table's scatter combines with the list
// fortran/CMakeLists.txt read from it (TENSORBUF_FORTRAN_COMBINES) to generate the module's,
// and its ops that claim Fortran with the list of wrappers the test names
// (TENSORBUF_FORTRAN_OPS, op_table_procedures.inc).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "tensorbuf/c_api.h"
#include "tensorbuf/op_table.hpp"

namespace {

struct Constant {
  const char* name;
  std::int64_t value;
  bool asked = false;
};

#define TB_CONSTANT_(name) \
  { #name, name }
#define TB_SIZE_(type) \
  { "sizeof(" #type ")", sizeof(type) }
#define TB_OFFSET_(type, member) \
  { "offsetof(" #type ", " #member ")", offsetof(type, member) }
Constant constants[] = {
    TB_CONSTANT_(TB_OK),
    TB_CONSTANT_(TB_INVALID_ARGUMENT),
    TB_CONSTANT_(TB_OUT_OF_RANGE),
    TB_CONSTANT_(TB_UNAVAILABLE),
    TB_CONSTANT_(TB_RESOURCE_EXHAUSTED),
    TB_CONSTANT_(TB_INTERNAL),
    TB_CONSTANT_(TB_BOOL),
    TB_CONSTANT_(TB_UINT8),
    TB_CONSTANT_(TB_INT8),
    TB_CONSTANT_(TB_INT16),
    TB_CONSTANT_(TB_INT32),
    TB_CONSTANT_(TB_INT64),
    TB_CONSTANT_(TB_FLOAT16),
    TB_CONSTANT_(TB_BFLOAT16),
    TB_CONSTANT_(TB_FLOAT32),
    TB_CONSTANT_(TB_FLOAT64),
    TB_CONSTANT_(TB_OOB_DEFAULT),
    TB_CONSTANT_(TB_OOB_ERROR),
    TB_CONSTANT_(TB_OOB_DROP),
    TB_CONSTANT_(TB_UNIT_BYTE),
    TB_CONSTANT_(TB_UNIT_UTF8_CHAR),
    TB_CONSTANT_(TB_MAX_NDIM),
    TB_SIZE_(tb_device),
    TB_SIZE_(tb_scatter_options),
    TB_SIZE_(tb_mask_update_options),
    TB_SIZE_(tb_substr_options),
    TB_SIZE_(tb_borrow_desc),
    TB_OFFSET_(tb_scatter_options, device),
    TB_OFFSET_(tb_mask_update_options, device),
    TB_OFFSET_(tb_substr_options, device),
    TB_OFFSET_(tb_borrow_desc, release_ctx),
    TB_OFFSET_(tb_borrow_desc, cache_mirror),
    TB_SIZE_(tb_gather_options),
    TB_OFFSET_(tb_gather_options, batch_dims),
    TB_OFFSET_(tb_gather_options, device),
    TB_CONSTANT_(TB_REDUCTION_NONE),
    TB_CONSTANT_(TB_REDUCTION_ADD),
    TB_CONSTANT_(TB_REDUCTION_MUL),
    TB_CONSTANT_(TB_REDUCTION_MIN),
    TB_CONSTANT_(TB_REDUCTION_MAX),
    TB_SIZE_(tb_scatter_elements_options),
    TB_OFFSET_(tb_scatter_elements_options, reduction),
    TB_OFFSET_(tb_scatter_elements_options, device),
    TB_CONSTANT_(TB_STEP_NORMALIZE),
    TB_CONSTANT_(TB_STEP_NORMALIZE_CHANNELS),
    TB_CONSTANT_(TB_STEP_QUANTIZE),
    TB_CONSTANT_(TB_STEP_DEQUANTIZE),
    TB_CONSTANT_(TB_STEP_CAST),
    TB_SIZE_(tb_process_step),
    TB_OFFSET_(tb_process_step, scale),
    TB_OFFSET_(tb_process_step, means),
    TB_OFFSET_(tb_process_step, channels),
    TB_OFFSET_(tb_process_step, dtype),
    TB_SIZE_(tb_boolean_mask_options),
    TB_OFFSET_(tb_boolean_mask_options, device),
    TB_SIZE_(tb_compress_options),
    TB_OFFSET_(tb_compress_options, axis),
    TB_OFFSET_(tb_compress_options, device),
    TB_SIZE_(tb_process_options),
    TB_OFFSET_(tb_process_options, device),
    TB_SIZE_(tb_quantize_linear_options),
    TB_OFFSET_(tb_quantize_linear_options, device),
    TB_CONSTANT_(TB_ABI_VERSION),
};
#undef TB_CONSTANT_
#undef TB_SIZE_
#undef TB_OFFSET_

}  // namespace

// By reference only, as last_message.c (tensorbuf_c.f90 says why).
extern "C" {

// *value = the C value of `name` (its `length` characters, as the table above spells it);
// returns 0 when the table has no such name.
int tensorbuf_test_c_constant(const char* name, const std::size_t* length, std::int64_t* value) {
  const std::string_view wanted(name, *length);
  for (Constant& c : constants) {
    if (wanted == c.name) {
      c.asked = true;
      *value = c.value;
      return 1;
    }
  }
  return 0;
}

// The constants no Fortran check asked for (printed): the module should have each.
int tensorbuf_test_unasked_constants() {
  int unasked = 0;
  for (const Constant& c : constants) {
    if (!c.asked) std::printf("FAILED: the Fortran test never checks %s\n", c.name);
    unasked += c.asked ? 0 : 1;
  }
  return unasked;
}

// 1 when the combines the Fortran module was generated for are the op table's, in its order.
int tensorbuf_test_fortran_combines_match() {
  std::string table;
  for (const auto& combine : tensorbuf::kScatterCombines) {
    if (!table.empty()) table += ",";
    table += combine.suffix;
  }
  if (table == TENSORBUF_FORTRAN_COMBINES) return 1;
  std::printf("FAILED: the op table's combines are %s, the Fortran module's %s\n", table.c_str(),
              TENSORBUF_FORTRAN_COMBINES);
  return 0;
}

// 1 when the wrappers test_constants.f90 names are the ops of the table's rows that claim
// surface::kFortran, each with its _in_place form, in the table's order.
int tensorbuf_test_fortran_ops_match() {
  std::string table;
  for (const tensorbuf::OpFamilyInfo& family : tensorbuf::kOpFamilies) {
    if ((family.surfaces & tensorbuf::surface::kFortran) == 0) continue;
    tensorbuf::for_each_op_name(family, [&](std::string_view name) {
      for (const bool in_place : {false, true}) {
        if (in_place && !family.in_place) continue;
        if (!table.empty()) table += ',';
        table.append(name);
        if (in_place) table += "_in_place";
      }
    });
  }
  if (table == TENSORBUF_FORTRAN_OPS) return 1;
  std::printf("FAILED: the op table's Fortran ops are %s, the test names %s\n", table.c_str(),
              TENSORBUF_FORTRAN_OPS);
  return 0;
}

}  // extern "C"
