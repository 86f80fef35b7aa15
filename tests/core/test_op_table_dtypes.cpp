// The dtypes the op table declares (tensorbuf/op_table.hpp) against what the ops accept: every
// op of the table called on the CPU with tiny valid shapes, once per DataType of its first input
// and once per DataType of its indices. A dtype in the row must run; one outside it must raise
// InvalidArgumentError (the class src/core's plans raise for a dtype), so the table and the
// validation cannot drift.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "tensorbuf/op_table.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

constexpr DataType kEveryType[] = {DataType::kBool,    DataType::kUInt8,    DataType::kInt8,
                                   DataType::kInt16,   DataType::kInt32,    DataType::kInt64,
                                   DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                                   DataType::kFloat64};

TensorBuffer zeros(const Shape& shape, DataType type) {
  TensorBuffer b = TensorBuffer::create_fixed_size(shape, type);
  if (b.size_bytes() > 0) std::memset(b.overwrite_host_bytes(), 0, b.size_bytes());
  return b;
}

// Indices {0, 1} when `type` can hold them (any other type's contents are never read).
TensorBuffer indices(const Shape& shape, DataType type) {
  TensorBuffer b = zeros(shape, type);
  if (type == DataType::kInt32) b.mutable_host<std::int32_t>()[1] = 1;
  if (type == DataType::kInt64) b.mutable_host<std::int64_t>()[1] = 1;
  return b;
}

TensorBuffer floats(float value) {
  TensorBuffer b = TensorBuffer::create_fixed_size(Shape{}, DataType::kFloat32);
  *b.overwrite_host<float>() = value;
  return b;
}

// Calls the op with its first input of dtype `data` and its indices (if any) of dtype `index`.
using Call = std::function<void(DataType data, DataType index)>;

using ScatterFn = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                   const ScatterOptions&);

Call scatter_nd(ScatterFn fn) {
  return [fn](DataType d, DataType i) {
    (void)fn(zeros(Shape{4}, d), indices(Shape{2, 1}, i), zeros(Shape{2}, d), {});
  };
}

std::map<std::string_view, Call> calls() {
  std::map<std::string_view, Call> c;
  c["tensor_scatter_nd_sub"] = scatter_nd(&tensor_scatter_nd_sub);
  c["tensor_scatter_nd_add"] = scatter_nd(&tensor_scatter_nd_add);
  c["tensor_scatter_nd_update"] = scatter_nd(&tensor_scatter_nd_update);
  c["tensor_scatter_nd_min"] = scatter_nd(&tensor_scatter_nd_min);
  c["tensor_scatter_nd_max"] = scatter_nd(&tensor_scatter_nd_max);
  c["tensor_scatter_nd_mul"] = scatter_nd(&tensor_scatter_nd_mul);
  c["boolean_mask_update"] = [](DataType d, DataType) {
    (void)boolean_mask_update(zeros(Shape{4}, d), zeros(Shape{4}, DataType::kBool),
                              zeros(Shape{1}, d));
  };
  c["substr"] = [](DataType, DataType i) {
    const StringTensor input = StringTensor::from_strings({"hello", "world"}, Shape{2});
    (void)substr(input, indices(Shape{2}, i), indices(Shape{2}, i));
  };
  c["boolean_mask"] = [](DataType d, DataType) {
    (void)boolean_mask(zeros(Shape{4}, d), zeros(Shape{4}, DataType::kBool));
  };
  c["boolean_mask_into"] = [](DataType d, DataType) {
    TensorBuffer out = zeros(Shape{4}, d);
    TensorBuffer count = zeros(Shape{1}, DataType::kInt64);
    boolean_mask_into(zeros(Shape{4}, d), zeros(Shape{4}, DataType::kBool), out, count);
  };
  c["compress"] = [](DataType d, DataType) {
    (void)compress(zeros(Shape{4}, d), zeros(Shape{4}, DataType::kBool));
  };
  // Not the identity parameters, which return x whatever its dtype.
  c["normalize"] = [](DataType d, DataType) { (void)normalize(zeros(Shape{4}, d), 0.5f, 2.0f); };
  c["quantize"] = [](DataType d, DataType) { (void)quantize(zeros(Shape{4}, d), 1.0f, 2.0f); };
  c["dequantize"] = [](DataType d, DataType) { (void)dequantize(zeros(Shape{4}, d), 1.0f, 2.0f); };
  c["cast"] = [](DataType d, DataType) { (void)cast(zeros(Shape{4}, d), DataType::kFloat32); };
  c["quantize_linear"] = [](DataType d, DataType) {
    (void)quantize_linear(zeros(Shape{4}, d), floats(0.5f), zeros(Shape{}, DataType::kUInt8));
  };
  c["dequantize_linear"] = [](DataType d, DataType) {
    (void)dequantize_linear(zeros(Shape{4}, d), floats(0.5f), zeros(Shape{}, d));
  };
  c["gather_nd"] = [](DataType d, DataType i) {
    (void)gather_nd(zeros(Shape{4}, d), indices(Shape{2, 1}, i));
  };
  c["gather"] = [](DataType d, DataType i) {
    (void)gather(zeros(Shape{4}, d), indices(Shape{2}, i));
  };
  c["gather_elements"] = [](DataType d, DataType i) {
    (void)gather_elements(zeros(Shape{4}, d), indices(Shape{2}, i));
  };
  c["scatter_elements"] = [](DataType d, DataType i) {
    (void)scatter_elements(zeros(Shape{4}, d), indices(Shape{2}, i), zeros(Shape{2}, d));
  };
  return c;
}

