// The S* vectors of spec/substr.md.
#include "cli_examples.hpp"

namespace tensorbuf::cli {
namespace {

enum class Mode { kPlain, kCpuError, kDrop };

Example sub(std::string id, std::string input, std::string expected,
            std::vector<std::string> in, Shape in_shape, std::vector<double> pos,
            std::vector<double> len, Shape pos_shape, SubstrUnit unit = SubstrUnit::kByte,
            Mode mode = Mode::kPlain) {
  return {std::move(id), std::move(input), std::move(expected), [=](Device d) {
            SubstrOptions options;
            options.device = d;
            options.unit = unit;
            if (mode == Mode::kCpuError && d.is_cuda())
              options.out_of_bounds = OutOfBoundsPolicy::kError;
            if (mode == Mode::kDrop && !d.is_cuda())
              options.out_of_bounds = OutOfBoundsPolicy::kDrop;
            const StringTensor out =
                substr(strings(in, in_shape), i32(pos, pos_shape), i32(len, pos_shape), options);
            if (d.is_cuda()) {
              out.offsets().sync_to(Device::cpu());
              out.chars().sync_to(Device::cpu());
            }
            return format_strings(out);
          }};
}

constexpr SubstrUnit kByte = SubstrUnit::kByte;
constexpr SubstrUnit kUtf8 = SubstrUnit::kUtf8Char;

std::vector<Example> substr_examples() {
  std::vector<Example> v;
  v.push_back(sub("S1", "[b'Hello',b'World'], pos 1, len 3", "[b'ell',b'orl']", {"Hello", "World"},
                  {2}, {1}, {3}, {}));
  const std::vector<std::string> nine = {"ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                         "fifteen", "sixteen", "seventeen", "eighteen"};
  v.push_back(sub("S2",
                  "3x3 [[ten,eleven,twelve],...], pos [[1,2,3]]*3, len [[2,3,4],[4,3,2],[5,5,5]]",
                  "[[b'en',b'eve',b'lve'],[b'hirt',b'urt',b'te'],[b'ixtee',b'vente',b'hteen']]",
                  nine, {3, 3}, {1, 2, 3, 1, 2, 3, 1, 2, 3}, {2, 3, 4, 4, 3, 2, 5, 5, 5}, {3, 3}));
  std::vector<std::string> twelve = nine;
  twelve.insert(twelve.end(), {"nineteen", "twenty", "twentyone"});
  v.push_back(
      sub("S3", "4x3 [...,[nineteen,twenty,twentyone]], pos [1,2,3], len [1,2,3]",
          "[[b'e',b'ev',b'lve'],[b'h',b'ur',b'tee'],[b'i',b've',b'hte'],[b'i',b'en',b'nty']]",
          twelve, {4, 3}, {1, 2, 3}, {1, 2, 3}, {3}));
  v.push_back(sub("S4", "b'thirteen', pos [1,5,7], len [3,2,1]", "[b'hir',b'ee',b'n']",
                  {"thirteen"}, {}, {1, 5, 7}, {3, 2, 1}, {3}));
  v.push_back(sub("S5", "b'Hello', pos 5, len 3", "b''", {"Hello"}, {}, {5}, {3}, {}));
  v.push_back(sub("S6", "b'Hello', pos 6, len 1",
                  "InvalidArgument: pos 6 out of range for string b'Hello' at index 0", {"Hello"},
                  {}, {6}, {1}, {}, kByte, Mode::kCpuError));
  v.push_back(sub("S7/1", "b'Hello', pos -5, len 2", "b'He'", {"Hello"}, {}, {-5}, {2}, {}));
  v.push_back(sub("S7/2", "b'Hello', pos -6, len 2",
                  "InvalidArgument: pos -6 out of range for string b'Hello' at index 0", {"Hello"},
                  {}, {-6}, {2}, {}, kByte, Mode::kCpuError));
  v.push_back(sub("S8/1", "b'Hello', pos 1, len -1", "b'ello'", {"Hello"}, {}, {1}, {-1}, {}));
  v.push_back(sub("S8/2", "b'Hello', pos -2, len -1", "b'lo'", {"Hello"}, {}, {-2}, {-1}, {}));
  const std::string he = "H\xc3\xa9llo";
  v.push_back(sub("S9/1", "b'H\\xc3\\xa9llo', pos 1, len 2, UTF8", "b'\\xc3\\xa9l'", {he}, {}, {1},
                  {2}, {}, kUtf8));
  v.push_back(sub("S9/2", "b'H\\xc3\\xa9llo', pos 1, len 2, BYTE", "b'\\xc3\\xa9'", {he}, {}, {1},
                  {2}, {}, kByte));
  v.push_back(sub("S10/1", "b'H\\xc3\\xa9llo', pos 1, len -1, UTF8", "b'\\xc3\\xa9llo'", {he}, {},
                  {1}, {-1}, {}, kUtf8));
  v.push_back(sub("S10/2", "b'H\\xc3\\xa9llo', pos -2, len -1, UTF8", "b'lo'", {he}, {}, {-2}, {-1},
                  {}, kUtf8));
  v.push_back(sub("S11/1", "b'H\\xc3\\xa9llo', pos 5, len 1, UTF8", "b''", {he}, {}, {5}, {1}, {},
                  kUtf8, Mode::kCpuError));
  v.push_back(sub("S11/2", "b'H\\xc3\\xa9llo', pos 6, len 1, UTF8", "InvalidArgument", {he}, {},
                  {6}, {1}, {}, kUtf8, Mode::kCpuError));
  v.push_back(sub("S11/3", "b'H\\xc3\\xa9llo', pos -5, len 2, UTF8", "b'H\\xc3\\xa9'", {he}, {},
                  {-5}, {2}, {}, kUtf8, Mode::kCpuError));
  v.push_back(sub("S11/4", "b'H\\xc3\\xa9llo', pos -1, len 5, UTF8", "b'o'", {he}, {}, {-1}, {5},
                  {}, kUtf8, Mode::kCpuError));
  const std::string stray = "\x80\x80" "ab";
  const char* s12_in[] = {"0", "1", "-3", "3", "4"};
  const char* s12_out[] = {"b'\\x80\\x80'", "b'a'", "b'\\x80\\x80'", "b''", "InvalidArgument"};
  const double s12_pos[] = {0, 1, -3, 3, 4};
  for (int k = 0; k < 5; ++k) {
    v.push_back(sub("S12/" + std::to_string(k + 1),
                    std::string("b'\\x80\\x80ab', pos ") + s12_in[k] + ", len 1, UTF8", s12_out[k],
                    {stray}, {}, {s12_pos[k]}, {1}, {}, kUtf8, Mode::kCpuError));
  }
  v.push_back(sub("S13", "[[b'abc',b'def',b'ghi']], pos [[0,1,2],[1,1,1]], len [[1,1,1],[2,2,2]]",
                  "[[b'a',b'e',b'i'],[b'bc',b'ef',b'hi']]", {"abc", "def", "ghi"}, {1, 3},
                  {0, 1, 2, 1, 1, 1}, {1, 1, 1, 2, 2, 2}, {2, 3}));
  v.push_back(sub("S14", "shape [2,1,1] [[[b'ab']],[[b'cd']]], pos [0], len [1]",
                  "[[[b'a']],[[b'c']]]", {"ab", "cd"}, {2, 1, 1}, {0}, {1}, {1}));
  v.push_back({"S15", "b'abc', pos [1,2], len [1]", "InvalidArgument", [](Device d) {
                 SubstrOptions options;
                 options.device = d;
                 return format_strings(substr(strings({"abc"}, {}), i32({1, 2}, {2}),
                                              i32({1}, {1}), options));
               }});
  v.push_back(sub("S16", "[b'a',b'b',b'c'], pos [0,0], len [1,1]", "InvalidArgument",
                  {"a", "b", "c"}, {3}, {0, 0}, {1, 1}, {2}));
  v.push_back(sub("S17", "shape [0], pos 100, len 1", "[]", {}, {0}, {100}, {1}, {}));
  v.push_back(sub("S18", "[b'Hello',b'Hi'], pos [3,3], len [1,1], drop", "[b'l',b'']",
                  {"Hello", "Hi"}, {2}, {3, 3}, {1, 1}, {2}, kByte, Mode::kDrop));
  return v;
}

}  // namespace

const ExampleGroupRegistration registration({"S", spelling(OpFamily::kSubstr), &substr_examples});

}  // namespace tensorbuf::cli
