// Borrowed memory costs what owned memory costs (docs/interop.md): the scatter rows case in
// place (a 64K x 256 float32 table, 16K random row updates, tensor_scatter_nd_sub) on a table
// tensorbuf owns (`_owned`) and on the same bytes in caller memory it borrows (`_borrowed`:
// pageable host memory on the CPU, a stream-ordered device allocation on CUDA). Same inputs,
// same run; compare the two rows of the table (target: within 10%). The caller's host memory
// is 2 MiB-aligned and advised to use transparent huge pages, as tensorbuf's own large blocks
// are: random rows over 4 KiB pages cost a TLB miss each (measured on the 2-core dev VM:
// 4 KiB-page std::vector memory 14.3 ms against 10.7 ms owned), a property of the memory,
// not of borrowing it.
#include <sys/mman.h>

#include "bench_support.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::int64_t kRows = 64 * 1024;
constexpr std::int64_t kWidth = 256;
constexpr std::int64_t kUpdates = 16 * 1024;

// Caller-owned memory for the borrowed table: a std::vector on the host, or a block of the
// library's device memory (as a framework's caching allocator would hand out) on CUDA.
class CallerMemory {
 public:
  CallerMemory(const TensorBuffer& source, bool cuda) : bytes_(source.size_bytes()), cuda_(cuda) {
    if (!cuda) {
      const std::size_t rounded = (bytes_ + kHugePage - 1) / kHugePage * kHugePage;
      host_ = std::aligned_alloc(kHugePage, rounded);
      if (host_ == nullptr) throw ResourceExhaustedError("bench: no host memory");
#if defined(MADV_HUGEPAGE)
      madvise(host_, rounded, MADV_HUGEPAGE);
#endif
      std::memcpy(host_, source.host_bytes(), bytes_);
      return;
    }
    core::DeviceMemory* memory = core::device_memory();
    stream_ = memory->default_stream(0);
    device_ = memory->allocate_device(bytes_, 0, stream_);
    memory->copy_host_to_device(device_, source.host_bytes(), bytes_, 0, stream_);
    cuda_synchronize();
  }
  ~CallerMemory() {
    if (device_ != nullptr) core::device_memory()->free_device(device_, bytes_, 0, stream_);
    std::free(host_);
  }
  CallerMemory(const CallerMemory&) = delete;
  CallerMemory& operator=(const CallerMemory&) = delete;
  void* data() { return cuda_ ? device_ : host_; }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  std::size_t bytes_;
  bool cuda_;
  void* host_ = nullptr;
  void* device_ = nullptr;
  void* stream_ = nullptr;
};

void scatter_rows_in_place(benchmark::State& state, bool cuda, bool borrowed) {
  if (cuda && skip_without_cuda(state)) return;
  const Device device = cuda ? Device::cuda(0) : Device::cpu();
  TensorBuffer owned = make_buffer(random_floats(kRows * kWidth, -1.0, 1.0, 11),
                                   Shape{kRows, kWidth}, DataType::kFloat32);
  TensorBuffer indices = make_index_buffer(random_ints(kUpdates, 0, kRows, 12),
                                           Shape{kUpdates, 1}, DataType::kInt64);
  TensorBuffer updates = make_buffer(random_floats(kUpdates * kWidth, -1.0, 1.0, 13),
                                     Shape{kUpdates, kWidth}, DataType::kFloat32);
  CallerMemory caller(owned, cuda);
  TensorBuffer table = borrowed ? TensorBuffer::borrow(caller.data(), owned.shape(),
                                                       DataType::kFloat32, device)
                                : std::move(owned);
  const ScatterOptions options{.device = device};
  for (const TensorBuffer* b : {&table, &indices, &updates}) b->sync_to(device);
  tensor_scatter_nd_sub_in_place(table, indices, updates, options);  // warm-up
  if (cuda) cuda_synchronize();
  for (auto _ : state) {
    tensor_scatter_nd_sub_in_place(table, indices, updates, options);
    if (cuda) cuda_synchronize();
    benchmark::ClobberMemory();
  }
  // Each touched row read and written, the updates and indices read.
  const double bytes = 3.0 * 4.0 * static_cast<double>(kUpdates * kWidth) + 8.0 * kUpdates;
  report(state, bytes, cuda ? cuda_d2d_limit_gbps(bytes) : cpu_memcpy_limit_gbps(bytes));
}

void BM_rows_in_place_owned_cpu(benchmark::State& s) { scatter_rows_in_place(s, false, false); }
void BM_rows_in_place_borrowed_cpu(benchmark::State& s) { scatter_rows_in_place(s, false, true); }
void BM_rows_in_place_owned_cuda(benchmark::State& s) { scatter_rows_in_place(s, true, false); }
void BM_rows_in_place_borrowed_cuda(benchmark::State& s) { scatter_rows_in_place(s, true, true); }

TENSORBUF_BENCHMARK(BM_rows_in_place_owned_cpu, "scatter_nd_sub_f32_rows_in_place_owned", "cpu");
TENSORBUF_BENCHMARK(BM_rows_in_place_borrowed_cpu, "scatter_nd_sub_f32_rows_in_place_borrowed",
                    "cpu");
TENSORBUF_BENCHMARK(BM_rows_in_place_owned_cuda, "scatter_nd_sub_f32_rows_in_place_owned",
                    "cuda");
TENSORBUF_BENCHMARK(BM_rows_in_place_borrowed_cuda, "scatter_nd_sub_f32_rows_in_place_borrowed",
                    "cuda");

// The C++ side of bench/python_overhead.py: one row added in place to a [16, 4] float32 table in
// caller memory (what a NumPy array is), indices and updates borrowed too. The Python call's
// median minus this one is the binding's cost per call.
void BM_one_row_in_place_borrowed_cpu(benchmark::State& state) {
  std::vector<float> table(16 * 4, 0.0f);
  std::vector<std::int64_t> index = {3};
  std::vector<float> row(4, 1.0f);
  TensorBuffer t = TensorBuffer::borrow(table.data(), Shape{16, 4}, DataType::kFloat32, Device::cpu());
  TensorBuffer i = TensorBuffer::borrow(index.data(), Shape{1, 1}, DataType::kInt64, Device::cpu());
  TensorBuffer u = TensorBuffer::borrow(row.data(), Shape{1, 4}, DataType::kFloat32, Device::cpu());
  for (auto _ : state) {
    tensor_scatter_nd_add_in_place(t, i, u);
    benchmark::ClobberMemory();
  }
  const double bytes = 3.0 * 4.0 * 4.0 + 8.0;
  report(state, bytes, cpu_memcpy_limit_gbps(bytes));
}
TENSORBUF_BENCHMARK(BM_one_row_in_place_borrowed_cpu, "scatter_nd_add_one_row_16x4_in_place_borrowed",
                    "cpu");

}  // namespace
}  // namespace tensorbuf::bench
