// substr captured at the op level (docs/capture.md), without a GPU: the op (core::SubstrCall)
// on device-resident inputs under the test device memory's capture mode, with the CUDA backend's
// driver on the host executor called where run_substr calls cuda::substr (recorded, not run, as
// a graph records it). Every capturable form must run with no violation and no read back,
// and its recorded work, replayed on new input contents, must give the CPU backend's strings; the
// bounded output must trim to exact values at its first host use. The blocked forms must raise
// UnavailableError before anything is enqueued.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "capture/random_strings.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/dtype_dispatch.hpp"
#include "core/op_substr.hpp"
#include "core/plan_substr.hpp"
#include "core/string_tensor_access.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/substr.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::random_strings;
using testing::RandomStrings;
using testing::ScopedTestDeviceMemory;

constexpr int kReplays = 8;

// The CUDA backend as src/cuda/substr.cu runs it, on `executor`; counts its calls.
struct HostCudaSubstr {
  kernels::HostExecutor* executor;
  int* calls;
  core::SubstrResult operator()(const core::SubstrPlan& plan, const core::SubstrBuffers& buffers,
                                const core::AllocateChars& allocate) const {
    ++*calls;
    kernels::SubstrDriverConfig config;
    config.capacity = plan.chars_capacity;
    return core::dispatch_index_type(plan.index_type, [&](auto tag) {
      using Index = typename decltype(tag)::type;
      return kernels::run_substr<Index>(*executor, plan, buffers, allocate, config);
    });
  }
};

TensorBuffer ints(const Shape& shape, std::mt19937_64& rng, int lo, int hi) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, DataType::kInt32);
  auto* p = b.overwrite_host<std::int32_t>();
  for (std::int64_t i = 0; i < b.flat_size(); ++i) {
    p[i] = lo + static_cast<std::int32_t>(rng() % static_cast<unsigned>(hi - lo + 1));
  }
  return b;
}

// New contents written to a buffer's device memory (host memory under the test device
// memory), bypassing its bookkeeping: what a pipeline does between graph replays.
void write_device(const TensorBuffer& b, const void* bytes, std::size_t size) {
  if (size > 0) std::memcpy(const_cast<void*>(b.device_bytes()), bytes, size);
}

// The strings of a bounded output as its device memory holds them now (no trim).
std::vector<std::string> device_strings(const StringTensor& out) {
  const auto* off = out.offsets().device<std::int64_t>();
  const auto* chars = static_cast<const char*>(
      core::StringTensorAccess::chars_on(out, Device::cuda(0)).device_bytes());
  std::vector<std::string> values;
  for (std::int64_t i = 0; i < out.size(); ++i)
    values.emplace_back(chars + off[i], chars + off[i + 1]);
  return values;
}

// The op on cuda:0 as core::run_substr runs it, with `backend` in cuda::substr's place (the
// device check is skipped: no GPU here).
core::SubstrRun run_on_cuda(const StringTensor& input, const TensorBuffer& pos,
                            const TensorBuffer& len, const SubstrOptions& options,
                            const HostCudaSubstr& backend) {
  core::SubstrPlan plan = core::plan_substr(input, pos, len, options);
  plan.policy = core::resolve_policy(options.out_of_bounds, Device::cuda(0));
  core::SubstrCall call(input, pos, len, std::move(plan), Device::cuda(0), options.stream);
  const core::SubstrResult result = backend(call.plan(), call.buffers(), call.allocate_chars());
  return call.finish(result);
}

SubstrOptions cuda_options(Stream stream, SubstrUnit unit) {
  SubstrOptions options;
  options.device = Device::cuda(0);
  options.stream = stream;
  options.unit = unit;
  options.out_of_bounds = OutOfBoundsPolicy::kDrop;
  return options;
}

std::vector<std::string> cpu_substr(const std::vector<std::string>& input, const Shape& shape,
                                    const TensorBuffer& pos, const TensorBuffer& len,
                                    SubstrUnit unit) {
  SubstrOptions options;
  options.device = Device::cpu();
  options.unit = unit;
  options.out_of_bounds = OutOfBoundsPolicy::kDrop;
  return substr(StringTensor::from_strings(input, shape), pos.clone(), len.clone(), options)
      .to_strings();
}

