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

}  // namespace tensorbuf
