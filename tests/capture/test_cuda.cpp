// Capture on a GPU (issue 23, docs/capture.md): every capturable op form, called with a caller
// stream inside cudaStreamBeginCapture (global mode), becomes a graph that is replayed 100 times
// with new input contents written to the same device memory; each replay must equal the CPU
// backend on those contents. Every blocked form must raise UnavailableError and leave the
// capture valid. scripts/gpu_check.sh runs these under compute-sanitizer too. Skips without a
// GPU (TENSORBUF_REQUIRE_CUDA=1 turns that into a failure).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

#if defined(TENSORBUF_WITH_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace tensorbuf {
namespace {

class CUDACaptureTest : public ::testing::Test {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda()); }
};

#if defined(TENSORBUF_WITH_CUDA)

constexpr int kReplays = 100;

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

// The caller's stream and the graph captured on it.
struct Capture {
  Capture() { cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); }
  ~Capture() {
    cudaStreamSynchronize(stream);
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    if (graph != nullptr) cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
  }
  Stream caller() const { return Stream{stream}; }
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

// Bytes written to (read from) a buffer's device memory on the caller's stream, bypassing the
// buffer's bookkeeping: what a pipeline around the graph does between replays.
void upload(cudaStream_t stream, const TensorBuffer& b, const std::vector<std::uint8_t>& bytes) {
  cudaMemcpyAsync(const_cast<void*>(b.device_bytes()), bytes.data(), bytes.size(),
                  cudaMemcpyHostToDevice, stream);
}
std::vector<std::uint8_t> download(cudaStream_t stream, const void* device, std::size_t bytes) {
  std::vector<std::uint8_t> out(bytes);
  cudaMemcpyAsync(out.data(), device, bytes, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  return out;
}

TensorBuffer host_buffer(DataType type, const Shape& shape,
                         const std::vector<std::uint8_t>& bytes) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, type);
  std::memcpy(b.overwrite_host_bytes(), bytes.data(), bytes.size());
  return b;
}

TensorBuffer device_buffer(DataType type, const Shape& shape,
                           const std::vector<std::uint8_t>& bytes) {
  TensorBuffer b = host_buffer(type, shape, bytes);
  b.sync_to(Device::cuda(0));
  return b;
}

std::vector<std::uint8_t> bytes_of(const TensorBuffer& b) {
  const auto* p = static_cast<const std::uint8_t*>(b.host_bytes());
  return {p, p + b.size_bytes()};
}

// One input of a captured op: its shape, dtype and a generator of new contents.
struct Input {
  DataType type;
  Shape shape;
  std::function<std::vector<std::uint8_t>(std::mt19937_64&)> make;
};

