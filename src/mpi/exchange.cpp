#include "mpi/exchange.hpp"

#include <algorithm>
#include <climits>

#include "core/error_macros.hpp"
#include "mpi/collective.hpp"

namespace tensorbuf::dist::detail {
namespace {

std::int64_t g_round_limit = INT_MAX;
int g_last_calls = 0;
bool g_reverse_sources = false;
// The tag of the rounds' messages (the Comm is a duplicate: only tensorbuf's traffic is on it).
constexpr int kRoundTag = 7;

// A contiguous datatype of one row; freed on scope exit.
class RowType {
 public:
  explicit RowType(std::size_t row_bytes) {
    MPI_Type_contiguous(static_cast<int>(row_bytes), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
  }
  ~RowType() { MPI_Type_free(&type_); }
  RowType(const RowType&) = delete;
  RowType& operator=(const RowType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

std::vector<std::int64_t> starts_of(const std::vector<std::int64_t>& counts) {
  std::vector<std::int64_t> starts(counts.size() + 1, 0);
  for (std::size_t p = 0; p < counts.size(); ++p) starts[p + 1] = starts[p] + counts[p];
  return starts;
}

std::vector<int> to_int(const std::vector<std::int64_t>& values) {
  return std::vector<int>(values.begin(), values.end());
}

}  // namespace

void set_round_limit_for_testing(std::int64_t rows) { g_round_limit = rows > 0 ? rows : INT_MAX; }
void set_reverse_sources_for_testing(bool reverse) { g_reverse_sources = reverse; }
int last_exchange_calls_for_testing() { return g_last_calls; }

std::vector<std::int64_t> exchange_counts(const Comm& comm, const std::vector<std::int64_t>& send) {
  std::vector<std::int64_t> recv(send.size());
  MPI_Alltoall(send.data(), 1, MPI_INT64_T, recv.data(), 1, MPI_INT64_T, comm.get());
  return recv;
}

std::vector<std::int64_t> source_starts(const std::vector<std::int64_t>& recv_counts) {
  std::vector<std::int64_t> starts = starts_of(recv_counts);
  if (g_reverse_sources) {
    // The negative control of the tests: sources placed in reverse rank order.
    std::int64_t at = 0;
    for (std::size_t p = recv_counts.size(); p-- > 0;) {
      starts[p] = at;
      at += recv_counts[p];
    }
  }
  return starts;
}

void exchange_rows(const Comm& comm, const void* send,
                   const std::vector<std::int64_t>& all_send_counts, void* recv,
                   const std::vector<std::int64_t>& all_recv_counts, std::size_t row_bytes,
                   bool self_placed) {
  g_last_calls = 0;
  if (row_bytes == 0) return;  // the same on every rank: nothing to move anywhere
  TENSORBUF_EXPECTS(row_bytes <= static_cast<std::size_t>(INT_MAX), InvalidArgumentError,
                    core::str_cat("tensorbuf::dist: a row of ", row_bytes, " bytes is over the ",
                                  INT_MAX, " bytes MPI can describe"));
  const RowType row(row_bytes);
  const int size = comm.size();
  const std::vector<std::int64_t> recv_starts = source_starts(all_recv_counts);
  // Rows the caller placed itself move no more: as if this rank sent none to itself.
  std::vector<std::int64_t> send_counts = all_send_counts, recv_counts = all_recv_counts;
  if (self_placed) send_counts[comm.rank()] = recv_counts[comm.rank()] = 0;
  const std::vector<std::int64_t> send_starts = starts_of(send_counts);
  const std::int64_t received = recv_starts.back();  // displacements reach this far
  const std::int64_t limit = g_round_limit;
  const std::int64_t moved = std::max(send_starts.back(), received);
  if (allreduce_max(comm, moved) <= limit) {
    // Every count and displacement fits the limit (and so an int): one call, no staging.
    const std::vector<int> sc = to_int(send_counts), rc = to_int(recv_counts);
    const std::vector<int> sd = to_int({send_starts.begin(), send_starts.end() - 1});
    const std::vector<int> rd = to_int({recv_starts.begin(), recv_starts.end() - 1});
    MPI_Alltoallv(send, sc.data(), sd.data(), row.get(), recv, rc.data(), rd.data(), row.get(),
                  comm.get());
    g_last_calls = 1;
    return;
  }
  // Rounds of at most `limit` rows between any two ranks, point to point straight from and to
  // the caller's buffers: no displacement to describe, no staging copy, and so the same for
  // host memory and for device memory handed to a CUDA-aware MPI.
  std::int64_t largest = 0;
  for (int p = 0; p < size; ++p) largest = std::max({largest, send_counts[p], recv_counts[p]});
  const std::int64_t rounds = (allreduce_max(comm, largest) + limit - 1) / limit;
  const auto* src = static_cast<const unsigned char*>(send);
  auto* dst = static_cast<unsigned char*>(recv);
  std::vector<MPI_Request> requests;
  for (std::int64_t k = 0; k < rounds; ++k) {
    const std::int64_t skip = k * limit;
    requests.clear();
    for (int p = 0; p < size; ++p) {
      const std::int64_t n = std::clamp<std::int64_t>(recv_counts[p] - skip, 0, limit);
      if (n == 0) continue;
      MPI_Irecv(dst + static_cast<std::size_t>(recv_starts[p] + skip) * row_bytes,
                static_cast<int>(n), row.get(), p, kRoundTag, comm.get(), &requests.emplace_back());
    }
    for (int p = 0; p < size; ++p) {
      const std::int64_t n = std::clamp<std::int64_t>(send_counts[p] - skip, 0, limit);
      if (n == 0) continue;
      MPI_Isend(src + static_cast<std::size_t>(send_starts[p] + skip) * row_bytes,
                static_cast<int>(n), row.get(), p, kRoundTag, comm.get(), &requests.emplace_back());
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    ++g_last_calls;
  }
}

}  // namespace tensorbuf::dist::detail
