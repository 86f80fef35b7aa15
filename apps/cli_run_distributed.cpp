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

namespace tensorbuf::cli {

#if TENSORBUF_CLI_WITH_MPI
namespace {

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

// The op's --distributed runner (RunOp::distributed, beside its single-process one), with the
// flags of its `tensorbuf run` op.
int dispatch(const std::string& op, const std::vector<std::string>& args) {
  const RunOp* run_op = find_run_op(op);
  if (run_op == nullptr) {
    throw InvalidArgumentError("unknown op '" + op +
                               "' for --distributed (see tensorbuf run --help)");
  }
  if (!run_op->distributed) {
    throw InvalidArgumentError("op '" + op +
                               "' has no --distributed form (see tensorbuf run --help)");
  }
  return run_op->distributed(
      Args(args, flags_of(run_op->synopsis), "tensorbuf run " + op + " --distributed"));
}

}  // namespace

void write_sharded(const std::optional<std::string>& out, const Args& flags,
                   const dist::ShardedTensor& tensor) {
  if (out) {
    dist::save_npy(*out, tensor);
  } else {
    dist::save_npy_in_place(flags.required("tensor"), tensor);
  }
}

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
