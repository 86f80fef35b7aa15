// exchange_rows with `self_placed` (the scatter's own rows go straight to the receive buffer):
// every other source's rows land at source_starts, the caller's own slot is left as it was,
// in one call and in rounds.
#include "mpi/exchange.hpp"
#include "mpi/helpers.hpp"

namespace tensorbuf::dist::testing {
namespace {

// Rank `from` sends 1 + (from + to) % 3 rows to rank `to`; row k of them is the value
// 1000000 * from + 1000 * to + k (8 bytes).
std::int64_t rows_between(int from, int to) { return 1 + (from + to) % 3; }
std::int64_t row_value(int from, int to, std::int64_t k) { return 1000000 * from + 1000 * to + k; }

// Runs one exchange with the own rows placed by the caller (a sentinel value) and returns
// whether every rank received exactly what it should.
bool exchange_with_own_rows_placed() {
  const int size = world_size(), rank = world_rank();
  std::vector<std::int64_t> send_counts, recv_counts, send;
  for (int p = 0; p < size; ++p) {
    send_counts.push_back(rows_between(rank, p));
    recv_counts.push_back(rows_between(p, rank));
    if (p == rank) continue;  // no group for this rank in the send buffer
    for (std::int64_t k = 0; k < send_counts.back(); ++k) send.push_back(row_value(rank, p, k));
  }
  const std::vector<std::int64_t> starts = detail::source_starts(recv_counts);
  std::vector<std::int64_t> recv(static_cast<std::size_t>(starts.back()), -1);
  for (std::int64_t k = 0; k < recv_counts[rank]; ++k) recv[starts[rank] + k] = -7;
  detail::exchange_rows(world(), send.data(), send_counts, recv.data(), recv_counts, 8, true);
  std::vector<std::int64_t> expected;
  for (int p = 0; p < size; ++p) {
    for (std::int64_t k = 0; k < recv_counts[p]; ++k)
      expected.push_back(p == rank ? -7 : row_value(p, rank, k));
  }
  EXPECT_EQ(recv, expected) << "rank " << rank;
  return all_ranks(recv == expected);
}

TEST(DistExchange, D3_OwnRowsPlacedByTheCallerStayAndOthersArrive) {
  EXPECT_TRUE(exchange_with_own_rows_placed());
  EXPECT_EQ(detail::last_exchange_calls_for_testing(), 1);
}

TEST(DistExchange, D4_OwnRowsPlacedByTheCallerInRounds) {
  // The most rows between two ranks (their own rows excluded: the caller placed them).
  std::int64_t most = 0;
  for (int from = 0; from < world_size(); ++from) {
    for (int to = 0; to < world_size(); ++to)
      if (from != to) most = std::max(most, rows_between(from, to));
  }
  for (const std::int64_t limit : {1, 2}) {
    SCOPED_TRACE(::testing::Message() << "round limit " << limit);
    detail::set_round_limit_for_testing(limit);
    const bool ok = exchange_with_own_rows_placed();
    const int calls = detail::last_exchange_calls_for_testing();
    detail::set_round_limit_for_testing(0);
    EXPECT_TRUE(ok);
    // Rounds of at most `limit` rows between two ranks (the last one partial for limit 2).
    if (world_size() > 1) {
      EXPECT_EQ(calls, (most + limit - 1) / limit);
    }
  }
}

}  // namespace
}  // namespace tensorbuf::dist::testing
