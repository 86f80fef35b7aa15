#include "mpi/agreement.hpp"

#include "core/error_macros.hpp"
#include "core/plan_scatter_nd.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::dist::detail {
namespace {

// The settings' words are tensorbuf/spellings.hpp's, the ones the caller wrote them with.
template <class Enum>
std::string spelled(std::int64_t value) {
  return std::string(spelling(static_cast<Enum>(value)));
}
std::string flag_text(std::int64_t flag) { return flag != 0 ? "true" : "false"; }
std::string number_text(std::int64_t value) { return std::to_string(value); }

// The op's name, from the op table.
std::string_view op_name(OpId op) {
  switch (op) {
    case OpId::kMaskUpdateShardedMask:
    case OpId::kMaskUpdateReplicatedMask:
      return spelling(OpFamily::kBooleanMaskUpdate);
    case OpId::kSubstr:
      return spelling(OpFamily::kSubstr);
    case OpId::kGatherNd:
      return spelling(OpFamily::kGatherNd);
    case OpId::kMaskShardedMask:
    case OpId::kMaskReplicatedMask:
      return spelling(OpFamily::kBooleanMask);
    case OpId::kProcess:
      return "Processor";
    default:
      return core::scatter_op_name(static_cast<core::ScatterOp>(op));
  }
}

// The op as the disagreement message says it: the mask ops' overloads are told apart.
std::string op_text(std::int64_t op) {
  const auto id = static_cast<OpId>(op);
  const std::string name(op_name(id));
  switch (id) {
    case OpId::kMaskUpdateShardedMask:
    case OpId::kMaskShardedMask:
      return name + " with a sharded mask";
    case OpId::kMaskUpdateReplicatedMask:
    case OpId::kMaskReplicatedMask:
      return name + " with a replicated mask";
    default:
      return name;
  }
}

}  // namespace

OpId scatter_op_id(core::ScatterOp op) { return static_cast<OpId>(op); }

Setting device_setting(const Device& device) {
  return {"device", static_cast<std::int64_t>(device.kind), &spelled<Device::Kind>};
}
Setting policy_setting(OutOfBoundsPolicy policy) {
  return {"out-of-bounds policy", static_cast<std::int64_t>(policy), &spelled<OutOfBoundsPolicy>};
}
Setting flag_setting(std::string_view what, bool flag) { return {what, flag ? 1 : 0, &flag_text}; }
Setting number_setting(std::string_view what, std::int64_t value) {
  return {what, value, &number_text};
}
Setting unit_setting(SubstrUnit unit) {
  return {"unit", static_cast<std::int64_t>(unit), &spelled<SubstrUnit>};
}

std::vector<std::vector<BufferDesc>> agree_call(const Comm& comm, const Call& call) {
  Record record;
  record.add(static_cast<std::int64_t>(call.op));
  for (const Setting& s : call.settings) record.add(s.value);
  for (const Operand& o : call.operands) record.add(o.desc);
  const std::vector<std::vector<std::int64_t>> words = allgather(comm, record.words());
  const std::size_t ranks = words.size();

  // The op first: until the ranks agree on it, their records need not even have the same form.
  std::vector<std::int64_t> ops;
  for (const auto& w : words) ops.push_back(w.at(0));
  const std::string_view who = op_name(static_cast<OpId>(ops[0]));
  check_agreed(who, "op", ops, &op_text);
  raise_if_any(comm, call.failure);

  std::vector<std::vector<std::int64_t>> settings(call.settings.size());
  std::vector<std::vector<BufferDesc>> operands(call.operands.size());
  for (const auto& w : words) {
    RecordReader reader(w);
    reader.next();  // the op
    for (auto& s : settings) s.push_back(reader.next());
    for (auto& o : operands) o.push_back(reader.next_desc());
  }
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const Operand& operand = call.operands[i];
    const std::vector<BufferDesc>& all = operands[i];
    if (operand.spread == Spread::kSharded) {
      check_shards(who, *operand.layout, all, operand.what);
      continue;
    }
    if (operand.spread != Spread::kReplicated) continue;
    for (std::size_t q = 1; q < ranks; ++q) {
      TENSORBUF_EXPECTS(all[q].dtype == all[0].dtype && all[q].dims == all[0].dims,
                        InvalidArgumentError,
                        core::str_cat(who, ": rank ", q, " passes ", operand.what, " ",
                                      desc_text(all[q]), ", rank 0 ", desc_text(all[0]),
                                      " (a replicated operand must be the same on every rank)"));
    }
  }
  for (std::size_t i = 0; i < settings.size(); ++i) {
    check_agreed(who, call.settings[i].what, settings[i], call.settings[i].text);
  }
  return operands;
}

}  // namespace tensorbuf::dist::detail
