// TEMPORARY, removed before the work lands: definitions of public functions whose op is being
// built, so that every target links meanwhile. Each op's author deletes its own block.
#include "core/error_macros.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/string_tensor.hpp"

namespace tensorbuf {
namespace {
[[noreturn]] void pending(const char* what) {
  throw UnavailableError(std::string(what) + " is not built yet");
}
}  // namespace

// --- scatter (issue 4) ---
#define TENSORBUF_PENDING_SCATTER(name)                                                    \
  TensorBuffer name(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,         \
                    const ScatterOptions&) { pending(#name); }                             \
  void name##_in_place(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,            \
                       const ScatterOptions&) { pending(#name); }
TENSORBUF_PENDING_SCATTER(tensor_scatter_nd_sub)
TENSORBUF_PENDING_SCATTER(tensor_scatter_nd_add)
TENSORBUF_PENDING_SCATTER(tensor_scatter_nd_update)
TENSORBUF_PENDING_SCATTER(tensor_scatter_nd_min)
TENSORBUF_PENDING_SCATTER(tensor_scatter_nd_max)
// --- end scatter ---

// --- boolean_mask_update (issue 5) ---
TensorBuffer boolean_mask_update(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                 const BooleanMaskUpdateOptions&) { pending("boolean_mask_update"); }
void boolean_mask_update_in_place(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                  const BooleanMaskUpdateOptions&) { pending("boolean_mask_update"); }
// --- end boolean_mask_update ---

}  // namespace tensorbuf
