// Moving rows between ranks: MPI_Alltoallv in a row datatype, in rounds of point-to-point
// messages when a count or displacement would pass INT_MAX (spec/distributed.md D3). MPI moves
// bytes; it never reduces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensorbuf/dist.hpp"

namespace tensorbuf::dist::detail {

// Collective: recv[p] = what rank p sends to this rank (MPI_Alltoall of one int64 each).
std::vector<std::int64_t> exchange_counts(const Comm& comm, const std::vector<std::int64_t>& send);

// Where each source's rows start in the receive buffer of exchange_rows (size()+1 entries, the
// last the total): grouped by source in rank order (reversed under the test hook below).
std::vector<std::int64_t> source_starts(const std::vector<std::int64_t>& recv_counts);

// Collective. `send` holds send_counts[p] rows of `row_bytes` for each rank p, grouped by
// destination in rank order; `recv` receives recv_counts[p] rows from each rank p at
// source_starts(recv_counts)[p] (each source's rows in the order it sent them). Every rank
// passes the same row_bytes. With `self_placed`, this rank's own rows are not in `send` (no
// group for it there) and the caller has already put them in their place in `recv`: MPI copies
// them no more. When no rank moves more than the round limit (INT_MAX rows by default) in
// total, this is one MPI_Alltoallv straight from `send` to `recv`; otherwise rounds of at most
// `limit` rows between any two ranks, point to point from `send` to `recv` (no staging). Both
// buffers may be device memory when MPI is CUDA-aware (cuda_aware.hpp).
void exchange_rows(const Comm& comm, const void* send, const std::vector<std::int64_t>& send_counts,
                   void* recv, const std::vector<std::int64_t>& recv_counts, std::size_t row_bytes,
                   bool self_placed = false);

// Tests only: the round limit in rows (0 restores INT_MAX); placing the sources' rows in
// reverse rank order (the negative control: a wrong apply order must be caught); how many
// MPI_Alltoallv calls the last exchange_rows made.
void set_round_limit_for_testing(std::int64_t rows);
void set_reverse_sources_for_testing(bool reverse);
int last_exchange_calls_for_testing();

}  // namespace tensorbuf::dist::detail
