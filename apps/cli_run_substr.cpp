// `tensorbuf run substr`: TensorFlow's tf.strings.substr on a dtype S .npy file (docs/substr.md).
#include "cli.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::cli {
namespace {

int run_substr(const Args& flags) {
  const auto options = options_from<SubstrOptions>(flags);
  const std::string& out = flags.required("out");
  const StringTensor input = load_npy_strings(flags.required("input"));
  const TensorBuffer pos = load_npy_tensor(flags.required("pos"));
  const TensorBuffer len = load_npy_tensor(flags.required("len"));
  save_npy(out, substr(input, pos, len, options));
  return kExitOk;
}

#if TENSORBUF_CLI_WITH_MPI
// The input split by rows; pos and len whole on every rank.
int run_substr_distributed(const Args& flags) {
  const auto options = options_from<SubstrOptions>(flags);
  const std::string& out = flags.required("out");
  const dist::Comm comm(MPI_COMM_WORLD);
  const dist::ShardedStrings input = dist::load_npy_strings(comm, flags.required("input"));
  const TensorBuffer pos = load_npy_tensor(flags.required("pos"));
  const TensorBuffer len = load_npy_tensor(flags.required("len"));
  dist::save_npy(out, dist::substr(input, pos, len, options));
  return kExitOk;
}
#endif

std::vector<RunOp> string_run_ops() {
  return {{.name = "substr",
           .synopsis = "--input S.npy --pos P.npy --len L.npy --out O.npy\n[--unit " +
                       spelling_list<SubstrUnit>("|", "|") + "] " + kPolicyUsage + " " +
                       kDeviceUsage,
           .about = "TensorFlow's tf.strings.substr. input: dtype S; pos, len: int32 or int64, "
                    "same\nshape, broadcast against input. The output is written as dtype S.\n",
           .run = run_substr,
           .distributed = TENSORBUF_CLI_DISTRIBUTED(run_substr_distributed)}};
}

const RunOpRegistration registration(&string_run_ops);

}  // namespace
}  // namespace tensorbuf::cli
