// The agreement step every distributed op starts with (spec/distributed.md D3): one all-gather
// of what each rank calls (the op, its resolved options, its operands' descriptors), then the
// same checks on that same data on every rank, so ranks that disagree all throw the same error
// before any data moves. It is each op's first collective, and the same sequence of collectives
// for every op, so even ranks calling different ops meet in it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dispatch.hpp"
#include "mpi/collective.hpp"
#include "mpi/validate.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::dist::detail {

// What a rank calls: the scatter combines in core::ScatterOp's order, then every other
// distributed form in the order it was added (an op with two overloads that run different
// collectives has an id for each). A new form appends its id.
enum class OpId : std::int64_t {
  kScatterSub,
  kMaskUpdateShardedMask = static_cast<std::int64_t>(kScatterCombines.size()),
  kMaskUpdateReplicatedMask,
  kSubstr,
  kGatherNd,
  kMaskShardedMask,
  kMaskReplicatedMask,
  kProcess
};
OpId scatter_op_id(core::ScatterOp op);

// One option as resolved on this rank: every rank must have the same value.
struct Setting {
  std::string_view what;  // "out-of-bounds policy"
  std::int64_t value;
  std::string (*text)(std::int64_t value);
};
Setting device_setting(const Device& device);
Setting policy_setting(OutOfBoundsPolicy policy);
Setting flag_setting(std::string_view what, bool flag);
Setting number_setting(std::string_view what, std::int64_t value);
Setting unit_setting(SubstrUnit unit);

// How an operand's descriptors must relate across ranks.
enum class Spread {
  kSharded,     // rows by `layout`, all else as rank 0's (check_shards)
  kReplicated,  // the same dtype and shape on every rank
  kPerRank,     // checked by the op itself (the scatter's indices and updates)
};
struct Operand {
  std::string_view what;  // "mask"
  BufferDesc desc;
  Spread spread;
  const RowLayout* layout = nullptr;  // kSharded
};

struct Call {
  OpId op;
  std::vector<Setting> settings;
  std::vector<Operand> operands;
  // A local step that failed on this rank (resolving the device, a local check): thrown on
  // every rank once the ranks agree on the op.
  std::optional<Failure> failure;
};

// What every rank resolves before it agrees: the device (options.device, else the local
// operand's) and, for an op with an out_of_bounds option, the policy for that device.
struct Resolved {
  Device device;
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;

  // `options` as this rank runs the local op: the resolved device (and policy).
  template <class Options>
  Options local(Options options) const {
    options.device = device;
    if constexpr (requires { options.out_of_bounds; }) options.out_of_bounds = policy;
    return options;
  }
};

// The agreement step's local part, the same for every op: resolves `options` against `home`
// (this rank's operand), then runs the op's own local `step` (a check, a count), catching a
// failure of either in call.failure; the resolved device (and policy) become the call's first
// settings, the op appends its own after them.
template <class Options, class Step>
Resolved resolve_call(Call& call, const Options& options, const TensorBuffer& home, Step&& step) {
  Resolved out;
  call.failure = attempt([&] {
    out.device = core::resolve_device(options.device, home);
    if constexpr (requires { options.out_of_bounds; }) {
      out.policy = core::resolve_policy(options.out_of_bounds, out.device);
    }
    step();
  });
  call.settings.push_back(device_setting(out.device));
  if constexpr (requires { options.out_of_bounds; }) {
    call.settings.push_back(policy_setting(out.policy));
  }
  return out;
}
template <class Options>
Resolved resolve_call(Call& call, const Options& options, const TensorBuffer& home) {
  return resolve_call(call, options, home, [] {});
}

// Collective. Checks, in this order, that every rank calls the same op, that no rank's local
// step failed, the operands, then the settings; throws the same error on every rank (named by
// rank 0's op) otherwise. Returns every rank's descriptors: [operand][rank].
std::vector<std::vector<BufferDesc>> agree_call(const Comm& comm, const Call& call);

}  // namespace tensorbuf::dist::detail
