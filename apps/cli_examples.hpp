// The documented examples (the "Vectors" tables of spec/*.md) as runnable cases, and the
// formatting that prints them as `input -> output`.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::cli {

// One example (or one variant of a vector with several inputs). `run` performs it on a device
// and returns the output as text; an error it throws becomes "<ErrorClass>: message".
// `expected` is the documented output in the same text form; for an error, "<ErrorClass>" or
// "<ErrorClass>: <text the message must contain>".
struct Example {
  std::string id;
  std::string input;
  std::string expected;
  std::function<std::string(Device)> run;
};

// A group of examples: their ids' prefix, what they run (an op: the op table's name) and the
// function that makes them. Each group's file registers it (a namespace-scope
// ExampleGroupRegistration); `tensorbuf examples` lists the groups of the table's ops in the
// table's order, after those registered with `before_ops` and before the other groups.
struct ExampleGroup {
  std::string_view prefix;
  std::string_view what;
  std::vector<Example> (*examples)();
  bool before_ops = false;
};
struct ExampleGroupRegistration {
  explicit ExampleGroupRegistration(const ExampleGroup& group);
};
// The registered groups in that order.
const std::vector<ExampleGroup>& example_groups();

// Text forms: nested lists by shape ("[[1,2],[3,4]]", a scalar bare), integers as integers,
// floats in their shortest round-trip form ("500.1", "nan", "-inf").
std::string format_tensor(const TensorBuffer& tensor);
// Byte strings as Python bytes literals: [b'ell',b'H\xc3\xa9'].
std::string format_strings(const StringTensor& strings);
std::string format_floats(const std::vector<float>& values);
std::string format_ints(const std::vector<std::int32_t>& values);

// Puts an op's result where the device pass can prove the round trip: on CUDA the buffer is
// moved to the device (host copy stale) so that formatting reads it back through the lazy sync.
void settle(TensorBuffer& tensor, Device device);

// Builders of small inputs: a buffer of `type` holding `values` (load_array conversions).
TensorBuffer make(DataType type, const std::vector<double>& values, const Shape& shape);
TensorBuffer i32(const std::vector<double>& values, const Shape& shape);
TensorBuffer f32(const std::vector<double>& values, const Shape& shape);
TensorBuffer boolean(const std::vector<int>& values, const Shape& shape);
StringTensor strings(const std::vector<std::string>& values, const Shape& shape);

}  // namespace tensorbuf::cli
