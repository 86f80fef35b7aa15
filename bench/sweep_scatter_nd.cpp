// Sweep forms of the scatter ops (sweep.hpp): every combine of the op table, f32,
// int64 indices, random rows, out of place and in place, with
//  elements: `size` one-element updates into a table of 4 x size elements (depth 1, slice 1);
//  slices:   size / 16 row updates of 16 elements into a [4 x size / 16, 16] table.
// Yardstick: a plain serial loop over the same arrays (no bounds check); out of place it first
// copies the table into an output allocated (and touched) once, outside the timing. On CUDA: a
// device copy of the scatter's traffic (scatter_traffic_bytes, as bench/bench_scatter_nd.cpp).
#include <algorithm>
#include <string>
#include <utility>

#include "bench_support.hpp"
#include "sweep_forms.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::bench {
namespace {

constexpr std::int64_t kSliceWidth = 16;

using OutOfPlace = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                    const ScatterOptions&);
using InPlace = void (*)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                         const ScatterOptions&);

struct Op {
  const char* name;
  OutOfPlace out_of_place;
  InPlace in_place;
};

// Every combine of the op table; the serial loop's combine below is written per op (the
// yardstick is a user's loop, not the library's functor).
const Op kOps[] = {
#define TENSORBUF_SWEEP_OP(name, op, what) \
  {#name, &tensor_scatter_nd_##name, &tensor_scatter_nd_##name##_in_place},
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_SWEEP_OP)
#undef TENSORBUF_SWEEP_OP
};

struct Data {
  TensorBuffer table, indices, updates;
  std::vector<float> yardstick_out;
};

// The serial loop, with the combine inlined per op (a function pointer call per element would
// make the yardstick slower than a user's loop).
template <class Combine>
void serial_scatter(float* out, const std::int64_t* index, const float* updates, std::int64_t rows,
                    std::int64_t width, Combine combine) {
  for (std::int64_t r = 0; r < rows; ++r) {
    float* target = out + index[r] * width;
    const float* u = updates + r * width;
    for (std::int64_t j = 0; j < width; ++j) target[j] = combine(target[j], u[j]);
  }
}

template <class Combine>
SweepCalls make_calls(const Op& op, bool in_place, std::int64_t size, std::int64_t width,
                      Combine combine, Device device) {
  const std::int64_t rows = std::max<std::int64_t>(1, size / width);
  const std::int64_t table_rows = 4 * rows;
  auto data = std::make_shared<Data>(Data{
      make_buffer(random_floats(table_rows * width, -1.0, 1.0, 11),
                  width == 1 ? Shape{table_rows} : Shape{table_rows, width}, DataType::kFloat32),
      make_index_buffer(random_ints(rows, 0, table_rows, 12), Shape{rows, 1}, DataType::kInt64),
      make_buffer(random_floats(rows * width, -1.0, 1.0, 13),
                  width == 1 ? Shape{rows} : Shape{rows, width}, DataType::kFloat32),
      std::vector<float>(
          static_cast<std::size_t>(in_place || device.is_cuda() ? 0 : table_rows * width))});
  place_on(device, data->table, data->indices, data->updates);
  SweepCalls calls;
  const ScatterOptions options{.device = device};
  if (in_place) {
    calls.op = [data, op, options] {
      op.in_place(data->table, data->indices, data->updates, options);
    };
  } else {
    calls.op = [data, op, options] {
      TensorBuffer out = op.out_of_place(data->table, data->indices, data->updates, options);
      benchmark::DoNotOptimize(&out);
    };
  }
  if (device.is_cuda()) {
    calls.yardstick =
        copy_yardstick(scatter_traffic_bytes(rows, width, table_rows, in_place), device);
    return calls;
  }
  calls.yardstick = [data, in_place, rows, width, combine] {
    float* out = in_place ? data->table.mutable_host<float>() : data->yardstick_out.data();
    if (!in_place) {
      std::memcpy(out, data->table.host<float>(), data->yardstick_out.size() * sizeof(float));
    }
    serial_scatter(out, data->indices.host<std::int64_t>(), data->updates.host<float>(), rows,
                   width, combine);
    benchmark::ClobberMemory();
  };
  return calls;
}

template <int kOp>
SweepForm form(bool slices, bool in_place) {
  const Op& op = kOps[kOp];
  const std::int64_t width = slices ? kSliceWidth : 1;
  SweepForm f;
  f.name = std::string("scatter_nd_") + op.name + "_f32_" + (slices ? "slices" : "elements") +
           (in_place ? "_in_place" : "");
  f.yardstick = "serial loop";
  f.unit = "updated elements";
  f.max_size = std::int64_t{1} << 26;
  f.make = [width, in_place](std::int64_t size, Device device) {
    constexpr auto combine = [](float a, float b) {
      if constexpr (kOp == 0) return a - b;
      if constexpr (kOp == 1) return a + b;
      if constexpr (kOp == 2) return b;
      if constexpr (kOp == 3) return std::min(a, b);
      if constexpr (kOp == 4) return std::max(a, b);
      if constexpr (kOp == 5) return a * b;
    };
    return make_calls(kOps[kOp], in_place, size, width, combine, device);
  };
  return f;
}

template <int kOp>
void add_forms(std::vector<SweepForm>& forms) {
  for (const bool slices : {false, true}) {
    for (const bool in_place : {false, true}) forms.push_back(form<kOp>(slices, in_place));
  }
}

template <std::size_t... kOp>
void add_every_op(std::vector<SweepForm>& forms, std::index_sequence<kOp...>) {
  (add_forms<static_cast<int>(kOp)>(forms), ...);
}

std::vector<SweepForm> scatter_nd_sweep_forms() {
  std::vector<SweepForm> forms;
  add_every_op(forms, std::make_index_sequence<std::size(kOps)>());
  return forms;
}

}  // namespace

const SweepAreaRegistration registration("tensor_scatter_nd", &scatter_nd_sweep_forms);

}  // namespace tensorbuf::bench
