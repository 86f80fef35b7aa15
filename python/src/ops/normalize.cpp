// normalize's Python row (op_binder.hpp).
#include "op_binder.hpp"

TENSORBUF_PYTHON_OP(
    normalize, ProcessOptions, Inputs<in::Target, in::Numbers, in::Numbers>{},
    Keywords<kw::Device, kw::Stream>{},
    [](const TensorBuffer& x, const in::Numbers::value& mean, const in::Numbers::value& stddev,
       const ProcessOptions& options) {
      if (mean.index() == 0) return normalize(x, std::get<0>(mean), std::get<0>(stddev), options);
      return normalize(x, std::get<1>(mean), std::get<1>(stddev), options);
    },
    "TFLite Support's NormalizeOp: (float32(x) - mean) / stddev in float32; numbers, or "
    "sequences of one per channel (x's last axis). mean 0 with stddev 1 is the identity "
    "(x's own memory, x's dtype)")
