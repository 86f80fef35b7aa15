// The capture rule the op table declares (tensorbuf/op_table.hpp, docs/capture.md) against
// src/core/capture's decision, without a GPU: for each op of the table, its capturable forms get
// no blocker from the plan the op builds and pass core::reject_capture on a capturing stream of
// the test device memory, and its blocked forms get one and raise UnavailableError there before
// anything is enqueued (the capture ends with no violation). An op declared kAlways must have a
// capturable form and no blocked one, kNever the reverse, kConditional both.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend_run.hpp"
#include "core/capture.hpp"
#include "core/dispatch.hpp"
#include "core/plan_boolean_mask.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "core/plan_gather_nd.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/plan_substr.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::ScopedTestDeviceMemory;

TensorBuffer zeros(const Shape& shape, DataType type) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, type);
  if (b.size_bytes() > 0) std::memset(b.overwrite_host_bytes(), 0, b.size_bytes());
  return b;
}

// The blockers of an op's forms: those the docs call capturable, and those they block.
struct Forms {
  std::vector<const char*> capturable;
  std::vector<const char*> blocked;
};

Forms scatter_nd(core::ScatterOp op) {
  Forms forms;
  for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kDrop, OutOfBoundsPolicy::kError}) {
    core::ScatterNdPlan plan = core::plan_scatter_nd(op, zeros(Shape{4}, DataType::kInt32),
                                                     zeros(Shape{2, 1}, DataType::kInt64),
                                                     zeros(Shape{2}, DataType::kInt32));
    plan.policy = policy;
    for (bool deterministic : {false, true}) {
      plan.deterministic = deterministic;
      (policy == OutOfBoundsPolicy::kDrop ? forms.capturable : forms.blocked)
          .push_back(core::scatter_nd_capture_blocker(plan));
    }
  }
  return forms;
}

// One index-taking op's plan blocker for kDrop, then kError.
Forms by_policy(const std::function<const char*(OutOfBoundsPolicy)>& blocker) {
  return {{blocker(OutOfBoundsPolicy::kDrop)}, {blocker(OutOfBoundsPolicy::kError)}};
}

const char* mask_update(const Shape& tensor, const Shape& mask, const Shape& updates) {
  return core::mask_update_capture_blocker(core::plan_boolean_mask_update(
      zeros(tensor, DataType::kFloat32), zeros(mask, DataType::kBool),
      zeros(updates, DataType::kFloat32), {}));
}

const char* substr_form(const Shape& pos, OutOfBoundsPolicy policy) {
  const StringTensor input = StringTensor::from_strings({"hello", "world"}, Shape{2});
  core::SubstrPlan plan =
      core::plan_substr(input, zeros(pos, DataType::kInt32), zeros(pos, DataType::kInt32), {});
  plan.policy = policy;
  return core::substr_capture_blocker(plan);
}

// scale and zero point as the op gets them: on the host, or written last on the device.
const char* linear_form(bool on_device) {
  TensorBuffer scale = zeros(Shape{}, DataType::kFloat32);
  TensorBuffer zero_point = zeros(Shape{}, DataType::kUInt8);
  if (on_device) {
    core::BackendRun run(Device::cuda(0), Stream{});
    run.overwrite(scale);
    run.overwrite(zero_point);
    run.finish();
  }
  return core::linear_capture_blocker(scale, zero_point);
}