// Runs `call` and says how it ended: "ok", "InvalidArgumentError" or what else it threw.
std::string outcome(const Call& call, DataType data, DataType index) {
  try {
    call(data, index);
    return "ok";
  } catch (const InvalidArgumentError&) {
    return "InvalidArgumentError";
  } catch (const std::exception& e) {
    return std::string("other: ") + e.what();
  }
}

std::string expected(unsigned set, DataType type) {
  return dtypes::contains(set, type) ? "ok" : "InvalidArgumentError";
}

TEST(OpTableDtypes, EveryOpAcceptsExactlyItsRowsDtypes) {
  const std::map<std::string_view, Call> call = calls();
  int checked = 0;
  for (const OpFamilyInfo& family : kOpFamilies) {
    for_each_op_name(family, [&](std::string_view name) {
      SCOPED_TRACE(std::string(name));
      const OpTraits* traits = find_op_traits(name);
      ASSERT_NE(traits, nullptr);
      ASSERT_EQ(call.count(name), 1u) << "no call for this op in the test";
      const Call& run = call.at(name);
      // A valid partner for the other input while one input's dtype varies.
      const DataType valid_index = DataType::kInt64;
      const DataType valid_data = DataType::kFloat32;
      if (traits->dtypes != dtypes::kNone) {
        for (DataType type : kEveryType) {
          EXPECT_EQ(outcome(run, type, valid_index), expected(traits->dtypes, type))
              << "first input " << to_string(type);
          ++checked;
        }
      }
      if (traits->index_dtypes != dtypes::kNone) {
        for (DataType type : kEveryType) {
          EXPECT_EQ(outcome(run, valid_data, type), expected(traits->index_dtypes, type))
              << "indices " << to_string(type);
          ++checked;
        }
      }
    });
  }
  EXPECT_EQ(checked, 10 * (20 + 11));  // 20 ops with a dtyped first input, 11 with indices
  int ops = 0;
  for (const OpFamilyInfo& family : kOpFamilies) for_each_op_name(family, [&](auto) { ++ops; });
  EXPECT_EQ(call.size(), static_cast<std::size_t>(ops)) << "a call for an op not in the table";
}

TEST(OpTableDtypes, TheSetsAreWhatTheirNamesSay) {
  EXPECT_EQ(dtypes::kAll, 0x3FFu);
  EXPECT_FALSE(dtypes::contains(dtypes::kNumeric, DataType::kBool));
  EXPECT_TRUE(dtypes::contains(dtypes::kNumeric, DataType::kBFloat16));
  EXPECT_TRUE(dtypes::contains(dtypes::kIndex, DataType::kInt32));
  EXPECT_FALSE(dtypes::contains(dtypes::kIndex, DataType::kInt16));
  EXPECT_EQ(find_op_traits("no_such_op"), nullptr);
}

}  // namespace
}  // namespace tensorbuf
