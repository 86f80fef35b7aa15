// The T* vectors of spec/tensor_scatter_nd.md.
#include <limits>

#include "cli_examples.hpp"

namespace tensorbuf::cli {
namespace {

using ScatterFn = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                                   const ScatterOptions&);
using Maker = std::function<TensorBuffer()>;

// How a vector documented for one device runs on the other (see `tensorbuf examples --help`).
enum class Mode {
  kPlain,          // default options on both devices
  kCpuError,       // documented for the CPU default (error): CUDA asks for kError
  kDrop,           // documented for CUDA's default (drop): the CPU asks for kDrop
  kDeterministic,  // update with duplicates, documented for the CPU: CUDA asks for determinism
};

Example scatter(std::string id, std::string input, std::string expected, ScatterFn fn,
                Maker tensor, Maker indices, Maker updates, Mode mode = Mode::kPlain) {
  return {std::move(id), std::move(input), std::move(expected), [=](Device d) {
            ScatterOptions options;
            options.device = d;
            if (mode == Mode::kCpuError && d.is_cuda())
              options.out_of_bounds = OutOfBoundsPolicy::kError;
            if (mode == Mode::kDrop && !d.is_cuda())
              options.out_of_bounds = OutOfBoundsPolicy::kDrop;
            if (mode == Mode::kDeterministic) options.deterministic = true;
            TensorBuffer out = fn(tensor(), indices(), updates(), options);
            settle(out, d);
            return format_tensor(out);
          }};
}

Maker ones_i32(Shape shape) {
  return [=] {
    return i32(std::vector<double>(static_cast<std::size_t>(shape.num_elements()), 1.0), shape);
  };
}
Maker zeros_f32(Shape shape) {
  return [=] {
    return f32(std::vector<double>(static_cast<std::size_t>(shape.num_elements()), 0.0), shape);
  };
}
Maker zeros_i32(Shape shape) {
  return [=] {
    return i32(std::vector<double>(static_cast<std::size_t>(shape.num_elements()), 0.0), shape);
  };
}
Maker I(std::vector<double> v, Shape shape) { return [=] { return i32(v, shape); }; }
Maker F(std::vector<double> v, Shape shape) { return [=] { return f32(v, shape); }; }

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<Example> scatter_examples() {
  const auto sub = &tensor_scatter_nd_sub;
  std::vector<Example> v;
  v.push_back(scatter("T1", "sub(ones([8], int32), [[4],[3],[1],[7]], [9,10,11,12])",
                      "[1,-10,1,-9,-8,1,1,-11]", sub, ones_i32({8}), I({4, 3, 1, 7}, {4, 1}),
                      I({9, 10, 11, 12}, {4})));
  {
    std::vector<double> upd;
    for (int copy = 0; copy < 2; ++copy) {
      for (int r = 5; r <= 8; ++r) upd.insert(upd.end(), 4, r);
    }
    std::string expected = "[";
    for (int s = 0; s < 4; ++s) {
      expected += s ? ",[" : "[";
      for (int r = 0; r < 4; ++r) {
        const int value = (s == 0 || s == 2) ? -4 - r : 1;
        if (r != 0) expected += ',';
        expected += '[';
        for (int c = 0; c < 4; ++c) {
          if (c != 0) expected += ',';
          expected += std::to_string(value);
        }
        expected += "]";
      }
      expected += "]";
    }
    expected += "]";
    v.push_back(scatter(
        "T2", "sub(ones([4,4,4], int32), [[0],[2]], two copies of [[5]*4,[6]*4,[7]*4,[8]*4])",
        expected, sub, ones_i32({4, 4, 4}), I({0, 2}, {2, 1}), I(upd, {2, 4, 4})));
  }
  v.push_back(scatter("T3", "sub([10,20,30], [[1],[1],[0]], [1,2,3])", "[7,17,30]", sub,
                      I({10, 20, 30}, {3}), I({1, 1, 0}, {3, 1}), I({1, 2, 3}, {3})));
  v.push_back(scatter("T4", "sub([[1,2],[3,4]], [[0,1],[1,0]], [10,100])", "[[1,-8],[-97,4]]", sub,
                      I({1, 2, 3, 4}, {2, 2}), I({0, 1, 1, 0}, {2, 2}), I({10, 100}, {2})));
  v.push_back(scatter("T5", "sub([[1,1,1],[2,2,2]], [[1]], [[1,2,3]])", "[[1,1,1],[1,0,-1]]", sub,
                      I({1, 1, 1, 2, 2, 2}, {2, 3}), I({1}, {1, 1}), I({1, 2, 3}, {1, 3})));
  v.push_back(scatter("T6", "sub(zeros([5,3], float32), [[0],[99],[4]], 3x3)",
                      "InvalidArgument: indices[1] = [99] does not index into shape [5,3]", sub,
                      zeros_f32({5, 3}), I({0, 99, 4}, {3, 1}),
                      F(std::vector<double>(9, 1), {3, 3}), Mode::kCpuError));
  v.push_back(scatter("T7", "sub(zeros([5], float32), [[-1]], [1])",
                      "InvalidArgument: indices[0] = [-1] does not index into shape [5]", sub,
                      zeros_f32({5}), I({-1}, {1, 1}), F({1}, {1}), Mode::kCpuError));
  v.push_back(scatter("T8", "sub(zeros([5], float32), [[0],[5],[2],[-1]], [1,2,3,4]), drop",
                      "[-1,0,-3,0,0]", sub, zeros_f32({5}), I({0, 5, 2, -1}, {4, 1}),
                      F({1, 2, 3, 4}, {4}), Mode::kDrop));
  v.push_back(scatter("T9", "sub(zeros([5], float32), [[7],[0],[-1]], [1,2,3])",
                      "InvalidArgument: indices[0] = [7]", sub, zeros_f32({5}),
                      I({7, 0, -1}, {3, 1}), F({1, 2, 3}, {3}), Mode::kCpuError));
  v.push_back(scatter("T10", "sub(zeros([4], float32), [[[0],[1]],[[9],[2]]], [[1,1],[1,1]])",
                      "InvalidArgument: indices[1,0] = [9] does not index into shape [4]", sub,
                      zeros_f32({4}), I({0, 1, 9, 2}, {2, 2, 1}), F({1, 1, 1, 1}, {2, 2}),
                      Mode::kCpuError));
  v.push_back(scatter("T11", "sub(zeros([2,3], float32), [[0,5]], [1])",
                      "InvalidArgument: indices[0] = [0, 5] does not index into shape [2,3]", sub,
                      zeros_f32({2, 3}), I({0, 5}, {1, 2}), F({1}, {1}), Mode::kCpuError));
  v.push_back(scatter("T12", "sub([1,2,3,4], [[1],[2]], [1,2,3])", "InvalidArgument", sub,
                      I({1, 2, 3, 4}, {4}), I({1, 2}, {2, 1}), I({1, 2, 3}, {3})));
  v.push_back(scatter("T13", "sub(zeros([4,3]), [[1]], [[1,2]])", "InvalidArgument", sub,
                      zeros_i32({4, 3}), I({1}, {1, 1}), I({1, 2}, {1, 2})));
  v.push_back(scatter("T14", "sub([1,2,3,4], [[1,2]], [5])", "InvalidArgument", sub,
                      I({1, 2, 3, 4}, {4}), I({1, 2}, {1, 2}), I({5}, {1})));
  v.push_back(scatter("T15", "sub([1,2,3,4], 1 (scalar), [5])", "InvalidArgument", sub,
                      I({1, 2, 3, 4}, {4}), I({1}, {}), I({5}, {1})));
  v.push_back(scatter("T16", "sub([1,2,3], zeros([0,1], int32), zeros([0]))", "[1,2,3]", sub,
                      I({1, 2, 3}, {3}), zeros_i32({0, 1}), zeros_i32({0})));
  v.push_back(scatter("T17", "sub([0] uint8, [[0]], [1])", "[255]", sub,
                      [] { return make(DataType::kUInt8, {0}, {1}); }, I({0}, {1, 1}),
                      [] { return make(DataType::kUInt8, {1}, {1}); }));
  v.push_back(scatter("T18", "sub(ones([8]), zeros([4,1,1], int32), zeros([4]))", "InvalidArgument",
                      sub, ones_i32({8}), zeros_i32({4, 1, 1}), zeros_i32({4})));
  v.push_back(scatter("T19", "sub(zeros([4,3], float32), [2] (rank 1), [1,1,1])",
                      "[[0,0,0],[0,0,0],[-1,-1,-1],[0,0,0]]", sub, zeros_f32({4, 3}), I({2}, {1}),
                      F({1, 1, 1}, {3})));
  const Maker t20 = I({5, 5, 5}, {3});
  const Maker i20 = I({0, 2, 0}, {3, 1});
  const Maker u20 = I({1, 9, 3}, {3});
  v.push_back(scatter("T20/add", "add([5,5,5], [[0],[2],[0]], [1,9,3])", "[9,5,14]",
                      &tensor_scatter_nd_add, t20, i20, u20));
  v.push_back(scatter("T20/update", "update([5,5,5], [[0],[2],[0]], [1,9,3]), deterministic",
                      "[3,5,9]", &tensor_scatter_nd_update, t20, i20, u20, Mode::kDeterministic));
  v.push_back(scatter("T20/min", "min([5,5,5], [[0],[2],[0]], [1,9,3])", "[1,5,5]",
                      &tensor_scatter_nd_min, t20, i20, u20));
  v.push_back(scatter("T20/max", "max([5,5,5], [[0],[2],[0]], [1,9,3])", "[5,5,9]",
                      &tensor_scatter_nd_max, t20, i20, u20));
  v.push_back(scatter("T21", "sub(zeros([4,3], float32), [9] (rank 1), [1,1,1])",
                      "InvalidArgument: indices = [9] does not index into shape [4,3]", sub,
                      zeros_f32({4, 3}), I({9}, {1}), F({1, 1, 1}, {3}), Mode::kCpuError));
  v.push_back(scatter("T22", "sub(zeros([3,0], float32), [[1]], zeros([1,0]))", "[[],[],[]]", sub,
                      zeros_f32({3, 0}), I({1}, {1, 1}), zeros_f32({1, 0})));
  v.push_back(scatter("T23", "min([1.0,NaN] float32, [[0],[1]], [NaN,0.0])", "[nan,nan]",
                      &tensor_scatter_nd_min, F({1.0, kNaN}, {2}), I({0, 1}, {2, 1}),
                      F({kNaN, 0.0}, {2})));
  return v;
}

}  // namespace

const ExampleGroupRegistration registration({"T", spelling(OpFamily::kScatterNd), &scatter_examples});

}  // namespace tensorbuf::cli
