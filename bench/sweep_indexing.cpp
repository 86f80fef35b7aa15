// Sweep forms of the indexing family (sweep.hpp), f32 rows of 16 elements (64 bytes), random
// int64 indices, `size` counting the elements each op moves:
//  gather_nd_f32_rows:          [size / 16, 16] params, [size / 16, 1] indices -> as many rows;
//  gather_elements_f32:         [size / 16, 16] params and indices, axis 0;
//  scatter_elements_add_f32_in_place: the same shapes plus updates, kAdd, in place;
//  boolean_mask_f32_rows:       [size / 16, 16] tensor, a mask of density 0.5;
//  boolean_mask_into_f32_rows:  the same into an output sized once, n into a count;
//  compress_f32_rows:           the same through compress on axis 0;
//  gather_f32_rows:             gather_nd's shapes through gather on axis 0 ([size / 16] indices).
// Yardstick: a serial memcpy of each op's traffic (the bytes of bench_gather_nd.cpp,
// bench_elements.cpp and bench_boolean_mask.cpp); on CUDA a device copy of it.
#include <string>

#include "bench_support.hpp"
#include "sweep_forms.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::int64_t kRowWidth = 16;

struct Inputs {
  TensorBuffer data, indices, updates;
};

TensorBuffer unused() { return TensorBuffer::create_dynamic(DataType::kFloat32); }

TensorBuffer random_rows(std::int64_t rows, std::uint64_t seed) {
  return make_buffer(random_floats(rows * kRowWidth, -1.0, 1.0, seed), Shape{rows, kRowWidth},
                     DataType::kFloat32);
}

// gather_nd with [rows, 1] indices, or gather on axis 0 with [rows] indices: the same rows.
SweepCalls gather_nd_calls(std::int64_t rows, Device device, bool axis_gather = false) {
  auto in = std::make_shared<Inputs>(
      Inputs{random_rows(rows, 51),
             make_index_buffer(random_ints(rows, 0, rows, 52),
                               axis_gather ? Shape{rows} : Shape{rows, 1}, DataType::kInt64),
             unused()});
  place_on(device, in->data, in->indices);
  GatherOptions options;
  options.device = device;
  const double n = static_cast<double>(rows);
  std::function<void()> op = [in, options] {
    TensorBuffer out = gather_nd(in->data, in->indices, options);
    benchmark::DoNotOptimize(&out);
  };
  if (axis_gather) {
    op = [in, options] {
      TensorBuffer out = gather(in->data, in->indices, options);
      benchmark::DoNotOptimize(&out);
    };
  }
  return {op, copy_yardstick(8.0 * n + 2.0 * 4.0 * n * kRowWidth, device)};
}

SweepCalls element_calls(std::int64_t rows, bool scatter, Device device) {
  auto in = std::make_shared<Inputs>(Inputs{
      random_rows(rows, 51),
      make_index_buffer(random_ints(rows * kRowWidth, 0, rows, 52), Shape{rows, kRowWidth},
                        DataType::kInt64),
      scatter ? random_rows(rows, 53) : unused()});
  place_on(device, in->data, in->indices);
  if (scatter) place_on(device, in->updates);
  const double n = static_cast<double>(rows * kRowWidth);
  if (scatter) {
    ScatterElementsOptions options;
    options.device = device;
    options.reduction = Reduction::kAdd;
    return {[in, options] {
              scatter_elements_in_place(in->data, in->indices, in->updates, options);
            },
            copy_yardstick(8.0 * n + 4.0 * n + 2.0 * 4.0 * n, device)};
  }
  GatherOptions options;
  options.device = device;
  return {[in, options] {
            TensorBuffer out = gather_elements(in->data, in->indices, options);
            benchmark::DoNotOptimize(&out);
          },
          copy_yardstick(8.0 * n + 2.0 * 4.0 * n, device)};
}

enum class Op {
  kGatherNd,
  kGatherElements,
  kScatterElementsAdd,
  kBooleanMask,
  kGather,
  kBooleanMaskInto,
  kCompress
};

SweepCalls boolean_mask_calls(std::int64_t rows, Device device, Op op) {
  const std::vector<std::uint8_t> mask_bytes = random_bools(rows, 0.5, 54);
  std::int64_t selected = 0;
  for (const std::uint8_t b : mask_bytes) selected += b;
  auto in = std::make_shared<Inputs>(
      Inputs{random_rows(rows, 51), TensorBuffer::create_uninitialized(Shape{rows}, DataType::kBool),
             unused()});
  std::memcpy(in->indices.overwrite_host_bytes(), mask_bytes.data(), mask_bytes.size());
  place_on(device, in->data, in->indices);
  BooleanMaskOptions options;
  options.device = device;
  const double moved = 4.0 * static_cast<double>(selected * kRowWidth);
  SweepCalls calls{[in, options] {
                     TensorBuffer out = boolean_mask(in->data, in->indices, options);
                     benchmark::DoNotOptimize(&out);
                   },
                   copy_yardstick(static_cast<double>(rows) + 2.0 * moved, device)};
  if (op == Op::kBooleanMaskInto) {
    // The output (as `data`) and the count (as `indices`), sized once, first touched here.
    auto out = std::make_shared<Inputs>(
        Inputs{TensorBuffer::create_uninitialized(Shape{selected, kRowWidth}, DataType::kFloat32),
               TensorBuffer::create_uninitialized(Shape{1}, DataType::kInt64), unused()});
    boolean_mask_into(in->data, in->indices, out->data, out->indices, options);
    calls.op = [in, out, options] {
      boolean_mask_into(in->data, in->indices, out->data, out->indices, options);
    };
  } else if (op == Op::kCompress) {
    CompressOptions compress_options;
    compress_options.device = device;
    compress_options.axis = 0;
    calls.op = [in, compress_options] {
      TensorBuffer out = compress(in->data, in->indices, compress_options);
      benchmark::DoNotOptimize(&out);
    };
  }
  return calls;
}

SweepForm form(Op op, std::string name) {
  SweepForm f;
  f.name = std::move(name);
  f.yardstick = "memcpy";
  f.unit = "elements";
  f.max_size = std::int64_t{1} << 24;
  f.make = [op](std::int64_t size, Device device) {
    const std::int64_t rows = std::max<std::int64_t>(1, size / kRowWidth);
    switch (op) {
      case Op::kGatherNd:
        return gather_nd_calls(rows, device);
      case Op::kGather:
        return gather_nd_calls(rows, device, true);
      case Op::kGatherElements:
        return element_calls(rows, false, device);
      case Op::kScatterElementsAdd:
        return element_calls(rows, true, device);
      case Op::kBooleanMask:
      case Op::kBooleanMaskInto:
      case Op::kCompress:
        break;
    }
    return boolean_mask_calls(rows, device, op);
  };
  return f;
}

std::vector<SweepForm> indexing_sweep_forms() {
  return {form(Op::kGatherNd, "gather_nd_f32_rows"),
          form(Op::kGatherElements, "gather_elements_f32"),
          form(Op::kScatterElementsAdd, "scatter_elements_add_f32_in_place"),
          form(Op::kBooleanMask, "boolean_mask_f32_rows"),
          form(Op::kGather, "gather_f32_rows"),
          form(Op::kBooleanMaskInto, "boolean_mask_into_f32_rows"),
          form(Op::kCompress, "compress_f32_rows")};
}

}  // namespace

const SweepAreaRegistration registration("gather_nd", &indexing_sweep_forms);

}  // namespace tensorbuf::bench
