// The Processor on a row-sharded tensor (spec/processing.md 4: it runs on each shard, no payload
// moves). The agreement step checks that every rank runs a Processor, on the same device kind,
// with the same steps (a fingerprint of each step's name, parameters and dtype), on shards that
// fit the layout; the chain is checked against the global shape; then each rank runs it on its
// own rows. The result keeps the layout,
// so its rank-order concatenation is the single-process run on the gathered tensor, bit for
// bit (the chain is elementwise along dim 0).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "core/dispatch.hpp"
#include "core/process_execute.hpp"
#include "mpi/agreement.hpp"
#include "mpi/collective.hpp"
#include "tensorbuf/dist.hpp"
#include "tensorbuf/processing.hpp"

namespace tensorbuf::dist {
namespace {

// FNV-1a, 64 bits, over the bytes of each step's name, means, stddevs and cast dtype.
class Fingerprint {
 public:
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) hash_ = (hash_ ^ p[i]) * 0x100000001b3ull;
  }
  template <class T>
  void add_value(const T& value) {
    add(&value, sizeof value);
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

std::int64_t fingerprint_of(const Processor& processor) {
  Fingerprint f;
  f.add_value(processor.steps().size());
  for (const ProcessStep& step : processor.steps()) {
    f.add_value(step.name().size());
    f.add(step.name().data(), step.name().size());
    f.add_value(step.means().size());
    f.add(step.means().data(), step.means().size() * sizeof(float));
    f.add_value(step.stddevs().size());
    f.add(step.stddevs().data(), step.stddevs().size() * sizeof(float));
    f.add_value(static_cast<std::int64_t>(step.cast_type()));
  }
  std::int64_t value = 0;
  const std::uint64_t hash = f.value();
  std::memcpy(&value, &hash, sizeof value);
  return value;
}

std::string steps_text(std::int64_t fingerprint) {
  char text[32];
  std::snprintf(text, sizeof text, "fingerprint %016llx",
                static_cast<unsigned long long>(static_cast<std::uint64_t>(fingerprint)));
  return text;
}

}  // namespace

ShardedTensor process(const Processor& processor, const ShardedTensor& tensor,
                      const ProcessOptions& options) {
  detail::Call call{detail::OpId::kProcess};
  const detail::Resolved agreed = detail::resolve_call(call, options, tensor.local());
  call.settings.push_back({"steps", fingerprint_of(processor), &steps_text});
  call.operands = {
      {"tensor", detail::describe(tensor.local()), detail::Spread::kSharded, &tensor.layout()}};
  detail::agree_call(tensor.comm(), call);
  // The chain's checks on a shape-only stand-in of the global tensor (nothing allocated), so a
  // message names the global shape as the single-process run's does; the same on every rank.
  (void)core::plan_processor_run(
      processor.steps(),
      TensorBuffer::create_uninitialized(tensor.global_shape(), tensor.local().data_type()));
  const ProcessOptions local = agreed.local(options);
  std::optional<TensorBuffer> out;
  // A failure of one rank's run (memory, CUDA) is thrown on every rank.
  detail::agree(tensor.comm(), [&] { out.emplace(processor.run(tensor.local(), local)); });
  return ShardedTensor(tensor.comm(), tensor.layout(), std::move(*out));
}

}  // namespace tensorbuf::dist
