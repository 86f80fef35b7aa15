// Comm (a duplicated communicator) and RowLayout.
#include <algorithm>

#include "core/error_macros.hpp"
#include "mpi/collective.hpp"
#include "tensorbuf/dist.hpp"

namespace tensorbuf::dist {

using core::str_cat;

struct Comm::Handle {
  MPI_Comm comm = MPI_COMM_NULL;
  detail::Scratch scratch;
  ~Handle() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

Comm::Comm(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  TENSORBUF_EXPECTS(initialized != 0, InvalidArgumentError,
                    "tensorbuf::dist::Comm: MPI is not initialised (call MPI_Init first)");
  TENSORBUF_EXPECTS(comm != MPI_COMM_NULL, InvalidArgumentError,
                    "tensorbuf::dist::Comm: MPI_COMM_NULL is not a communicator");
  auto handle = std::make_shared<Handle>();
  MPI_Comm_dup(comm, &handle->comm);
  MPI_Comm_rank(handle->comm, &rank_);
  MPI_Comm_size(handle->comm, &size_);
  handle_ = std::move(handle);
}

MPI_Comm Comm::get() const { return handle_->comm; }

detail::Scratch& detail::CommAccess::scratch(const Comm& comm) { return comm.handle_->scratch; }

RowLayout RowLayout::block(std::int64_t rows, int ranks) {
  TENSORBUF_EXPECTS(rows >= 0 && ranks >= 1, InvalidArgumentError,
                    str_cat("RowLayout::block: need rows >= 0 and ranks >= 1, got rows = ", rows,
                            ", ranks = ", ranks));
  RowLayout layout;
  layout.offsets.assign(static_cast<std::size_t>(ranks) + 1, 0);
  const std::int64_t base = rows / ranks;
  const std::int64_t extra = rows % ranks;
  for (int q = 0; q < ranks; ++q) {
    layout.offsets[q + 1] = layout.offsets[q] + base + (q < extra ? 1 : 0);
  }
  return layout;
}

RowLayout RowLayout::from_local(const Comm& comm, std::int64_t local_rows) {
  std::vector<std::vector<std::int64_t>> all;
  all = detail::allgather(comm, {local_rows});
  RowLayout layout;
  layout.offsets.assign(all.size() + 1, 0);
  for (std::size_t q = 0; q < all.size(); ++q) {
    const std::int64_t rows = all[q][0];
    // Every rank sees every count, so every rank raises the same error.
    TENSORBUF_EXPECTS(
        rows >= 0, InvalidArgumentError,
        str_cat("RowLayout::from_local: rank ", q, " has ", rows, " local rows (must be >= 0)"));
    TENSORBUF_EXPECTS(!__builtin_add_overflow(layout.offsets[q], rows, &layout.offsets[q + 1]),
                      InvalidArgumentError,
                      "RowLayout::from_local: the total row count overflows int64");
  }
  return layout;
}

std::int64_t RowLayout::rows_of(int rank) const {
  TENSORBUF_EXPECTS(rank >= 0 && rank < ranks(), OutOfRangeError,
                    str_cat("RowLayout: rank ", rank, " outside [0, ", ranks(), ")"));
  return offsets[rank + 1] - offsets[rank];
}

int RowLayout::owner(std::int64_t row) const {
  TENSORBUF_EXPECTS(row >= 0 && row < rows(), OutOfRangeError,
                    str_cat("RowLayout: row ", row, " outside [0, ", rows(), ")"));
  // The last rank whose first row is <= row: zero-row ranks are skipped.
  const auto it = std::upper_bound(offsets.begin(), offsets.end(), row);
  return static_cast<int>(it - offsets.begin()) - 1;
}

}  // namespace tensorbuf::dist
