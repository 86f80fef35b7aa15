// mpiexec -n P tensorbuf_bench_dist [ROWS [UPDATES [REPS]]]: dist::tensor_scatter_nd_add_in_place
// of UPDATES random rows (all ranks together, default 1M) of 64 float32 into a table of ROWS
// rows (default 1M) sharded in blocks. Prints one markdown row: the op's median time (slowest
// rank; in parentheses the largest rank's CPU time, which a shared machine disturbs less),
// the bytes each rank sends (the cost model: rows owned elsewhere x row bytes, and what
// moves with the 8-byte index), the same MPI_Alltoallv of the same bytes alone in the same run
// (the limit), their ratio (target >= 0.7), and the local op alone on the received rows; then
// a second row: the op's phases (dist/scatter_phases.hpp), each the median over the reps of
// the slowest rank's wall time in it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "mpi/scatter_phases.hpp"
#include "tensorbuf/dist.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;
constexpr std::int64_t kWidth = 64;

double wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double cpu() {  // this process's CPU time, all threads: on a shared machine, what we cost
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

// Each phase of the last distributed scatter, wall then CPU: the slowest rank's, per rep.
using Phases = std::vector<std::vector<double>>;
constexpr int kPhases = 6;
void collect_phases(Phases& phases) {
  const auto& p = dist::detail::last_scatter_phases();
  const dist::detail::PhaseTime all[kPhases] = {p.validate, p.route,    p.counts,
                                                p.bucket,   p.exchange, p.apply};
  double mine[2 * kPhases], most[2 * kPhases];
  for (int i = 0; i < kPhases; ++i) {
    mine[i] = all[i].wall;
    mine[kPhases + i] = all[i].cpu;
  }
  MPI_Allreduce(mine, most, 2 * kPhases, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  phases.resize(2 * kPhases);
  for (int i = 0; i < 2 * kPhases; ++i) phases[i].push_back(most[i]);
}

template <class F, class After = void (*)()>
Times measure(
    int reps, F&& f, After after = [] {}) {
  std::vector<double> walls, cpus;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double w0 = wall(), c0 = cpu();
    f();
    after();
    double mine[2] = {wall() - w0, cpu() - c0}, most[2] = {0, 0};
    MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    walls.push_back(most[0]);
    cpus.push_back(most[1]);
  }
  return Times{median(walls), median(cpus)};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    const std::int64_t rows = argc > 1 ? std::atoll(argv[1]) : 1 << 20;
    const std::int64_t total_updates = argc > 2 ? std::atoll(argv[2]) : 1 << 20;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
    const dist::Comm comm(MPI_COMM_WORLD);
    const int rank = comm.rank(), size = comm.size();
    const dist::RowLayout layout = dist::RowLayout::block(rows, size);
    dist::ShardedTensor table(
        comm, layout,
        TensorBuffer::create_fixed_size({layout.rows_of(rank), kWidth}, DataType::kFloat32));
    const dist::RowLayout split = dist::RowLayout::block(total_updates, size);
    const std::int64_t mine = split.rows_of(rank);
    TensorBuffer indices = TensorBuffer::create_fixed_size({mine, 1}, DataType::kInt64);
    TensorBuffer updates = TensorBuffer::create_fixed_size({mine, kWidth}, DataType::kFloat32);
    std::mt19937_64 rng(1234 + static_cast<unsigned>(rank));
    auto* idx = indices.mutable_host<std::int64_t>();
    auto* upd = updates.mutable_host<float>();
    std::vector<std::int64_t> send(static_cast<std::size_t>(size), 0);
    for (std::int64_t i = 0; i < mine; ++i) {
      idx[i] = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(rows));
      ++send[static_cast<std::size_t>(layout.owner(idx[i]))];
    }
    for (std::int64_t i = 0; i < mine * kWidth; ++i) upd[i] = static_cast<float>(i % 7);

    dist::tensor_scatter_nd_add_in_place(table, indices, updates);  // warm-up
    Phases phases;
    const Times op = measure(
        reps, [&] { dist::tensor_scatter_nd_add_in_place(table, indices, updates); },
        [&] { collect_phases(phases); });

    // The limit: the same counts of (8-byte index + 256-byte row) records, MPI_Alltoallv alone.
    const int record = static_cast<int>(8 + kWidth * 4);
    std::vector<std::int64_t> recv(send.size());
    MPI_Alltoall(send.data(), 1, MPI_INT64_T, recv.data(), 1, MPI_INT64_T, comm.get());
    std::vector<int> sc(send.begin(), send.end()), rc(recv.begin(), recv.end());
    std::vector<int> sd(sc.size(), 0), rd(rc.size(), 0);
    for (std::size_t p = 1; p < sc.size(); ++p) {
      sd[p] = sd[p - 1] + sc[p - 1];
      rd[p] = rd[p - 1] + rc[p - 1];
    }
    MPI_Datatype row_type;
    MPI_Type_contiguous(record, MPI_BYTE, &row_type);
    MPI_Type_commit(&row_type);
    std::vector<char> sbuf(static_cast<std::size_t>(sd.back() + sc.back()) * record, 1);
    std::vector<char> rbuf(static_cast<std::size_t>(rd.back() + rc.back()) * record);
    const Times limit = measure(reps, [&] {
      MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), row_type, rbuf.data(), rc.data(), rd.data(),
                    row_type, comm.get());
    });
    MPI_Type_free(&row_type);

    // The local op alone on as many rows as this rank receives (its apply step).
    std::int64_t received = 0;
    for (const std::int64_t c : recv) received += c;
    TensorBuffer local_idx = TensorBuffer::create_fixed_size({received, 1}, DataType::kInt64);
    auto* li = local_idx.mutable_host<std::int64_t>();
    for (std::int64_t i = 0; i < received; ++i)
      li[i] = static_cast<std::int64_t>(
          rng() % static_cast<std::uint64_t>(std::max<std::int64_t>(1, layout.rows_of(rank))));
    TensorBuffer local_upd =
        TensorBuffer::create_fixed_size({received, kWidth}, DataType::kFloat32);
    const Times apply = measure(reps, [&] {
      if (layout.rows_of(rank) != 0)
        tensor_scatter_nd_add_in_place(table.local(), local_idx, local_upd);
    });

    std::int64_t elsewhere = mine - send[static_cast<std::size_t>(rank)], most = 0;
    MPI_Allreduce(&elsewhere, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf(
          "| %d | %lld x %lld | %.1f (%.1f) | %.1f (%.1f) | %.2f (%.2f) | %.1f (%.1f) | %.1f | "
          "%.1f |\n",
          size, static_cast<long long>(total_updates), static_cast<long long>(rows), op.wall * 1e3,
          op.cpu * 1e3, limit.wall * 1e3, limit.cpu * 1e3, limit.wall / op.wall, limit.cpu / op.cpu,
          apply.wall * 1e3, apply.cpu * 1e3, most * kWidth * 4 / 1e6,
          most * (kWidth * 4 + 8) / 1e6);
      std::printf("| %d | phases ms (cpu):", size);
      const char* names[kPhases] = {"validate", "route", "counts", "bucket", "exchange", "apply"};
      for (int i = 0; i < kPhases; ++i) {
        std::printf(" %s %.1f (%.1f)", names[i], median(phases[i]) * 1e3,
                    median(phases[kPhases + i]) * 1e3);
      }
      std::printf(" |\n");
    }
  }
  MPI_Finalize();
  return 0;
}
