// `mpiexec -n N tensorbuf run <op> ... --distributed` (spec/distributed.md D4): each rank reads
// its block of rows with MPI-IO, runs the distributed op, and writes its rows of the output;
// the file equals the single-process one byte for byte. Errors are the same on every rank;
// rank 0 prints them.
#include <chrono>
#include <iostream>
#include <sstream>
#include <thread>
#include <utility>

#include "cli.hpp"
#include "tensorbuf/spellings.hpp"

#if TENSORBUF_CLI_WITH_MPI
#include "tensorbuf/dist.hpp"
#include "tensorbuf/op_table.hpp"
#endif

namespace tensorbuf::cli {

#if TENSORBUF_CLI_WITH_MPI
namespace {

using DistScatter = void (*)(dist::ShardedTensor&, const TensorBuffer&, const TensorBuffer&,
                             const ScatterOptions&);

// MPI_Init for the length of the command (a singleton run without mpiexec is one rank).
class MpiSession {
 public:
  MpiSession() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
      MPI_Init(nullptr, nullptr);
      owned_ = true;
    }
  }
  ~MpiSession() {
    if (owned_) MPI_Finalize();
  }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool owned_ = false;
};

// Waits until every rank got here, at most a few seconds: an error that only some ranks hold
// (none should) must not hang the others, so then the job is aborted with `status`.
void wait_for_every_rank(int status) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  const double deadline = MPI_Wtime() + 5.0;
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done == 0) {
    if (MPI_Wtime() > deadline) MPI_Abort(MPI_COMM_WORLD, status);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The result: to --out (a new file), or with --in-place into the tensor file's data itself,
// as the single-process --in-place leaves it.
void write_tensor(const std::optional<std::string>& out, const Args& flags,
                  const dist::ShardedTensor& tensor) {
  if (out) {
    dist::save_npy(*out, tensor);
  } else {
    dist::save_npy_in_place(flags.required("tensor"), tensor);
  }
}

int run_scatter(DistScatter fn, const Args& flags) {
  const auto options = options_from<ScatterOptions>(flags);
  const std::optional<std::string> out = output_path(flags);
  const dist::Comm comm(MPI_COMM_WORLD);
  dist::ShardedTensor tensor = dist::load_npy(comm, flags.required("tensor"));
  // Indices and updates are split by rows too: this rank's block of each.
  const dist::ShardedTensor indices = dist::load_npy(comm, flags.required("indices"));
  const dist::ShardedTensor updates = dist::load_npy(comm, flags.required("updates"));
  fn(tensor, indices.local(), updates.local(), options);
  write_tensor(out, flags, tensor);
  return kExitOk;
}

int run_mask_update(const Args& flags) {
  const auto options = options_from<BooleanMaskUpdateOptions>(flags);
  const std::optional<std::string> out = output_path(flags);
  const dist::Comm comm(MPI_COMM_WORLD);
  dist::ShardedTensor tensor = dist::load_npy(comm, flags.required("tensor"));
  const TensorBuffer updates = load_npy_tensor(flags.required("updates"));  // whole, every rank
  const int rank = tensor.global_shape().rank();
  if (options.axis == 0 || options.axis == -rank) {
    // The mask by rows, laid out as the tensor (both block layouts of the same row count).
    const dist::ShardedTensor mask = dist::load_npy(comm, flags.required("mask"));
    dist::boolean_mask_update_in_place(tensor, mask, updates, options);
  } else {
    const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
    dist::boolean_mask_update_in_place(tensor, mask, updates, options);
  }
  write_tensor(out, flags, tensor);
  return kExitOk;
}

int run_substr(const Args& flags) {
  const auto options = options_from<SubstrOptions>(flags);
  const std::string& out = flags.required("out");
  const dist::Comm comm(MPI_COMM_WORLD);
  const dist::ShardedStrings input = dist::load_npy_strings(comm, flags.required("input"));
  const TensorBuffer pos = load_npy_tensor(flags.required("pos"));  // whole, every rank
  const TensorBuffer len = load_npy_tensor(flags.required("len"));
  dist::save_npy(out, dist::substr(input, pos, len, options));
  return kExitOk;
}

// The embedding lookup: params and indices split by rows, each rank asks for its block of
// index rows and writes its rows of the answer (the rank-order concatenation is the whole).
int run_gather_nd(const Args& flags) {
  const auto options = options_from<GatherOptions>(flags);
  const std::string& out = flags.required("out");
  const dist::Comm comm(MPI_COMM_WORLD);
  const dist::ShardedTensor params = dist::load_npy(comm, flags.required("params"));
  const dist::ShardedTensor indices = dist::load_npy(comm, flags.required("indices"));
  TensorBuffer local = dist::gather_nd(params, indices.local(), options);
  const std::int64_t rows = local.shape()[0];  // indices have rank >= 2: the result rank >= 1
  dist::save_npy(
      out, dist::ShardedTensor(comm, dist::RowLayout::from_local(comm, rows), std::move(local)));
  return kExitOk;
}

// tensor[mask] along axis 0 with the mask split as the tensor; along another axis the mask is
// whole on every rank and each rank selects in its rows.
int run_boolean_mask(const Args& flags) {
  const auto options = options_from<BooleanMaskOptions>(flags);
  const std::string& out = flags.required("out");
  const dist::Comm comm(MPI_COMM_WORLD);
  const dist::ShardedTensor tensor = dist::load_npy(comm, flags.required("tensor"));
  const int rank = tensor.global_shape().rank();
  if (options.axis == 0 || options.axis == -rank) {
    const dist::ShardedTensor mask = dist::load_npy(comm, flags.required("mask"));
    dist::save_npy(out, dist::boolean_mask(tensor, mask, options));
  } else {
    const TensorBuffer mask = load_npy_tensor(flags.required("mask"));
    dist::save_npy(out, dist::boolean_mask(tensor, mask, options));
  }
  return kExitOk;
}

// The ops with a distributed form. Each parses the flags of its `tensorbuf run` op (run_ops()).
int dispatch(const std::string& op, const std::vector<std::string>& args) {
  static const std::pair<std::string_view, DistScatter> kScatterOps[] = {
#define TENSORBUF_DIST_SCATTER_FN(name, op, what) \
  {"tensor_scatter_nd_" #name, &dist::tensor_scatter_nd_##name##_in_place},
      TENSORBUF_SCATTER_COMBINES(TENSORBUF_DIST_SCATTER_FN)
#undef TENSORBUF_DIST_SCATTER_FN
  };
  static const std::pair<std::string_view, int (*)(const Args&)> kOps[] = {
      {"boolean_mask_update", &run_mask_update},
      {"substr", &run_substr},
      {"gather_nd", &run_gather_nd},
      {"boolean_mask", &run_boolean_mask}};
  const RunOp* run_op = find_run_op(op);
  if (run_op == nullptr) {
    throw InvalidArgumentError("unknown op '" + op +
                               "' for --distributed (see tensorbuf run --help)");
  }
  const auto flags = [&] {
    return Args(args, flags_of(run_op->synopsis), "tensorbuf run " + op + " --distributed");
  };
  for (const auto& [name, fn] : kScatterOps) {
    if (op == name) return run_scatter(fn, flags());
  }
  for (const auto& [name, fn] : kOps) {
    if (op == name) return fn(flags());
  }
  throw InvalidArgumentError("op '" + op +
                             "' has no --distributed form (see tensorbuf run --help)");
}

}  // namespace

int run_distributed(const std::string& op, const std::vector<std::string>& args) {
  MpiSession session;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    return dispatch(op, args);
  } catch (const std::exception& e) {
    // Every rank holds the same error (the distributed ops agree on it): rank 0 prints it once,
    // the others exit with the same status silently -- but only once rank 0 has printed, since
    // mpiexec kills the whole job at the first non-zero exit.
    std::ostringstream quiet;
    std::streambuf* const saved = rank == 0 ? nullptr : std::cerr.rdbuf(quiet.rdbuf());
    const int status = report_error(e);
    if (saved != nullptr) std::cerr.rdbuf(saved);
    std::cerr.flush();
    wait_for_every_rank(status);
    return status;
  }
}

#else

int run_distributed(const std::string&, const std::vector<std::string>&) {
  throw InvalidArgumentError(
      "--distributed needs a tensorbuf built with MPI (TENSORBUF_WITH_MPI=ON); this one was "
      "built without it");
}

#endif

}  // namespace tensorbuf::cli
