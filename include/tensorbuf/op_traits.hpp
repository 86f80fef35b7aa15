// What each op of the op table (tensorbuf/op_table.hpp) takes and whether it can be captured in
// a CUDA graph, keyed by the op's public name (each scatter combine has its own). Kept apart
// from op_table.hpp, which the CUDA sources include, so that this data changes without
// recompiling them. Plain constexpr data. Tests hold the library to it: each op called with
// every DataType on the CPU (tests/core/test_op_table_dtypes.cpp), and src/core/capture's
// decision for each form (tests/core/test_op_table_capture.cpp).
#pragma once

#include <array>
#include <string_view>

#include "tensorbuf/op_table.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

// A set of DataTypes, a bit each (bit i: the enumerator of value i).
namespace dtypes {
constexpr unsigned bit(DataType type) { return 1u << static_cast<unsigned>(type); }
inline constexpr unsigned kNone = 0;  // the input is a StringTensor
inline constexpr unsigned kAll = (1u << (static_cast<unsigned>(DataType::kFloat64) + 1)) - 1;
inline constexpr unsigned kNumeric = kAll & ~bit(DataType::kBool);
inline constexpr unsigned kFloating = bit(DataType::kFloat16) | bit(DataType::kBFloat16) |
                                      bit(DataType::kFloat32) | bit(DataType::kFloat64);
inline constexpr unsigned kIndex = bit(DataType::kInt32) | bit(DataType::kInt64);
constexpr bool contains(unsigned set, DataType type) { return (set & bit(type)) != 0; }
}  // namespace dtypes

// Whether an op's forms can be captured in a CUDA graph (docs/capture.md, "Forms that can be
// captured"); the decision is src/core/capture's, made on the host before anything is enqueued.
enum class Capture {
  kAlways,       // every form
  kConditional,  // the forms `capture_when` names; the others raise UnavailableError
  kNever         // every form raises UnavailableError in a capture
};

struct OpTraits {
  std::string_view name;          // as in kOpFamilies (scatter: each combine's name)
  unsigned dtypes;                // the first input's accepted dtypes (dtypes::k*, bits)
  unsigned index_dtypes;          // those of index_inputs; kNone without them
  std::string_view index_inputs;  // "indices"; substr: "pos, len"
  Capture capture;
  std::string_view capture_when;  // kConditional: the capturable forms, in short
};

// The default options' form: scatter_elements with a reduction other than none also rejects
// bool; the in-place forms take what the out-of-place forms take.
inline constexpr auto kOpTraits = std::to_array<OpTraits>({
    {"tensor_scatter_nd_sub", dtypes::kNumeric, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"tensor_scatter_nd_add", dtypes::kNumeric, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"tensor_scatter_nd_update", dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"tensor_scatter_nd_min", dtypes::kNumeric, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"tensor_scatter_nd_max", dtypes::kNumeric, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"tensor_scatter_nd_mul", dtypes::kNumeric, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"boolean_mask_update", dtypes::kAll, dtypes::kNone, "", Capture::kConditional,
     "updates with no dim of size n (a scalar, one row), or an empty mask"},
    {"substr", dtypes::kNone, dtypes::kIndex, "pos, len", Capture::kConditional,
     "out_of_bounds kDrop (not kError), input broadcast at most 4 times"},
    {"boolean_mask", dtypes::kAll, dtypes::kNone, "", Capture::kNever, ""},
    {"boolean_mask_into", dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {"compress", dtypes::kAll, dtypes::kNone, "", Capture::kNever, ""},
    {"normalize", dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {"quantize", dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {"dequantize", dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {"cast", dtypes::kAll, dtypes::kNone, "", Capture::kAlways, ""},
    {"quantize_linear", dtypes::kFloating | dtypes::bit(DataType::kInt32), dtypes::kNone, "",
     Capture::kConditional, "scale and zero_point valid on the host"},
    {"dequantize_linear",
     dtypes::bit(DataType::kUInt8) | dtypes::bit(DataType::kInt8) | dtypes::bit(DataType::kInt16) |
         dtypes::bit(DataType::kInt32),
     dtypes::kNone, "", Capture::kConditional, "scale and zero_point valid on the host"},
    {"gather_nd", dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"gather", dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"gather_elements", dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
    {"scatter_elements", dtypes::kAll, dtypes::kIndex, "indices", Capture::kConditional,
     "out_of_bounds kDrop (not kError)"},
});

// The traits of the op named `name`; null when it has none.
constexpr const OpTraits* find_op_traits(std::string_view name) {
  for (const OpTraits& traits : kOpTraits) {
    if (traits.name == name) return &traits;
  }
  return nullptr;
}

// Every op of the table has its traits.
constexpr bool every_op_has_traits() {
  bool all = true;
  for (const OpFamilyInfo& family : kOpFamilies) {
    for_each_op_name(family,
                     [&](std::string_view name) { all = all && find_op_traits(name) != nullptr; });
  }
  return all;
}
static_assert(every_op_has_traits(), "an op of kOpFamilies has no kOpTraits row");

}  // namespace tensorbuf