template <class T>
std::vector<std::uint8_t> as_bytes(const std::vector<T>& v) {
  std::vector<std::uint8_t> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

Input ints(const Shape& shape, std::int64_t lo, std::int64_t hi, DataType type) {
  return {type, shape, [=](std::mt19937_64& rng) {
            std::uniform_int_distribution<std::int64_t> d(lo, hi);
            const std::int64_t n = shape.num_elements();
            if (type == DataType::kInt64) {
              std::vector<std::int64_t> v(static_cast<std::size_t>(n));
              for (auto& x : v) x = d(rng);
              return as_bytes(v);
            }
            std::vector<std::int32_t> v(static_cast<std::size_t>(n));
            for (auto& x : v) x = static_cast<std::int32_t>(d(rng));
            return as_bytes(v);
          }};
}

Input mask_bits(const Shape& shape) {
  return {DataType::kBool, shape, [=](std::mt19937_64& rng) {
            std::vector<std::uint8_t> v(static_cast<std::size_t>(shape.num_elements()));
            const double density = static_cast<double>(rng() % 101) / 100.0;
            std::bernoulli_distribution bit(density);
            for (auto& b : v) b = bit(rng) ? 1 : 0;
            return v;
          }};
}

// An op over `inputs`: returns the output (out of place) or writes inputs[0] (in place).
using Op = std::function<std::optional<TensorBuffer>(std::vector<TensorBuffer>&, Device, Stream)>;

// Captures `op` on device-resident inputs, replays it kReplays times with new contents, and
// compares each replay with `op` on the CPU on the same contents.
void capture_and_replay(const std::string& name, const std::vector<Input>& inputs, const Op& op) {
  SCOPED_TRACE(name);
  std::mt19937_64 rng(1234);
  Capture c;  // outlives the buffers, which free in order on its stream
  std::vector<TensorBuffer> live;
  for (const Input& in : inputs) live.push_back(device_buffer(in.type, in.shape, in.make(rng)));
  // An eager call on the caller's stream first: warms the pool and the lazy state.
  (void)op(live, Device::cuda(0), c.caller());
  cudaStreamSynchronize(c.stream);
  CUDA_OK(cudaStreamBeginCapture(c.stream, cudaStreamCaptureModeGlobal));
  std::optional<TensorBuffer> out;
  try {
    out = op(live, Device::cuda(0), c.caller());
  } catch (const std::exception& e) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(c.stream, &broken);
    if (broken != nullptr) cudaGraphDestroy(broken);
    FAIL() << "the op threw in capture: " << e.what();
  }
  CUDA_OK(cudaStreamEndCapture(c.stream, &c.graph));
  // Outputs allocated inside the graph outlive each launch (docs/capture.md).
  CUDA_OK(
      cudaGraphInstantiateWithFlags(&c.exec, c.graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  const TensorBuffer& result = out ? *out : live[0];
  const void* result_device = result.device_bytes();
  for (int round = 0; round < kReplays; ++round) {
    std::vector<std::vector<std::uint8_t>> contents;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      contents.push_back(inputs[k].make(rng));
      upload(c.stream, live[k], contents.back());
    }
    CUDA_OK(cudaGraphLaunch(c.exec, c.stream));
    const std::vector<std::uint8_t> got = download(c.stream, result_device, result.size_bytes());
    std::vector<TensorBuffer> cpu;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      cpu.push_back(host_buffer(inputs[k].type, inputs[k].shape, contents[k]));
    }
    std::optional<TensorBuffer> expected = op(cpu, Device::cpu(), Stream{});
    ASSERT_EQ(got, bytes_of(expected ? *expected : cpu[0])) << "replay " << round;
  }
  CUDA_OK(cudaStreamSynchronize(c.stream));
}

// `op` must raise UnavailableError inside a capture, and the capture must stay valid.
void expect_blocked(const std::string& name, const std::vector<Input>& inputs, const Op& op) {
  SCOPED_TRACE(name);
  std::mt19937_64 rng(99);
  Capture c;
  std::vector<TensorBuffer> live;
  for (const Input& in : inputs) live.push_back(device_buffer(in.type, in.shape, in.make(rng)));
  (void)op(live, Device::cuda(0), c.caller());
  cudaStreamSynchronize(c.stream);
  CUDA_OK(cudaStreamBeginCapture(c.stream, cudaStreamCaptureModeGlobal));
  EXPECT_THROW(op(live, Device::cuda(0), c.caller()), UnavailableError);
  EXPECT_EQ(cudaStreamEndCapture(c.stream, &c.graph), cudaSuccess) << "the capture was invalidated";
}

using ScatterFn = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                   const ScatterOptions&);
using ScatterInPlaceFn = void (*)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                  const ScatterOptions&);

TEST_F(CUDACaptureTest, ScatterEveryOpReplaysAsEager) {
  const std::vector<std::pair<ScatterFn, ScatterInPlaceFn>> ops = {
      {tensor_scatter_nd_add, tensor_scatter_nd_add_in_place},
      {tensor_scatter_nd_sub, tensor_scatter_nd_sub_in_place},
      {tensor_scatter_nd_update, tensor_scatter_nd_update_in_place},
      {tensor_scatter_nd_min, tensor_scatter_nd_min_in_place},
      {tensor_scatter_nd_max, tensor_scatter_nd_max_in_place}};
  const std::vector<Input> inputs = {ints(Shape{1024, 4}, -100, 100, DataType::kInt32),
                                     ints(Shape{256, 1}, -4, 1030, DataType::kInt64),
                                     ints(Shape{256, 4}, -9, 9, DataType::kInt32)};
  for (std::size_t k = 0; k < ops.size(); ++k) {
    for (bool deterministic : {false, true}) {
      for (bool in_place : {false, true}) {
        // update with duplicate rows is order-dependent unless deterministic.
        if (k == 2 && !deterministic) continue;
        const auto [fn, fn_in_place] = ops[k];
        capture_and_replay("scatter op " + std::to_string(k) +
                               (deterministic ? " deterministic" : " atomic") +
                               (in_place ? " in place" : ""),
                           inputs,
                           [=](std::vector<TensorBuffer>& b, Device device,
                               Stream stream) -> std::optional<TensorBuffer> {
                             ScatterOptions options;
                             options.device = device;
                             options.stream = stream;
                             options.deterministic = deterministic;
                             options.out_of_bounds = OutOfBoundsPolicy::kDrop;
                             if (in_place) {
                               fn_in_place(b[0], b[1], b[2], options);
                               return std::nullopt;
                             }
                             return fn(b[0], b[1], b[2], options);
                           });
      }
    }
  }
}

