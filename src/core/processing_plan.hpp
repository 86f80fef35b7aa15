// The fused Processor's plan: the chain's steps for one input dtype and size, as the stages
// the backend runs over each block of elements. Plain data only (DESIGN.md, the op template).
#pragma once

#include <cstdint>
#include <vector>

#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

class ProcessMemos;  // core/process_memos.hpp

// The elements a stage works on at a time: a block's intermediate values stay in the L1 cache
// (1024 x 8 bytes at most), and each stage's loop over it vectorises.
inline constexpr std::int64_t kProcessBlock = 1024;

enum class ProcessStageKind {
  kConvert,  // tensor_buffer.md's conversion, from -> to (cast, and float32(x) of normalize)
  // y = (x - mean[c]) / stddev[c] in float32; from is uint8 (not bool) or float32; to is
  // float32, or float16 when the next step is a cast to float16 (the float32 result then
  // rounded to float16 as that cast does, without a pass over a float32 block in between)
  kNormalize,
};

struct ProcessStage {
  ProcessStageKind kind = ProcessStageKind::kConvert;
  DataType from = DataType::kFloat32;
  DataType to = DataType::kFloat32;
  // kNormalize: the means and stddevs repeated over `period` elements (a multiple of
  // `channels`, at least kProcessBlock + channels - 1 when channels <= kProcessBlock, so a
  // block starting at channel c reads means[c .. c + block) without wrapping; a scalar is
  // repeated too). Owned by the Processor's compiled chain.
  const float* means = nullptr;
  const float* stddevs = nullptr;
  std::int64_t channels = 1;
  std::int64_t period = 1;
};

struct ProcessPlan {
  std::vector<ProcessStage> stages;  // in order; empty: a plain copy
  std::int64_t elements = 0;
  DataType in_type = DataType::kFloat32;
  DataType out_type = DataType::kFloat32;
  // The Processor's memos (what a backend derives from the parameters once), or null.
  ProcessMemos* memos = nullptr;
};

struct ProcessBuffers {
  const void* in = nullptr;
  void* out = nullptr;
};

}  // namespace tensorbuf::core
