// The B* vectors of spec/boolean_mask_update.md.
#include "cli_examples.hpp"

namespace tensorbuf::cli {
namespace {

using Maker = std::function<TensorBuffer()>;

Example mask(std::string id, std::string input, std::string expected, Maker tensor, Maker m,
             Maker updates, int axis = 0, bool broadcast = true) {
  return {std::move(id), std::move(input), std::move(expected), [=](Device d) {
            BooleanMaskUpdateOptions options;
            options.device = d;
            options.axis = axis;
            options.broadcast = broadcast;
            TensorBuffer out = boolean_mask_update(tensor(), m(), updates(), options);
            settle(out, d);
            return format_tensor(out);
          }};
}

Maker I(std::vector<double> v, Shape shape) { return [=] { return i32(v, shape); }; }
Maker zeros(Shape shape) {
  return [=] {
    return i32(std::vector<double>(static_cast<std::size_t>(shape.num_elements()), 0.0), shape);
  };
}
Maker M(std::vector<int> v, Shape shape) { return [=] { return boolean(v, shape); }; }

std::vector<Example> examples() {
  std::vector<Example> v;
  const Maker b1 = I({0, 0, 0, 1, 1, 1, 2, 2, 2}, {3, 3});
  const std::string b1_out = "[[-1,-1,-1],[1,1,1],[2,2,2]]";
  v.push_back(mask("B1/1", "[[0,0,0],[1,1,1],[2,2,2]], mask [T,F,F], updates [[-1,-1,-1]]", b1_out,
                   b1, M({1, 0, 0}, {3}), I({-1, -1, -1}, {1, 3})));
  v.push_back(mask("B1/2", "[[0,0,0],[1,1,1],[2,2,2]], mask [T,F,F], updates [-1,-1,-1]", b1_out,
                   b1, M({1, 0, 0}, {3}), I({-1, -1, -1}, {3})));
  v.push_back(mask("B1/3", "[[0,0,0],[1,1,1],[2,2,2]], mask [T,F,F], updates -1", b1_out, b1,
                   M({1, 0, 0}, {3}), I({-1}, {})));
  const Maker b2 = I({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 10});
  const Maker b2_mask = M({1, 1, 0, 0, 1, 1, 1, 0, 0, 0}, {10});
  const std::string b2_out = "[[[-1,-1,2,3,-1,-1,-1,7,8,9]]]";
  v.push_back(mask("B2/1",
                   "shape [1,1,10] = 0..9, mask [T,T,F,F,T,T,T,F,F,F], updates [-1]*5, axis 2",
                   b2_out, b2, b2_mask, I({-1, -1, -1, -1, -1}, {5}), 2));
  v.push_back(mask("B2/2", "shape [1,1,10] = 0..9, mask [T,T,F,F,T,T,T,F,F,F], updates -1, axis 2",
                   b2_out, b2, b2_mask, I({-1}, {}), 2));
  v.push_back(mask("B3", "[1,2,3,4], mask [F,T,F,T], updates [-1,2]", "[1,-1,3,2]",
                   I({1, 2, 3, 4}, {4}), M({0, 1, 0, 1}, {4}), I({-1, 2}, {2})));
  v.push_back(mask("B4", "[1,2,3], mask true (scalar), updates 0", "InvalidArgument",
                   I({1, 2, 3}, {3}), M({1}, {}), I({0}, {})));
  v.push_back(mask("B5", "shape [3,3], mask [T,F], updates 0", "InvalidArgument", zeros({3, 3}),
                   M({1, 0}, {2}), I({0}, {})));
  v.push_back(mask("B6", "shape [2,3], mask shape [3], updates 0, axis 2", "InvalidArgument",
                   zeros({2, 3}), M({1, 0, 1}, {3}), I({0}, {}), 2));
  const Maker b7 = I({1, 2, 3, 4, 5, 6}, {2, 3});
  v.push_back(mask("B7/1", "[[1,2,3],[4,5,6]], mask [T,F,T], updates 0, axis 1",
                   "[[0,2,0],[0,5,0]]", b7, M({1, 0, 1}, {3}), I({0}, {}), 1));
  v.push_back(mask("B7/2", "[[1,2,3],[4,5,6]], mask [T,F,T], updates 0, axis -1",
                   "[[0,2,0],[0,5,0]]", b7, M({1, 0, 1}, {3}), I({0}, {}), -1));
  v.push_back(mask("B8", "[[1,2,3],[4,5,6]], mask [T,F,T], updates [[7,8],[9,10]], axis 1",
                   "[[7,2,8],[9,5,10]]", b7, M({1, 0, 1}, {3}), I({7, 8, 9, 10}, {2, 2}), 1));
  v.push_back(mask("B9", "[1,2,3], mask [F,F,F], updates 9", "[1,2,3]", I({1, 2, 3}, {3}),
                   M({0, 0, 0}, {3}), I({9}, {})));
  v.push_back(mask("B10", "[1,2,3], mask [F,F,F], updates [7,8]", "InvalidArgument",
                   I({1, 2, 3}, {3}), M({0, 0, 0}, {3}), I({7, 8}, {2})));
  v.push_back(mask("B11", "[[1,2],[3,4]], mask [[T,F],[F,T]], updates 0", "[[0,2],[3,0]]",
                   I({1, 2, 3, 4}, {2, 2}), M({1, 0, 0, 1}, {2, 2}), I({0}, {})));
  v.push_back(mask("B12/1", "zeros([2,2,3]), mask [[T,F],[F,T]], updates [1,2,3], broadcast false",
                   "InvalidArgument", zeros({2, 2, 3}), M({1, 0, 0, 1}, {2, 2}),
                   I({1, 2, 3}, {3}), 0, false));
  v.push_back(mask("B12/2", "zeros([2,2,3]), mask [[T,F],[F,T]], updates [1,2,3], broadcast true",
                   "[[[1,2,3],[0,0,0]],[[0,0,0],[1,2,3]]]", zeros({2, 2, 3}),
                   M({1, 0, 0, 1}, {2, 2}), I({1, 2, 3}, {3})));
  v.push_back(mask("B13",
                   "zeros([2,2,3]), mask [[T,F],[F,T]], updates [[1,2,3],[4,5,6]], broadcast false",
                   "[[[1,2,3],[0,0,0]],[[0,0,0],[4,5,6]]]", zeros({2, 2, 3}),
                   M({1, 0, 0, 1}, {2, 2}), I({1, 2, 3, 4, 5, 6}, {2, 3}), 0, false));
  v.push_back(mask("B14", "shape [2,3], mask shape [2], updates 0, axis -3", "InvalidArgument",
                   zeros({2, 3}), M({1, 0}, {2}), I({0}, {}), -3));
  v.push_back(mask("B15", "zeros([2,3,2]), mask [F,T,T], updates [[1,2],[3,4]], axis 1",
                   "[[[0,0],[1,2],[3,4]],[[0,0],[1,2],[3,4]]]", zeros({2, 3, 2}),
                   M({0, 1, 1}, {3}), I({1, 2, 3, 4}, {2, 2}), 1));
  v.push_back(mask(
      "B16", "zeros([2,3,2]), mask [F,T,T], updates [[1,2],[3,4]], axis 1, broadcast false",
      "InvalidArgument", zeros({2, 3, 2}), M({0, 1, 1}, {3}), I({1, 2, 3, 4}, {2, 2}), 1, false));
  return v;
}

}  // namespace

const ExampleGroupRegistration registration({"B", spelling(OpFamily::kBooleanMaskUpdate), &examples});

}  // namespace tensorbuf::cli