TEST_F(CUDACaptureTest, MaskUpdateBroadcastFormsReplayAsEager) {
  struct Form {
    const char* name;
    Input tensor, mask, updates;
    int axis;
  };
  const std::vector<Form> forms = {
      {"rows, scalar", ints(Shape{4096, 8}, -9, 9, DataType::kInt32), mask_bits(Shape{4096}),
       ints(Shape{}, 50, 60, DataType::kInt32), 0},
      {"rows, one row", ints(Shape{4096, 8}, -9, 9, DataType::kInt32), mask_bits(Shape{4096}),
       ints(Shape{8}, 50, 60, DataType::kInt32), 0},
      {"flat", ints(Shape{1 << 16}, -9, 9, DataType::kInt32), mask_bits(Shape{1 << 16}),
       ints(Shape{}, 50, 60, DataType::kInt32), 0},
      {"axis 1", ints(Shape{3, 500, 2}, -9, 9, DataType::kInt32), mask_bits(Shape{500}),
       ints(Shape{2}, 50, 60, DataType::kInt32), 1},
  };
  for (const Form& form : forms) {
    for (bool in_place : {false, true}) {
      const int axis = form.axis;
      capture_and_replay(std::string(form.name) + (in_place ? " in place" : ""),
                         {form.tensor, form.mask, form.updates},
                         [=](std::vector<TensorBuffer>& b, Device device,
                             Stream stream) -> std::optional<TensorBuffer> {
                           BooleanMaskUpdateOptions options;
                           options.device = device;
                           options.stream = stream;
                           options.axis = axis;
                           if (in_place) {
                             boolean_mask_update_in_place(b[0], b[1], b[2], options);
                             return std::nullopt;
                           }
                           return boolean_mask_update(b[0], b[1], b[2], options);
                         });
    }
  }
}

TEST_F(CUDACaptureTest, BlockedFormsRaiseAndKeepTheCaptureValid) {
  expect_blocked(
      "scatter kError",
      {ints(Shape{64, 2}, 0, 9, DataType::kInt32), ints(Shape{8, 1}, 0, 63, DataType::kInt64),
       ints(Shape{8, 2}, 0, 9, DataType::kInt32)},
      [](std::vector<TensorBuffer>& b, Device device, Stream stream) {
        ScatterOptions options;
        options.device = device;
        options.stream = stream;
        options.out_of_bounds = OutOfBoundsPolicy::kError;
        return std::optional<TensorBuffer>(tensor_scatter_nd_add(b[0], b[1], b[2], options));
      });
  // updates of n rows: n is read back to validate the shape. An all-true mask of 8.
  Input all_true{DataType::kBool, Shape{8},
                 [](std::mt19937_64&) { return std::vector<std::uint8_t>(8, 1); }};
  expect_blocked(
      "mask update with [n, 2] updates",
      {ints(Shape{8, 2}, 0, 9, DataType::kInt32), all_true,
       ints(Shape{8, 2}, 0, 9, DataType::kInt32)},
      [](std::vector<TensorBuffer>& b, Device device, Stream stream) {
        BooleanMaskUpdateOptions options;
        options.device = device;
        options.stream = stream;
        return std::optional<TensorBuffer>(boolean_mask_update(b[0], b[1], b[2], options));
      });
  // substr: its output's size is read back (docs/capture.md).
  const StringTensor strings = StringTensor::from_strings({"hello", "world"}, Shape{2});
  strings.sync_to(Device::cuda(0));
  expect_blocked("substr",
                 {ints(Shape{}, 1, 1, DataType::kInt32), ints(Shape{}, 2, 2, DataType::kInt32)},
                 [&](std::vector<TensorBuffer>& b, Device device, Stream stream) {
                   SubstrOptions options;
                   options.device = device;
                   options.stream = stream;
                   (void)substr(strings, b[0], b[1], options);
                   return std::optional<TensorBuffer>();
                 });
}

#else

TEST_F(CUDACaptureTest, NotBuilt) {}

#endif

}  // namespace
}  // namespace tensorbuf
