// The TB* vectors of spec/tensor_buffer.md. On CUDA, each result is moved to the device and
// read back through the lazy sync before it is printed.
#include <cmath>
#include <cstring>
#include <limits>

#include "cli_examples.hpp"

namespace tensorbuf::cli {
namespace {

std::string describe(TensorBuffer& b, Device d) {
  settle(b, d);
  return "flat " + std::to_string(b.flat_size()) + ", shape " + b.shape().to_string() +
         ", type size " + std::to_string(b.type_size()) + ", " +
         (b.is_dynamic() ? "dynamic" : "not dynamic") + ", " + format_tensor(b);
}

// "ok", or the error class of what `step` threw.
template <class F>
std::string outcome(F&& step) {
  try {
    step();
    return "ok";
  } catch (const Error& e) {
    return std::string(to_string(e.code()));
  }
}

std::vector<float> floats(TensorBuffer& b, Device d) {
  settle(b, d);
  return b.get_float_array();
}
std::vector<std::int32_t> ints(TensorBuffer& b, Device d) {
  settle(b, d);
  return b.get_int_array();
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<Example> tensor_buffer_examples() {
  std::vector<Example> v;
  v.push_back({"TB1", "create_fixed_size({2,3}, float32)",
               "flat 6, shape [2,3], type size 4, not dynamic, [[0,0,0],[0,0,0]]", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_fixed_size({2, 3}, DataType::kFloat32);
                 return describe(b, d);
               }});
  v.push_back(
      {"TB2", "fixed {} uint8; {0} uint8; {1,0,2} float32", "flat 1; flat 0; flat 0", [](Device) {
         return "flat " +
                std::to_string(TensorBuffer::create_fixed_size({}, DataType::kUInt8).flat_size()) +
                "; flat " +
                std::to_string(TensorBuffer::create_fixed_size({0}, DataType::kUInt8).flat_size()) +
                "; flat " +
                std::to_string(
                    TensorBuffer::create_fixed_size({1, 0, 2}, DataType::kFloat32).flat_size());
       }});
  v.push_back({"TB3", "create_fixed_size({1,-1,2}, float32)", "InvalidArgument", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_fixed_size({1, -1, 2}, DataType::kFloat32);
                 return describe(b, d);
               }});
  v.push_back({"TB4",
               "dynamic uint8, load_array(float {400.32,-23.04,254.9,0.5,NaN,+inf,-inf,128}, {8})",
               "[255,0,254,0,0,255,0,128]", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
                 const std::vector<float> in = {400.32f, -23.04f, 254.9f, 0.5f,
                                                kNaN,    kInf,    -kInf,  128};
                 b.load_array(in, {8});
                 return format_ints(ints(b, d));
               }});
  v.push_back({"TB5", "dynamic uint8, load_array(int {400,-23,128,255,256}, {5})",
               "[255,0,128,255,255]", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
                 const std::vector<std::int32_t> in = {400, -23, 128, 255, 256};
                 b.load_array(in, {5});
                 return format_ints(ints(b, d));
               }});
  v.push_back({"TB6", "dynamic float32, load_array(float {500.1,-2.7,2.5,NaN}, {4})",
               "ints [500,-2,2,0]; get_int_value(1) -2; get_float_value(0) 500.1", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
                 const std::vector<float> in = {500.1f, -2.7f, 2.5f, kNaN};
                 b.load_array(in, {4});
                 const std::string all = format_ints(ints(b, d));
                 return "ints " + all + "; get_int_value(1) " + std::to_string(b.get_int_value(1)) +
                        "; get_float_value(0) " +
                        [](std::string f) { return f.substr(1, f.size() - 2); }(
                            format_floats({b.get_float_value(0)}));
               }});
  v.push_back({"TB7", "dynamic float32, load_array(int {16777217,-3}, {2})", "[16777216,-3]",
               [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
                 const std::vector<std::int32_t> in = {16777217, -3};
                 b.load_array(in, {2});
                 return format_floats(floats(b, d));
               }});
  v.push_back({"TB8", "fixed {2,3} float32, load_array(float[6], {3,2})",
               "InvalidArgument; unchanged: shape [2,3], [[0,0,0],[0,0,0]]", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_fixed_size({2, 3}, DataType::kFloat32);
                 const std::vector<float> in(6, 1.0f);
                 const std::string r = outcome([&] { b.load_array(in, {3, 2}); });
                 settle(b, d);
                 return r + "; unchanged: shape " + b.shape().to_string() + ", " + format_tensor(b);
               }});
  v.push_back({"TB9", "fixed {2,3} float32, load_array(float[2])", "InvalidArgument",
               [](Device) {
                 TensorBuffer b = TensorBuffer::create_fixed_size({2, 3}, DataType::kFloat32);
                 const std::vector<float> in(2, 1.0f);
                 return outcome([&] { b.load_array(in); });
               }});
  v.push_back(
      {"TB10",
       "dynamic: load {1,2,3} with {3}; 5 values with {5}; 5 without shape; 3 without shape",
       "ok; ok; ok; InvalidArgument", [](Device d) {
         TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
         const std::vector<float> three = {1, 2, 3}, five = {1, 2, 3, 4, 5};
         std::string r = outcome([&] { b.load_array(three, {3}); });
         r += "; " + outcome([&] { b.load_array(five, {5}); });
         settle(b, d);
         r += "; " + outcome([&] { b.load_array(five); });
         r += "; " + outcome([&] { b.load_array(three); });
         return r;
       }});
  v.push_back({"TB11", "dynamic float32, load_buffer(2 bytes, {1})",
               "InvalidArgument: Expected: 4 Actual: 2", [](Device) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
                 const std::byte two[2] = {};
                 b.load_buffer(two, {1});
                 return std::string("loaded");
               }});
  v.push_back({"TB12", "load_buffer(b = {7,8,9}, {3}) then load_array({1,2,3})",
               "b unchanged; buffer holds [1,2,3]", [](Device d) {
                 const float original[3] = {7, 8, 9};
                 float b_bytes[3] = {7, 8, 9};
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
                 b.load_buffer(std::as_bytes(std::span<const float>(b_bytes)), {3});
                 const std::vector<float> in = {1, 2, 3};
                 b.load_array(in);
                 const bool same = std::memcmp(original, b_bytes, sizeof b_bytes) == 0;
                 return std::string(same ? "b unchanged" : "b CHANGED") + "; buffer holds " +
                        format_floats(floats(b, d));
               }});
  v.push_back({"TB13", "create_from(fixed float32 {2} = {254.9,-3.5}, uint8)",
               "fixed uint8 [2], ints [254,0]", [](Device d) {
                 TensorBuffer src = TensorBuffer::create_fixed_size({2}, DataType::kFloat32);
                 const std::vector<float> in = {254.9f, -3.5f};
                 src.load_array(in);
                 settle(src, d);
                 TensorBuffer b = TensorBuffer::create_from(src, DataType::kUInt8);
                 return std::string(b.is_dynamic() ? "dynamic " : "fixed ") +
                        std::string(to_string(b.data_type())) + " " + b.shape().to_string() +
                        ", ints " + format_ints(ints(b, d));
               }});
  v.push_back({"TB14", "create_from(dynamic uint8 {1,2,255}, float32)", "dynamic, floats [1,2,255]",
               [](Device d) {
                 TensorBuffer src = TensorBuffer::create_dynamic(DataType::kUInt8);
                 const std::vector<std::int32_t> in = {1, 2, 255};
                 src.load_array(in, {3});
                 TensorBuffer b = TensorBuffer::create_from(src, DataType::kFloat32);
                 return std::string(b.is_dynamic() ? "dynamic" : "fixed") + ", floats " +
                        format_floats(floats(b, d));
               }});
  v.push_back({"TB15", "6 elements: get_float_value(-1), get_float_value(6)",
               "OutOfRange; OutOfRange", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_fixed_size({6}, DataType::kFloat32);
                 settle(b, d);
                 return outcome([&] { b.get_float_value(-1); }) + "; " +
                        outcome([&] { b.get_float_value(6); });
               }});
  v.push_back({"TB16", "create_fixed_size({65536,65536,65536,65536}, float32)", "InvalidArgument",
               [](Device d) {
                 TensorBuffer b = TensorBuffer::create_fixed_size({65536, 65536, 65536, 65536},
                                                                  DataType::kFloat32);
                 return describe(b, d);
               }});
  v.push_back({"TB17", "float16, load floats {1+2^-11, 1+3*2^-11, 65519, 65520, -65520}",
               format_floats({1.0f, 1.0f + 0x1p-9f, 65504.0f, kInf, -kInf}), [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat16);
                 const std::vector<float> in = {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65519.0f,
                                                65520.0f, -65520.0f};
                 b.load_array(in, {5});
                 return format_floats(floats(b, d));
               }});
  v.push_back({"TB18", "bfloat16, load floats {1+2^-8, 1+3*2^-8}",
               format_floats({1.0f, 1.0f + 0x1p-6f}), [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kBFloat16);
                 const std::vector<float> in = {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f};
                 b.load_array(in, {2});
                 return format_floats(floats(b, d));
               }});
  v.push_back({"TB19", "int8, load ints {200,-200,5}; int64 {2^40} get_int_value(0)",
               "[127,-128,5]; 2147483647", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kInt8);
                 const std::vector<std::int32_t> in = {200, -200, 5};
                 b.load_array(in, {3});
                 TensorBuffer big = make(DataType::kInt64, {1099511627776.0}, {1});
                 settle(big, d);
                 return format_ints(ints(b, d)) + "; " + std::to_string(big.get_int_value(0));
               }});
  v.push_back({"TB20", "bool, load floats {0,-0.0,NaN,0.5}; load_buffer bytes {0,2}",
               "[0,0,1,1]; [0,1]", [](Device d) {
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kBool);
                 const std::vector<float> in = {0.0f, -0.0f, kNaN, 0.5f};
                 b.load_array(in, {4});
                 TensorBuffer raw = TensorBuffer::create_dynamic(DataType::kBool);
                 const std::byte bytes[2] = {std::byte{0}, std::byte{2}};
                 raw.load_buffer(bytes, {2});
                 return format_ints(ints(b, d)) + "; " + format_ints(raw.get_int_array());
               }});
  v.push_back({"TB21", "load_buffer(b, {3}), host<float>(); then load_array",
               "host<float>() == b.data(); after load_array it is not, b unchanged", [](Device) {
                 float b_bytes[3] = {7, 8, 9};
                 TensorBuffer b = TensorBuffer::create_dynamic(DataType::kFloat32);
                 b.load_buffer(std::as_bytes(std::span<const float>(b_bytes)), {3});
                 const bool same_before = b.host<float>() == b_bytes;
                 const std::vector<float> in = {1, 2, 3};
                 b.load_array(in);
                 const bool same_after = b.host<float>() == b_bytes;
                 const bool unchanged = b_bytes[0] == 7 && b_bytes[1] == 8 && b_bytes[2] == 9;
                 return std::string(same_before ? "host<float>() == b.data()"
                                                : "host<float>() != b.data()") +
                        "; after load_array it " + (same_after ? "still is" : "is not") + ", b " +
                        (unchanged ? "unchanged" : "CHANGED");
               }});
  return v;
}

}  // namespace

const ExampleGroupRegistration registration({"TB", "TensorBuffer", &tensor_buffer_examples, true});

}  // namespace tensorbuf::cli