struct Form {
  const char* name;
  std::int64_t strings;  // input shape [strings]
  std::int64_t bytes;    // the input's chars
  Shape pos;             // pos and len
  std::int64_t factor;   // out_size / in_size
};

// Input [n] against pos [k, 1] or [k, n]: each string used k times.
const Form kForms[] = {
    {"scalar", 24, 600, Shape{}, 1},          {"per element", 24, 600, Shape{24}, 1},
    {"rows x2", 24, 600, Shape{2, 1}, 2},     {"rows x3 per element", 24, 600, Shape{3, 24}, 3},
    {"rows x4", 24, 600, Shape{4, 1}, 4},     {"long strings (lanes)", 8, 1600, Shape{8}, 1},
    {"empty strings", 24, 0, Shape{24}, 1},   {"empty input", 0, 0, Shape{}, 1},
    {"empty input x4", 0, 0, Shape{4, 1}, 4},
};

class SubstrCaptureOp : public ::testing::TestWithParam<SubstrUnit> {
 protected:
  ScopedTestDeviceMemory memory_;
  int token_ = 0;
  Stream caller_{&token_};
  kernels::HostExecutor graph_;
  int calls_ = 0;
  HostCudaSubstr backend_{&graph_, &calls_};
};

TEST_P(SubstrCaptureOp, EveryBoundedFormReplaysAsTheCpuBackend) {
  const SubstrUnit unit = GetParam();
  for (const Form& form : kForms) {
    SCOPED_TRACE(form.name);
    std::mt19937_64 rng(static_cast<unsigned>(form.bytes + form.factor * 7 + form.strings));
    RandomStrings s = random_strings(form.strings, form.bytes, rng);
    const Shape in_shape{form.strings};
    const StringTensor input = StringTensor::from_strings(s.values(), in_shape);
    TensorBuffer pos = ints(form.pos, rng, -6, 6);
    TensorBuffer len = ints(form.pos, rng, -1, 40);
    input.sync_to(Device::cuda(0));
    pos.sync_to(Device::cuda(0));
    len.sync_to(Device::cuda(0));
    const std::int64_t allocations = memory_->device_allocations();

    memory_->begin_capture(caller_.handle);
    graph_.begin_capture();
    core::SubstrRun run = run_on_cuda(input, pos, len, cuda_options(caller_, unit), backend_);
    graph_.end_capture();
    ASSERT_EQ(memory_->end_capture(), 0);
    EXPECT_EQ(graph_.reads(), 0);
    ASSERT_TRUE(run.out.has_value());
    const StringTensor& out = *run.out;
    EXPECT_EQ(out.size(), form.strings * form.factor);
    // The offsets and the chars at the bound (none when the bound is 0).
    EXPECT_EQ(memory_->device_allocations() - allocations, form.bytes > 0 ? 2 : 1);
    EXPECT_EQ(core::StringTensorAccess::chars_bound(out), form.bytes * form.factor);
    const void* chars_memory =
        core::StringTensorAccess::chars_on(out, Device::cuda(0)).device_bytes();

    std::vector<std::string> expected;
    for (int round = 0; round < kReplays; ++round) {
      s = random_strings(form.strings, form.bytes, rng);
      const TensorBuffer new_pos = ints(form.pos, rng, -6, 6);
      const TensorBuffer new_len = ints(form.pos, rng, -1, 40);
      write_device(input.offsets(), s.offsets.data(), s.offsets.size() * sizeof(std::int64_t));
      write_device(input.chars(), s.chars.data(), s.chars.size());
      write_device(pos, new_pos.host_bytes(), new_pos.size_bytes());
      write_device(len, new_len.host_bytes(), new_len.size_bytes());
      graph_.replay();
      expected = cpu_substr(s.values(), in_shape, new_pos, new_len, unit);
      ASSERT_EQ(device_strings(out), expected) << "replay " << round;
    }
    // Trimmed at the first host use: exact values, the same memory.
    EXPECT_EQ(out.to_strings(), expected);
    std::int64_t total = 0;
    for (const std::string& v : expected) total += static_cast<std::int64_t>(v.size());
    EXPECT_EQ(out.num_chars(), total);
    EXPECT_EQ(out.chars().flat_size(), total);
    if (form.bytes > 0) {
      EXPECT_EQ(out.chars().device_bytes(), chars_memory);
    }
    EXPECT_EQ(calls_, 1);
    calls_ = 0;
  }
}

