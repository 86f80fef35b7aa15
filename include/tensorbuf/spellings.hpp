// The words of the library's enums, parsed and printed here and nowhere else (DESIGN.md, "The
// op table": one spelling module). The command line's flags, Python's keyword arguments, the
// distributed layer's messages and the docs all use these words; a program of its own (a
// config file, another binding) can use them too. A new enum spelling is one Spellings<Enum>
// table below. The scatter combines are spelled by the op table (tensorbuf/op_table.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "tensorbuf/export.h"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/ops.hpp"  // Reduction
#include "tensorbuf/types.hpp"

namespace tensorbuf {

/// One enumerator and its word.
template <class Enum>
struct Spelling {
  Enum value{};
  std::string_view word;
};

/// The words of an enum, in the order usage texts and error messages list them. Defined for the
/// enums below only: a surface asking for the words of another enum does not compile.
template <class Enum>
struct Spellings;

/// `out_of_bounds` / `--out-of-bounds` (spec/api.md): kDeviceDefault is "default".
template <>
struct Spellings<OutOfBoundsPolicy> {
  static constexpr std::array<Spelling<OutOfBoundsPolicy>, 3> kWords = {{
      {OutOfBoundsPolicy::kDeviceDefault, "default"},
      {OutOfBoundsPolicy::kError, "error"},
      {OutOfBoundsPolicy::kDrop, "drop"},
  }};
};

/// substr's `unit` / `--unit`.
template <>
struct Spellings<SubstrUnit> {
  static constexpr std::array<Spelling<SubstrUnit>, 2> kWords = {{
      {SubstrUnit::kByte, "byte"},
      {SubstrUnit::kUtf8Char, "utf8_char"},
  }};
};

/// A device's kind; a whole device is "cpu" or "cuda:N" (parse_device below).
template <>
struct Spellings<Device::Kind> {
  static constexpr std::array<Spelling<Device::Kind>, 2> kWords = {{
      {Device::Kind::kCpu, "cpu"},
      {Device::Kind::kCuda, "cuda"},
  }};
};

/// scatter_elements' `reduction` / `--reduction` (spec/indexing.md 2).
template <>
struct Spellings<Reduction> {
  static constexpr std::array<Spelling<Reduction>, 5> kWords = {{
      {Reduction::kNone, "none"},
      {Reduction::kAdd, "add"},
      {Reduction::kMul, "mul"},
      {Reduction::kMin, "min"},
      {Reduction::kMax, "max"},
  }};
};

/// The dtype names (to_string(DataType) prints these; NumPy and torch use the same words).
template <>
struct Spellings<DataType> {
  static constexpr std::array<Spelling<DataType>, 10> kWords = {{
      {DataType::kBool, "bool"},
      {DataType::kUInt8, "uint8"},
      {DataType::kInt8, "int8"},
      {DataType::kInt16, "int16"},
      {DataType::kInt32, "int32"},
      {DataType::kInt64, "int64"},
      {DataType::kFloat16, "float16"},
      {DataType::kBFloat16, "bfloat16"},
      {DataType::kFloat32, "float32"},
      {DataType::kFloat64, "float64"},
  }};
};

/// The word of `value` ("drop"); "unknown" for a value outside the enum (an int cast to it).
template <class Enum>
requires std::is_enum_v<Enum>
constexpr std::string_view spelling(Enum value) {
  for (const Spelling<Enum>& s : Spellings<Enum>::kWords) {
    if (s.value == value) return s.word;
  }
  return "unknown";
}

/// An op family's public name, read from the op table (kOpFamilies), for the messages and
/// usage texts that name a family: the scatter family's is the prefix of its combines' names;
/// a family of several ops is named by its first row's.
constexpr std::string_view spelling(OpFamily family) {
  for (const OpFamilyInfo& row : kOpFamilies) {
    if (row.family == family) return row.name;
  }
  return "unknown";
}

/// The value spelled exactly `word` (case matters), or nullopt.
template <class Enum>
constexpr std::optional<Enum> find_spelling(std::string_view word) {
  for (const Spelling<Enum>& s : Spellings<Enum>::kWords) {
    if (s.word == word) return s.value;
  }
  return std::nullopt;
}

/// The words as a list: "default, error or drop" (messages); with `separator` and `last` both
/// "|", "default|error|drop" (usage texts).
template <class Enum>
std::string spelling_list(std::string_view separator = ", ", std::string_view last = " or ") {
  const auto& words = Spellings<Enum>::kWords;
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i != 0) out += i + 1 == words.size() ? last : separator;
    out += words[i].word;
  }
  return out;
}

/// Throws InvalidArgumentError "<what> must be <choices>, not '<word>'" (parse_spelling's error).
[[noreturn]] TENSORBUF_API void throw_bad_spelling(std::string_view what, std::string_view word,
                                                   std::string_view choices);

/// The value spelled `word`. `what` names the argument as the caller's surface spells it
/// ("--unit", "unit"). Errors: InvalidArgumentError "--unit must be byte or utf8_char, not 'rune'".
template <class Enum>
Enum parse_spelling(std::string_view word, std::string_view what) {
  if (const std::optional<Enum> value = find_spelling<Enum>(word)) return *value;
  throw_bad_spelling(what, word, spelling_list<Enum>());
}

/// The devices a caller may name, for messages.
inline constexpr std::string_view kDeviceChoices = "cpu or cuda[:N]";

/// "cpu"; "cuda" (device 0) or "cuda:N", N of 1 to 3 decimal digits; nullopt for anything else.
TENSORBUF_API std::optional<Device> find_device(std::string_view word);
/// find_device's device. Errors: InvalidArgumentError "<what> must be cpu or cuda[:N], not 'tpu'".
TENSORBUF_API Device parse_device(std::string_view word, std::string_view what);
/// "cpu", "cuda:0": what find_device reads back as the same device (Device::to_string).
TENSORBUF_API std::string spelling(const Device& device);

}  // namespace tensorbuf
