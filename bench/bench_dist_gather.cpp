// mpiexec -n P tensorbuf_bench_dist_gather [ROWS [LOOKUPS [REPS]]]: dist::gather_nd of LOOKUPS
// random rows (all ranks together, default 1M, split in blocks) of 64 float32 from a table of
// ROWS rows (default 1M) sharded in blocks: the embedding lookup. Prints one markdown row: the
// op's median time (slowest rank; in parentheses the largest rank's CPU time), the bytes the
// busiest rank sends as counted from its requests (requests to other owners x 8 B, answers to
// other ranks x 256 B) against the cost model ((L/P)(1 - 1/P)(256 + 8)), the two
// MPI_Alltoallv of the same counts alone (requests, then answers: the limit) and the ratio,
// and the single-process gather_nd of this rank's lookups on a local table of the shard's size
// (what one rank's answering costs).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <utility>
#include <vector>

#include "tensorbuf/dist.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;
constexpr std::int64_t kWidth = 64;

double wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpu() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Times {
  double wall = 0;  // median over reps of the slowest rank's wall time
  double cpu = 0;   // median over reps of the largest rank's CPU time
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <class F>
Times measure(int reps, F&& f) {
  std::vector<double> walls, cpus;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double w0 = wall(), c0 = cpu();
    f();
    double mine[2] = {wall() - w0, cpu() - c0}, most[2] = {0, 0};
    MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    walls.push_back(most[0]);
    cpus.push_back(most[1]);
  }
  return Times{median(walls), median(cpus)};
}

// One MPI_Alltoallv of `send[p]` records of `bytes` to each rank p (this rank's own: none).
struct Exchange {
  std::vector<int> sc, sd, rc, rd;
  std::vector<char> sbuf, rbuf;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  Exchange(const std::vector<std::int64_t>& send, const std::vector<std::int64_t>& recv,
           int bytes)
      : sc(send.begin(), send.end()), sd(send.size(), 0), rc(recv.begin(), recv.end()),
        rd(recv.size(), 0) {
    for (std::size_t p = 1; p < sc.size(); ++p) {
      sd[p] = sd[p - 1] + sc[p - 1];
      rd[p] = rd[p - 1] + rc[p - 1];
    }
    sbuf.assign(static_cast<std::size_t>(sd.back() + sc.back()) * bytes, 1);
    rbuf.resize(static_cast<std::size_t>(rd.back() + rc.back()) * bytes);
    MPI_Type_contiguous(bytes, MPI_BYTE, &type);
    MPI_Type_commit(&type);
  }
  ~Exchange() { MPI_Type_free(&type); }
  void run() {
    MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), type, rbuf.data(), rc.data(), rd.data(),
                  type, MPI_COMM_WORLD);
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const std::int64_t rows = argc > 1 ? std::atoll(argv[1]) : 1 << 20;
    const std::int64_t lookups = argc > 2 ? std::atoll(argv[2]) : 1 << 20;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
    const dist::Comm comm(MPI_COMM_WORLD);
    const int rank = comm.rank(), size = comm.size();
    const dist::RowLayout layout = dist::RowLayout::block(rows, size);
    TensorBuffer shard =
        TensorBuffer::create_fixed_size({layout.rows_of(rank), kWidth}, DataType::kFloat32);
    auto* values = shard.mutable_host<float>();
    for (std::int64_t i = 0; i < shard.flat_size(); ++i) values[i] = static_cast<float>(i % 13);
    const dist::ShardedTensor table(comm, layout, std::move(shard));
    const TensorBuffer& local = table.local();
    const std::int64_t mine = dist::RowLayout::block(lookups, size).rows_of(rank);
    TensorBuffer indices = TensorBuffer::create_fixed_size({mine, 1}, DataType::kInt64);
    std::mt19937_64 rng(4321 + static_cast<unsigned>(rank));
    auto* idx = indices.mutable_host<std::int64_t>();
    std::vector<std::int64_t> asked(static_cast<std::size_t>(size), 0);
    for (std::int64_t i = 0; i < mine; ++i) {
      idx[i] = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(rows));
      ++asked[static_cast<std::size_t>(layout.owner(idx[i]))];
    }
    asked[static_cast<std::size_t>(rank)] = 0;  // own rows never pass through MPI
    std::vector<std::int64_t> to_answer(asked.size());
    MPI_Alltoall(asked.data(), 1, MPI_INT64_T, to_answer.data(), 1, MPI_INT64_T, comm.get());

    (void)dist::gather_nd(table, indices);  // warm-up (the Comm's scratch grows once)
    const Times op = measure(reps, [&] { (void)dist::gather_nd(table, indices); });

    const int row_bytes = static_cast<int>(kWidth * 4);
    Exchange requests(asked, to_answer, 8);
    Exchange answers(to_answer, asked, row_bytes);
    const Times limit = measure(reps, [&] {
      requests.run();
      answers.run();
    });

    // The single-process gather of this rank's lookup count on a table of the shard's size.
    TensorBuffer local_idx = TensorBuffer::create_fixed_size({mine, 1}, DataType::kInt64);
    auto* li = local_idx.mutable_host<std::int64_t>();
    const auto shard_rows = static_cast<std::uint64_t>(std::max<std::int64_t>(1, local.shape()[0]));
    for (std::int64_t i = 0; i < mine; ++i) li[i] = static_cast<std::int64_t>(rng() % shard_rows);
    const Times single = measure(reps, [&] {
      if (local.shape()[0] != 0) (void)gather_nd(local, local_idx);
    });

    // Bytes this rank sends: its requests to other owners, its answers to other ranks.
    std::int64_t sent_requests = 0, sent_answers = 0;
    for (int p = 0; p < size; ++p) {
      sent_requests += asked[static_cast<std::size_t>(p)];
      sent_answers += to_answer[static_cast<std::size_t>(p)];
    }
    std::int64_t sent = sent_requests * 8 + sent_answers * row_bytes, most = 0;
    MPI_Allreduce(&sent, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    const double per_rank = static_cast<double>(lookups) / size;
    const double model = per_rank * (1.0 - 1.0 / size) * (row_bytes + 8);
    if (rank == 0) {
      std::printf(
          "| %d | %lld x %lld | %.1f (%.1f) | %.1f | %.1f | %.1f (%.1f) | %.2f (%.2f) | "
          "%.1f (%.1f) |\n",
          size, static_cast<long long>(lookups), static_cast<long long>(rows), op.wall * 1e3,
          op.cpu * 1e3, static_cast<double>(most) / 1e6, model / 1e6, limit.wall * 1e3,
          limit.cpu * 1e3, size == 1 ? 0.0 : limit.wall / op.wall,
          size == 1 ? 0.0 : limit.cpu / op.cpu, single.wall * 1e3, single.cpu * 1e3);
    }
  }
  MPI_Finalize();
  return 0;
}