TEST_P(SubstrCaptureOp, ASubstrOfABoundedOutputRunsInTheSameCapture) {
  const SubstrUnit unit = GetParam();
  std::mt19937_64 rng(5);
  RandomStrings s = random_strings(16, 400, rng);
  const StringTensor input = StringTensor::from_strings(s.values(), Shape{16});
  TensorBuffer pos = ints(Shape{2, 16}, rng, -3, 3);
  TensorBuffer len = ints(Shape{2, 16}, rng, 0, 30);
  TensorBuffer pos2 = ints(Shape{}, rng, 1, 1);
  TensorBuffer len2 = ints(Shape{}, rng, 5, 5);
  input.sync_to(Device::cuda(0));
  for (const TensorBuffer* b : {&pos, &len, &pos2, &len2}) b->sync_to(Device::cuda(0));

  memory_->begin_capture(caller_.handle);
  graph_.begin_capture();
  core::SubstrRun first = run_on_cuda(input, pos, len, cuda_options(caller_, unit), backend_);
  ASSERT_TRUE(first.out.has_value());
  // Read on the device as it is: its capacity bounds the second output.
  core::SubstrRun second =
      run_on_cuda(*first.out, pos2, len2, cuda_options(caller_, unit), backend_);
  graph_.end_capture();
  ASSERT_EQ(memory_->end_capture(), 0);
  EXPECT_EQ(graph_.reads(), 0);
  ASSERT_TRUE(second.out.has_value());
  EXPECT_EQ(core::StringTensorAccess::chars_bound(*second.out), 400 * 2);

  for (int round = 0; round < kReplays; ++round) {
    s = random_strings(16, 400, rng);
    write_device(input.offsets(), s.offsets.data(), s.offsets.size() * sizeof(std::int64_t));
    write_device(input.chars(), s.chars.data(), s.chars.size());
    graph_.replay();
    const std::vector<std::string> middle = cpu_substr(s.values(), Shape{16}, pos, len, unit);
    ASSERT_EQ(device_strings(*second.out), cpu_substr(middle, Shape{2, 16}, pos2, len2, unit))
        << "replay " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(Units, SubstrCaptureOp,
                         ::testing::Values(SubstrUnit::kByte, SubstrUnit::kUtf8Char),
                         [](const ::testing::TestParamInfo<SubstrUnit>& unit) {
                           return unit.param == SubstrUnit::kByte ? std::string("Bytes")
                                                                  : std::string("Utf8");
                         });

// ---------------------------------------------------------------------------------------------
// The blocked forms and the eager form

class SubstrCaptureBlocked : public SubstrCaptureOp {};

TEST_F(SubstrCaptureBlocked, KErrorAndABroadcastAboveFourRaiseBeforeEnqueuing) {
  const StringTensor input = StringTensor::from_strings({"hello", "world"}, Shape{2});
  input.sync_to(Device::cuda(0));
  struct Case {
    const char* name;
    Shape pos;
    OutOfBoundsPolicy policy;
    const char* reason;
  };
  const Case cases[] = {
      {"kError", Shape{}, OutOfBoundsPolicy::kError, "kError reads the first bad element"},
      {"broadcast x5", Shape{5, 1}, OutOfBoundsPolicy::kDrop, "input broadcast more than 4"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TensorBuffer pos = TensorBuffer::create_fixed_size(c.pos, DataType::kInt32);
    TensorBuffer len = TensorBuffer::create_fixed_size(c.pos, DataType::kInt32);
    pos.sync_to(Device::cuda(0));
    len.sync_to(Device::cuda(0));
    SubstrOptions options = cuda_options(caller_, SubstrUnit::kByte);
    options.out_of_bounds = c.policy;
    const std::int64_t allocations = memory_->device_allocations();
    memory_->begin_capture(caller_.handle);
    try {
      (void)run_on_cuda(input, pos, len, options, backend_);
      ADD_FAILURE() << "no UnavailableError";
    } catch (const UnavailableError& e) {
      EXPECT_NE(std::string(e.what()).find("substr cannot be captured in a CUDA graph: "),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(c.reason), std::string::npos) << e.what();
    }
    EXPECT_EQ(memory_->end_capture(), 0);
    EXPECT_EQ(memory_->device_allocations(), allocations);
    EXPECT_EQ(calls_, 0);
  }
}

TEST_F(SubstrCaptureBlocked, OutsideACaptureTheOutputIsExact) {
  const StringTensor input = StringTensor::from_strings({"hello", "world"}, Shape{2});
  input.sync_to(Device::cuda(0));
  TensorBuffer pos = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  TensorBuffer len = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  len.overwrite_host<std::int32_t>()[0] = 2;
  core::SubstrRun run =
      run_on_cuda(input, pos, len, cuda_options(caller_, SubstrUnit::kByte), backend_);
  EXPECT_EQ(graph_.reads(), 1);  // the total, read back to allocate exactly
  ASSERT_TRUE(run.out.has_value());
  EXPECT_EQ(core::StringTensorAccess::chars_bound(*run.out), 4);
  EXPECT_EQ(run.out->chars().bytes_on(Device::cuda(0)), 4u);
  EXPECT_EQ(run.out->to_strings(), (std::vector<std::string>{"he", "wo"}));
}

// ---------------------------------------------------------------------------------------------
// The lazy trim of a bounded output (include/tensorbuf/string_tensor.hpp)

// A bounded output of substr(["hello", "wide world"], 1, 3) captured and replayed once: the
// strings "ell" and "ide", chars held at the bound (15 bytes).
class BoundedOutput : public SubstrCaptureOp {
 protected:
  void SetUp() override {
    input_.sync_to(Device::cuda(0));
    len_.overwrite_host<std::int32_t>()[0] = 3;
    pos_.overwrite_host<std::int32_t>()[0] = 1;
    pos_.sync_to(Device::cuda(0));
    len_.sync_to(Device::cuda(0));
    memory_->begin_capture(caller_.handle);
    graph_.begin_capture();
    out_ = std::move(
        run_on_cuda(input_, pos_, len_, cuda_options(caller_, SubstrUnit::kByte), backend_)
            .out.value());
    graph_.end_capture();
    ASSERT_EQ(memory_->end_capture(), 0);
    graph_.replay();
    chars_memory_ = core::StringTensorAccess::chars_on(out_, Device::cuda(0)).device_bytes();
    downloads_ = memory_->downloads();
  }

  // The trim happened: exact size, the same memory, the block still at the bound.
  void expect_trimmed() {
    EXPECT_EQ(core::StringTensorAccess::chars_bound(out_), 6);
    EXPECT_EQ(out_.chars().flat_size(), 6);
    EXPECT_EQ(out_.chars().size_bytes(), 6u);
    EXPECT_EQ(out_.chars().device_bytes(), chars_memory_);
    EXPECT_EQ(out_.chars().bytes_on(Device::cuda(0)), 15u);
  }

  const StringTensor input_ = StringTensor::from_strings({"hello", "wide world"}, Shape{2});
  TensorBuffer pos_ = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  TensorBuffer len_ = TensorBuffer::create_fixed_size(Shape{}, DataType::kInt32);
  StringTensor out_;
  const void* chars_memory_ = nullptr;
  std::int64_t downloads_ = 0;
};

TEST_F(BoundedOutput, HoldsTheBoundUntilTrimmed) {
  EXPECT_EQ(core::StringTensorAccess::chars_bound(out_), 15);
  EXPECT_EQ(out_.shape(), Shape{2});
  EXPECT_TRUE(out_.is_valid_on(Device::cuda(0)));
  EXPECT_EQ(out_.residence(), Device::cuda(0));
  out_.sync_to(Device::cuda(0));  // already there: no trim, nothing read
  EXPECT_EQ(memory_->downloads(), downloads_);
  EXPECT_EQ(core::StringTensorAccess::chars_bound(out_), 15);
}

TEST_F(BoundedOutput, NumCharsFirst) {
  EXPECT_EQ(out_.num_chars(), 6);
  EXPECT_EQ(memory_->downloads(), downloads_ + 1);  // the offsets, once
  expect_trimmed();
  EXPECT_EQ(out_.to_strings(), (std::vector<std::string>{"ell", "ide"}));
}

TEST_F(BoundedOutput, AtFirst) {
  EXPECT_EQ(out_.at(1), "ide");
  EXPECT_EQ(out_.at(0), "ell");
  expect_trimmed();
}

TEST_F(BoundedOutput, ToStringsFirst) {
  EXPECT_EQ(out_.to_strings(), (std::vector<std::string>{"ell", "ide"}));
  EXPECT_EQ(memory_->downloads(), downloads_ + 2);  // the offsets, then the 6 chars
  expect_trimmed();
}

TEST_F(BoundedOutput, CharsFirst) {
  const TensorBuffer& chars = out_.chars();
  EXPECT_EQ(chars.flat_size(), 6);
  const auto* bytes = static_cast<const char*>(chars.host_bytes());
  EXPECT_EQ(std::string(bytes, 6), "ellide");
  expect_trimmed();
}

TEST_F(BoundedOutput, SyncToTheHostFirst) {
  reset_stats();
  out_.sync_to(Device::cpu());
  EXPECT_TRUE(out_.is_valid_on(Device::cpu()));
  EXPECT_EQ(stats().bytes_device_to_host, 3 * 8 + 6);  // the offsets, then 6 chars, not 15
  expect_trimmed();
}

TEST_F(BoundedOutput, TakeBuffersTrims) {
  auto [offsets, chars] = core::StringTensorAccess::take_buffers(std::move(out_));
  EXPECT_EQ(chars.flat_size(), 6);
  EXPECT_EQ(offsets.host<std::int64_t>()[2], 6);
  EXPECT_EQ(chars.device_bytes(), chars_memory_);
}

TEST_F(BoundedOutput, ConcurrentReadersTrimOnce) {
  std::vector<std::thread> readers;
  std::vector<std::int64_t> sizes(8);
  std::vector<std::vector<std::string>> values(8);
  for (int t = 0; t < 8; ++t) {
    readers.emplace_back([&, t] {
      sizes[t] = out_.num_chars();
      values[t] = out_.to_strings();
    });
  }
  for (std::thread& r : readers) r.join();
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(sizes[t], 6);
    EXPECT_EQ(values[t], (std::vector<std::string>{"ell", "ide"}));
  }
  expect_trimmed();
}

TEST_F(BoundedOutput, ATrimmedOutputIsAnOrdinaryInput) {
  EXPECT_EQ(out_.num_chars(), 6);
  SubstrOptions options;
  options.device = Device::cpu();
  const StringTensor again = substr(out_, pos_, len_, options);
  EXPECT_EQ(again.to_strings(), (std::vector<std::string>{"ll", "de"}));
}

TEST_F(BoundedOutput, AHostOpOnAnUntrimmedOutputTrimsIt) {
  SubstrOptions options;
  options.device = Device::cpu();
  const StringTensor again = substr(out_, pos_, len_, options);
  EXPECT_EQ(again.to_strings(), (std::vector<std::string>{"ll", "de"}));
  expect_trimmed();
}

TEST_F(BoundedOutput, ALastOffsetOutsideTheBoundIsAnInternalError) {
  // What a read before the graph ran could see: offsets the graph has not written.
  TensorBuffer offsets = TensorBuffer::create_fixed_size(Shape{2}, DataType::kInt64);
  offsets.overwrite_host<std::int64_t>()[1] = 16;
  offsets.sync_to(Device::cuda(0));
  TensorBuffer chars = TensorBuffer::create_uninitialized(Shape{15}, DataType::kUInt8);
  (void)chars.overwrite_device_bytes();
  const StringTensor bad =
      core::StringTensorAccess::make_bounded(std::move(offsets), std::move(chars), Shape{1});
  EXPECT_THROW((void)bad.num_chars(), InternalError);
  EXPECT_EQ(core::StringTensorAccess::chars_bound(bad), 15);  // nothing changed
}

}  // namespace
}  // namespace tensorbuf