std::map<std::string_view, std::function<Forms()>> forms_by_op() {
  std::map<std::string_view, std::function<Forms()>> f;
#define TENSORBUF_SCATTER_FORMS(name, op, what) \
  f["tensor_scatter_nd_" #name] = [] { return scatter_nd(core::ScatterOp::op); };
  TENSORBUF_SCATTER_COMBINES(TENSORBUF_SCATTER_FORMS)
#undef TENSORBUF_SCATTER_FORMS
  f["boolean_mask_update"] = [] {
    // Capturable: a scalar or one row (n never needed), or an empty mask; blocked: a dim of n.
    return Forms{{mask_update({4, 3}, {4}, {}), mask_update({4, 3}, {4}, {1, 3}),
                  mask_update({0, 3}, {0}, {0, 3})},
                 {mask_update({4, 3}, {4}, {2, 3}), mask_update({4}, {4}, {2})}};
  };
  f["substr"] = [] {
    return Forms{
        {substr_form({}, OutOfBoundsPolicy::kDrop), substr_form({4, 1}, OutOfBoundsPolicy::kDrop)},
        {substr_form({}, OutOfBoundsPolicy::kError),
         substr_form({5, 1}, OutOfBoundsPolicy::kDrop)}};
  };
  const auto mask_plan = [] {
    return core::plan_boolean_mask(zeros(Shape{4}, DataType::kFloat32),
                                   zeros(Shape{4}, DataType::kBool), {});
  };
  f["boolean_mask"] = [=] { return Forms{{}, {core::boolean_mask_capture_blocker(mask_plan())}}; };
  f["compress"] = [] {
    return Forms{{},
                 {core::boolean_mask_capture_blocker(core::plan_compress(
                     zeros(Shape{4}, DataType::kFloat32), zeros(Shape{4}, DataType::kBool), {}))}};
  };
  f["boolean_mask_into"] = [=] {
    return Forms{{core::boolean_mask_into_capture_blocker(mask_plan())}, {}};
  };
  f["quantize_linear"] = f["dequantize_linear"] = [] {
    return Forms{{linear_form(false)}, {linear_form(true)}};
  };
  f["gather_nd"] = [] {
    return by_policy([](OutOfBoundsPolicy policy) {
      core::GatherNdPlan plan = core::plan_gather_nd(zeros(Shape{4}, DataType::kFloat32),
                                                     zeros(Shape{2, 1}, DataType::kInt64), {});
      plan.policy = policy;
      return core::gather_nd_capture_blocker(plan);
    });
  };
  f["gather"] = f["gather_elements"] =
      f["scatter_elements"] = [] { return by_policy(&core::axis_index_capture_blocker); };
  return f;
}

// The processing ops have no blocker in src/core: they never read back (one kernel pass), which
// tests/capture/test_processing_driver.cpp checks on the host executor.
constexpr std::string_view kNoBlocker[] = {"normalize", "quantize", "dequantize", "cast"};

bool has_no_blocker(std::string_view name) {
  for (std::string_view n : kNoBlocker) {
    if (n == name) return true;
  }
  return false;
}

TEST(OpTableCapture, EveryOpsFormsAreDecidedAsItsRowSays) {
  ScopedTestDeviceMemory memory;
  int token = 0;
  const Stream caller{&token};
  const auto forms_of = forms_by_op();
  std::size_t ops = 0;
  for (const OpFamilyInfo& family : kOpFamilies) {
    for_each_op_name(family, [&](std::string_view name) {
      ++ops;
      const std::string op(name);
      SCOPED_TRACE(op);
      const OpTraits* traits = find_op_traits(name);
      ASSERT_NE(traits, nullptr);
      EXPECT_EQ(traits->capture_when.empty(), traits->capture != Capture::kConditional);
      if (has_no_blocker(name)) {
        EXPECT_EQ(traits->capture, Capture::kAlways);
        EXPECT_EQ(forms_of.count(name), 0u);
        return;
      }
      ASSERT_EQ(forms_of.count(name), 1u) << "no forms for this op in the test";
      const Forms forms = forms_of.at(name)();
      EXPECT_EQ(!forms.capturable.empty(), traits->capture != Capture::kNever);
      EXPECT_EQ(!forms.blocked.empty(), traits->capture != Capture::kAlways);
      memory->begin_capture(caller.handle);
      for (const char* blocker : forms.capturable) {
        EXPECT_EQ(blocker, nullptr) << blocker;
        EXPECT_NO_THROW(core::reject_capture(op.c_str(), blocker, Device::cuda(0), caller));
      }
      for (const char* blocker : forms.blocked) {
        EXPECT_NE(blocker, nullptr);
        EXPECT_THROW(core::reject_capture(op.c_str(), blocker, Device::cuda(0), caller),
                     UnavailableError);
      }
      EXPECT_EQ(memory->end_capture(), 0);  // nothing was enqueued, nothing read back
    });
  }
  EXPECT_EQ(forms_of.size() + std::size(kNoBlocker), ops) << "forms for an op not in the table";
}

}  // namespace
}  // namespace tensorbuf
