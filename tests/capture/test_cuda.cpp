// Capture on a GPU (docs/capture.md): every capturable op form, called with a caller
// stream inside cudaStreamBeginCapture (global mode), becomes a graph that is replayed 100 times
// with new input contents written to the same device memory; each replay must equal the CPU
// backend on those contents (substr: its bounded form, and a substr of its output in the same
// graph). Every blocked form must raise UnavailableError and leave the
// capture valid. scripts/gpu_check.sh runs these under compute-sanitizer too. Skips without a
// GPU (TENSORBUF_REQUIRE_CUDA=1 turns that into a failure).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "capture/random_strings.hpp"
#include "core/string_tensor_access.hpp"
#include "support/devices.hpp"
#include "tensorbuf/processing.hpp"
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

// `op` must raise UnavailableError inside a capture on `c`, and the capture must stay valid.
void expect_blocked(const std::string& name, const std::vector<Input>& inputs, const Op& op,
                    Capture& c) {
  SCOPED_TRACE(name);
  std::mt19937_64 rng(99);
  std::vector<TensorBuffer> live;
  for (const Input& in : inputs) live.push_back(device_buffer(in.type, in.shape, in.make(rng)));
  (void)op(live, Device::cuda(0), c.caller());
  cudaStreamSynchronize(c.stream);
  CUDA_OK(cudaStreamBeginCapture(c.stream, cudaStreamCaptureModeGlobal));
  EXPECT_THROW(op(live, Device::cuda(0), c.caller()), UnavailableError);
  EXPECT_EQ(cudaStreamEndCapture(c.stream, &c.graph), cudaSuccess) << "the capture was invalidated";
}
void expect_blocked(const std::string& name, const std::vector<Input>& inputs, const Op& op) {
  Capture c;
  expect_blocked(name, inputs, op, c);
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
        // Named copies, not a structured binding: clang 14 cannot capture one in a lambda.
        const ScatterFn fn = ops[k].first;
        const ScatterInPlaceFn fn_in_place = ops[k].second;
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

TEST_F(CUDACaptureTest, GatherNdDropReplaysAsEager) {
  // Rows of 8 int32 with some out of range (kDrop: zeros), and elements of depth 2.
  for (const bool elements : {false, true}) {
    const std::vector<Input> inputs = {
        ints(Shape{64, 8}, -100, 100, DataType::kInt32),
        ints(elements ? Shape{256, 2} : Shape{256, 1}, -2, 70, DataType::kInt64)};
    capture_and_replay(elements ? "gather_nd elements" : "gather_nd rows", inputs,
                       [](std::vector<TensorBuffer>& b, Device device,
                          Stream stream) -> std::optional<TensorBuffer> {
                         GatherOptions options;
                         options.device = device;
                         options.stream = stream;
                         options.out_of_bounds = OutOfBoundsPolicy::kDrop;
                         return gather_nd(b[0], b[1], options);
                       });
  }
}

TEST_F(CUDACaptureTest, ElementOpsDropReplayAsEager) {
  // [64, 8] int32 with axis-0 indices partly out of range (kDrop: zeros for the gathers,
  // skipped for the scatter); int32 add, min and max are order-independent, so the atomic
  // scatter equals the CPU; kNone (duplicates: the last wins) needs the deterministic path.
  const Input data = ints(Shape{64, 8}, -100, 100, DataType::kInt32);
  const Input rows = ints(Shape{32}, -70, 70, DataType::kInt64);
  const Input element_indices = ints(Shape{32, 8}, -70, 70, DataType::kInt32);
  const Input updates = ints(Shape{32, 8}, -9, 9, DataType::kInt32);
  auto gather_options = [](Device device, Stream stream) {
    GatherOptions options;
    options.device = device;
    options.stream = stream;
    options.out_of_bounds = OutOfBoundsPolicy::kDrop;
    return options;
  };
  capture_and_replay("gather", {data, rows},
                     [&](std::vector<TensorBuffer>& b, Device device,
                         Stream stream) -> std::optional<TensorBuffer> {
                       return gather(b[0], b[1], gather_options(device, stream));
                     });
  capture_and_replay("gather_elements", {data, element_indices},
                     [&](std::vector<TensorBuffer>& b, Device device,
                         Stream stream) -> std::optional<TensorBuffer> {
                       return gather_elements(b[0], b[1], gather_options(device, stream));
                     });
  for (const Reduction reduction :
       {Reduction::kNone, Reduction::kAdd, Reduction::kMin, Reduction::kMax}) {
    for (const bool in_place : {false, true}) {
      capture_and_replay(
          "scatter_elements reduction " + std::to_string(static_cast<int>(reduction)) +
              (in_place ? " in place" : ""),
          {data, element_indices, updates},
          [=](std::vector<TensorBuffer>& b, Device device,
              Stream stream) -> std::optional<TensorBuffer> {
            ScatterElementsOptions options;
            options.device = device;
            options.stream = stream;
            options.out_of_bounds = OutOfBoundsPolicy::kDrop;
            options.reduction = reduction;
            options.deterministic = reduction == Reduction::kNone;
            if (in_place) {
              scatter_elements_in_place(b[0], b[1], b[2], options);
              return std::nullopt;
            }
            return scatter_elements(b[0], b[1], b[2], options);
          });
    }
  }
}

TEST_F(CUDACaptureTest, ProcessorChainsReplayAsEager) {
  // uint8 HWC pixels -> per-channel normalize -> float32, and on to float16: one kernel pass.
  const Input pixels{DataType::kUInt8, Shape{16, 16, 3}, [](std::mt19937_64& rng) {
                       std::vector<std::uint8_t> v(16 * 16 * 3);
                       for (auto& x : v) x = static_cast<std::uint8_t>(rng());
                       return v;
                     }};
  for (const bool to_half : {false, true}) {
    std::vector<ProcessStep> steps = {
        normalize_op({123.675f, 116.28f, 103.53f}, {58.395f, 57.12f, 57.375f})};
    if (to_half) steps.push_back(cast_op(DataType::kFloat16));
    const auto processor = std::make_shared<const Processor>(std::move(steps));
    capture_and_replay(to_half ? "normalize -> float16" : "normalize", {pixels},
                       [processor](std::vector<TensorBuffer>& b, Device device,
                                   Stream stream) -> std::optional<TensorBuffer> {
                         ProcessOptions options;
                         options.device = device;
                         options.stream = stream;
                         return processor->run(b[0], options);
                       });
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
  expect_blocked("gather_nd kError",
                 {ints(Shape{64, 2}, 0, 9, DataType::kInt32),
                  ints(Shape{8, 1}, 0, 63, DataType::kInt32)},
                 [](std::vector<TensorBuffer>& b, Device device, Stream stream) {
                   GatherOptions options;
                   options.device = device;
                   options.stream = stream;
                   options.out_of_bounds = OutOfBoundsPolicy::kError;
                   return std::optional<TensorBuffer>(gather_nd(b[0], b[1], options));
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
  // substr under kError (the first bad element is read back), and with its input broadcast 5
  // times (the output's size is read back: no bound is allocated), docs/capture.md.
  for (const bool error : {true, false}) {
    // Declared before the strings used on its stream: a stream must outlive the buffers last
    // used on it (docs/tensor_buffer.md; the other order crashed in cudaFreeAsync on the H200).
    Capture c;
    const StringTensor strings = StringTensor::from_strings({"hello", "world"}, Shape{2});
    strings.sync_to(Device::cuda(0));
    const Shape shape = error ? Shape{} : Shape{5, 1};
    expect_blocked(error ? "substr kError" : "substr broadcast 5 times",
                   {ints(shape, 1, 1, DataType::kInt32), ints(shape, 2, 2, DataType::kInt32)},
                   [&](std::vector<TensorBuffer>& b, Device device, Stream stream) {
                     SubstrOptions options;
                     options.device = device;
                     options.stream = stream;
                     options.out_of_bounds =
                         error ? OutOfBoundsPolicy::kError : OutOfBoundsPolicy::kDrop;
                     (void)substr(strings, b[0], b[1], options);
                     return std::optional<TensorBuffer>();
                   },
                   c);
  }
}

// ---------------------------------------------------------------------------------------------
// substr: the bounded form (docs/capture.md). A StringTensor's size changes with its contents,
// so each replay's strings are read from the output's device memory (its chars hold the bound);
// the output itself is trimmed at its first host use, after the last replay.

// The strings a substr output holds in device memory now, read without its bookkeeping.
std::vector<std::string> device_strings(cudaStream_t stream, const void* offsets, const void* chars,
                                        std::int64_t n) {
  const std::vector<std::uint8_t> raw =
      download(stream, offsets, static_cast<std::size_t>(n + 1) * sizeof(std::int64_t));
  std::vector<std::int64_t> off(static_cast<std::size_t>(n + 1));
  std::memcpy(off.data(), raw.data(), raw.size());
  const std::vector<std::uint8_t> bytes =
      download(stream, chars, static_cast<std::size_t>(off.back()));
  return testing::RandomStrings{off, std::string(bytes.begin(), bytes.end())}.values();
}

TEST_F(CUDACaptureTest, SubstrBoundedFormsReplayAsEager) {
  struct Form {
    const char* name;
    SubstrUnit unit;
    Shape pos;  // against an input [kStrings]
  };
  constexpr std::int64_t kStrings = 512;
  constexpr std::int64_t kBytes = 40000;  // long enough on average for the lane forms
  const Form forms[] = {{"bytes, scalar", SubstrUnit::kByte, Shape{}},
                        {"UTF-8, per element", SubstrUnit::kUtf8Char, Shape{kStrings}},
                        {"UTF-8, rows x4", SubstrUnit::kUtf8Char, Shape{4, 1}},
                        {"bytes, rows x3 per element", SubstrUnit::kByte, Shape{3, kStrings}}};
  for (const Form& form : forms) {
    SCOPED_TRACE(form.name);
    std::mt19937_64 rng(77);
    Capture c;
    testing::RandomStrings s = testing::random_strings(kStrings, kBytes, rng);
    const StringTensor input = StringTensor::from_strings(s.values(), Shape{kStrings});
    input.sync_to(Device::cuda(0));
    const Input pos_input = ints(form.pos, -40, 40, DataType::kInt32);
    const Input len_input = ints(form.pos, -1, 120, DataType::kInt32);
    TensorBuffer pos = device_buffer(DataType::kInt32, form.pos, pos_input.make(rng));
    TensorBuffer len = device_buffer(DataType::kInt32, form.pos, len_input.make(rng));
    // The second substr reads the first one's output inside the same capture.
    TensorBuffer pos2 =
        device_buffer(DataType::kInt32, Shape{}, as_bytes(std::vector<std::int32_t>{1}));
    TensorBuffer len2 =
        device_buffer(DataType::kInt32, Shape{}, as_bytes(std::vector<std::int32_t>{7}));
    SubstrOptions options;
    options.device = Device::cuda(0);
    options.stream = c.caller();
    options.unit = form.unit;
    options.out_of_bounds = OutOfBoundsPolicy::kDrop;
    (void)substr(input, pos, len, options);  // eager first: warms the pool and the lazy state
    cudaStreamSynchronize(c.stream);
    CUDA_OK(cudaStreamBeginCapture(c.stream, cudaStreamCaptureModeGlobal));
    std::optional<StringTensor> out, out2;
    try {
      out = substr(input, pos, len, options);
      out2 = substr(*out, pos2, len2, options);
    } catch (const std::exception& e) {
      cudaGraph_t broken = nullptr;
      cudaStreamEndCapture(c.stream, &broken);
      if (broken != nullptr) cudaGraphDestroy(broken);
      FAIL() << "substr threw in capture: " << e.what();
    }
    CUDA_OK(cudaStreamEndCapture(c.stream, &c.graph));
    CUDA_OK(
        cudaGraphInstantiateWithFlags(&c.exec, c.graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    const void* out_offsets = out->offsets().device_bytes();
    const void* out_chars =
        core::StringTensorAccess::chars_on(*out, Device::cuda(0)).device_bytes();
    const void* out2_offsets = out2->offsets().device_bytes();
    const void* out2_chars =
        core::StringTensorAccess::chars_on(*out2, Device::cuda(0)).device_bytes();
    std::vector<std::string> expected, expected2;
    for (int round = 0; round < kReplays; ++round) {
      s = testing::random_strings(kStrings, kBytes, rng);
      const std::vector<std::uint8_t> pos_bytes = pos_input.make(rng);
      const std::vector<std::uint8_t> len_bytes = len_input.make(rng);
      upload(c.stream, input.offsets(), as_bytes(s.offsets));
      upload(c.stream, input.chars(), std::vector<std::uint8_t>(s.chars.begin(), s.chars.end()));
      upload(c.stream, pos, pos_bytes);
      upload(c.stream, len, len_bytes);
      CUDA_OK(cudaGraphLaunch(c.exec, c.stream));
      SubstrOptions cpu = options;
      cpu.device = Device::cpu();
      cpu.stream = Stream{};
      const StringTensor eager = substr(StringTensor::from_strings(s.values(), Shape{kStrings}),
                                        host_buffer(DataType::kInt32, form.pos, pos_bytes),
                                        host_buffer(DataType::kInt32, form.pos, len_bytes), cpu);
      expected = eager.to_strings();
      expected2 = substr(eager, pos2, len2, cpu).to_strings();
      ASSERT_EQ(device_strings(c.stream, out_offsets, out_chars, out->size()), expected)
          << "replay " << round;
      ASSERT_EQ(device_strings(c.stream, out2_offsets, out2_chars, out2->size()), expected2)
          << "replay " << round;
    }
    // Trimmed at the first host use: the last replay's strings, in the same memory.
    EXPECT_EQ(out->to_strings(), expected);
    EXPECT_EQ(out2->to_strings(), expected2);
    std::int64_t total = 0;
    for (const std::string& v : expected) total += static_cast<std::int64_t>(v.size());
    EXPECT_EQ(out->num_chars(), total);
    EXPECT_EQ(out->chars().device_bytes(), out_chars);
    CUDA_OK(cudaStreamSynchronize(c.stream));
  }
}

#else

TEST_F(CUDACaptureTest, NotBuilt) {}

#endif

}  // namespace
}  // namespace tensorbuf
