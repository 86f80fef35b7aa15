#include "core/npy_header.hpp"

#include <bit>
#include <cstring>
#include <optional>

#include "core/error_macros.hpp"

namespace tensorbuf::core::npy {
namespace {

[[noreturn]] void fail(const std::string& what) { throw InvalidArgumentError("npy: " + what); }

std::string hex_byte(unsigned char c) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

// A recursive-descent reader of the Python dict literal NumPy writes (ast.literal_eval's
// subset that a .npy header can use): string keys; string, bool and int-tuple values.
class DictReader {
 public:
  explicit DictReader(std::string_view text) : text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  std::size_t pos() const { return pos_; }

  void expect(char c, const char* context) {
    skip_space();
    if (at_end()) fail(str_cat("header ends before ", describe(c), " ", context,
                               " (unterminated dict)"));
    if (text_[pos_] != c) {
      fail(str_cat("header: expected ", describe(c), " ", context, " at offset ", pos_,
                   ", found '", text_[pos_], "'"));
    }
    ++pos_;
  }

  std::string read_string() {
    skip_space();
    if (at_end()) fail("header ends inside the dict (unterminated dict)");
    const char quote = text_[pos_];
    if (quote != '\'' && quote != '"') {
      fail(str_cat("header: expected a quoted string at offset ", pos_, ", found '", quote, "'"));
    }
    const std::size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\') fail("header: escape sequences in strings are not supported");
      if (text_[pos_] == '\n') fail("header: string literal not terminated on its line");
      ++pos_;
    }
    if (at_end()) fail("header ends inside a string literal (unterminated dict)");
    std::string out(text_.substr(start, pos_ - start));
    ++pos_;
    return out;
  }

  bool read_bool(const char* key) {
    skip_space();
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail(str_cat("header: '", key, "' must be True or False"));
  }

  // A tuple of non-negative ints: "()", "(3,)", "(2, 3)", "(2, 3,)". Python 2's "3L" accepted.
  std::vector<std::int64_t> read_shape() {
    skip_space();
    if (peek() == '[') fail("header: 'shape' must be a tuple, not a list");
    expect('(', "to open 'shape'");
    std::vector<std::int64_t> dims;
    bool comma_after_last = false;
    for (;;) {
      skip_space();
      if (at_end()) fail("header ends inside 'shape' (unterminated dict)");
      if (text_[pos_] == ')') {
        ++pos_;
        break;
      }
      if (!dims.empty() && !comma_after_last) {
        fail(str_cat("header: expected ',' or ')' in 'shape' at offset ", pos_));
      }
      dims.push_back(read_dim());
      skip_space();
      comma_after_last = false;
      if (peek() == ',') {
        ++pos_;
        comma_after_last = true;
      }
    }
    if (dims.size() == 1 && !comma_after_last) {
      fail("header: 'shape' (n) is an int, not a tuple; a 1-d shape is written (n,)");
    }
    return dims;
  }

 private:
  static std::string describe(char c) { return std::string("'") + c + "'"; }

  std::int64_t read_dim() {
    if (peek() == '-') fail(str_cat("header: negative dimension in 'shape' at offset ", pos_));
    if (peek() < '0' || peek() > '9') {
      fail(str_cat("header: expected a dimension (an integer) in 'shape' at offset ", pos_));
    }
    std::int64_t value = 0;
    while (peek() >= '0' && peek() <= '9') {
      const int digit = text_[pos_] - '0';
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, digit, &value)) {
        fail("header: a dimension in 'shape' does not fit in int64");
      }
      ++pos_;
    }
    if (peek() == 'L' || peek() == 'l') ++pos_;  // Python 2 long literal
    return value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

struct Dtype {
  bool is_string = false;
  DataType type = DataType::kUInt8;
  std::size_t item_size = 0;
  bool big_endian = false;
};

Dtype parse_descr(const std::string& descr, const NpyReadOptions& options) {
  if (descr.empty()) fail("header: empty 'descr'");
  std::size_t i = 0;
  bool big = std::endian::native == std::endian::big;
  if (descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=') {
    if (descr[0] == '<') big = false;
    if (descr[0] == '>') big = true;
    i = 1;
  }
  const std::string body = descr.substr(i);
  const std::string quoted = "'" + descr + "'";
  if (body.empty()) fail("header: 'descr' " + quoted + " names no type");
  const char kind = body[0];
  const std::string size = body.substr(1);
  Dtype d;
  d.big_endian = big;
  auto numeric = [&](DataType t) {
    d.type = t;
    d.item_size = type_size(t);
    return d;
  };
  if (body == "?" || body == "b1") return numeric(DataType::kBool);
  if (body == "u1" || body == "B") return numeric(DataType::kUInt8);
  if (body == "i1" || body == "b") return numeric(DataType::kInt8);
  if (body == "i2") return numeric(DataType::kInt16);
  if (body == "i4") return numeric(DataType::kInt32);
  if (body == "i8") return numeric(DataType::kInt64);
  if (body == "f2" || body == "e") return numeric(DataType::kFloat16);
  if (body == "f4") return numeric(DataType::kFloat32);
  if (body == "f8") return numeric(DataType::kFloat64);
  if (body == "u2") {
    if (options.uint16_as_bfloat16) return numeric(DataType::kBFloat16);
    fail("dtype " + quoted +
         " (uint16) is not supported: tensorbuf has no uint16; if the array holds bfloat16 "
         "bits, read it with NpyReadOptions::uint16_as_bfloat16");
  }
  if (kind == 'S' || kind == 'a') {
    std::uint64_t n = 0;
    if (size.empty() || size.size() > 12 ||
        size.find_first_not_of("0123456789") != std::string::npos) {
      fail("dtype " + quoted + ": byte-string dtypes are written S<n>, n a positive integer");
    }
    n = std::stoull(size);
    if (n == 0) fail("dtype " + quoted + ": byte strings of 0 bytes (S0) are not supported");
    d.is_string = true;
    d.item_size = static_cast<std::size_t>(n);
    return d;
  }
  if (kind == 'O')
    fail("object arrays (dtype " + quoted +
         ") are not supported: they hold pickled Python objects");
  if (kind == 'U') {
    fail("unicode arrays (dtype " + quoted +
         ") are not supported; store bytes (dtype S), e.g. np.char.encode(a, 'utf-8')");
  }
  if (kind == 'V') fail("void/structured dtype " + quoted + " is not supported");
  if (kind == 'c') fail("complex dtype " + quoted + " is not supported");
  if (kind == 'M' || kind == 'm') fail("datetime dtype " + quoted + " is not supported");
  if (kind == 'u')
    fail("unsigned dtype " + quoted +
         " is not supported: tensorbuf's only unsigned integer type is uint8");
  if (kind == 'f')
    fail("float dtype " + quoted + " is not supported (float16, float32 and float64 are)");
  if (kind == 'i') fail("integer dtype " + quoted + " is not supported");
  fail("dtype " + quoted + " is not supported");
}

std::uint64_t read_le(std::span<const std::byte> bytes, std::size_t offset, std::size_t n) {
  std::uint64_t value = 0;
  for (std::size_t k = 0; k < n; ++k) {
    value |= static_cast<std::uint64_t>(std::to_integer<unsigned char>(bytes[offset + k]))
             << (8 * k);
  }
  return value;
}

std::string format_dims(const std::vector<std::int64_t>& dims) {
  std::string out = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) out += ',';
    out += std::to_string(dims[i]);
  }
  return out + "]";
}

}  // namespace

Preamble parse_preamble(std::span<const std::byte> first, std::uint64_t available) {
  static const unsigned char kMagic[kMagicSize] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (available < kMagicSize + 2 || first.size() < kMagicSize + 2) {
    fail(str_cat("not a .npy file: ", available, " bytes is too short for the magic string"));
  }
  if (std::memcmp(first.data(), kMagic, kMagicSize) != 0) {
    fail("not a .npy file: the magic string \\x93NUMPY is missing");
  }
  Preamble p;
  p.major = std::to_integer<int>(first[6]);
  p.minor = std::to_integer<int>(first[7]);
  if (p.minor != 0 || p.major < 1 || p.major > 3) {
    fail(str_cat("unsupported .npy format version ", p.major, ".", p.minor,
                 " (1.0, 2.0 and 3.0 are)"));
  }
  const std::size_t length_bytes = p.major == 1 ? 2 : 4;
  p.size = kMagicSize + 2 + length_bytes;
  if (available < p.size || first.size() < p.size) {
    fail(str_cat("truncated file: ", available, " bytes, the preamble alone needs ", p.size));
  }
  p.header_size = read_le(first, kMagicSize + 2, length_bytes);
  if (p.header_size > available - p.size) {
    fail(str_cat("truncated file: the header claims ", p.header_size, " bytes but only ",
                 available - p.size, " follow the preamble"));
  }
  return p;
}

Header parse_header(std::string_view text, const Preamble& preamble, std::uint64_t available,
                    const NpyReadOptions& options) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) fail(str_cat("header holds the non-ASCII byte ", hex_byte(c), " at offset ", i));
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      fail(str_cat("header holds the control byte ", hex_byte(c), " at offset ", i));
    }
  }
  DictReader reader(text);
  reader.expect('{', "to open the header dict");
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<std::vector<std::int64_t>> dims;
  for (;;) {
    reader.skip_space();
    if (reader.at_end()) fail("header ends inside the dict (unterminated dict: '}' missing)");
    if (reader.peek() == '}') break;
    const std::size_t key_pos = reader.pos();
    const std::string key = reader.read_string();
    reader.expect(':', "after a key");
    if (key == "descr") {
      reader.skip_space();
      if (reader.peek() == '[') fail("structured dtypes (a list 'descr') are not supported");
      if (descr) fail("header: key 'descr' appears twice");
      descr = reader.read_string();
    } else if (key == "fortran_order") {
      if (fortran) fail("header: key 'fortran_order' appears twice");
      fortran = reader.read_bool("fortran_order");
    } else if (key == "shape") {
      if (dims) fail("header: key 'shape' appears twice");
      dims = reader.read_shape();
    } else {
      fail(str_cat("header: unexpected key '", key, "' at offset ", key_pos,
                   " (only 'descr', 'fortran_order' and 'shape' are allowed)"));
    }
    reader.skip_space();
    if (reader.at_end()) fail("header ends inside the dict (unterminated dict: '}' missing)");
    if (reader.peek() == ',') {
      reader.expect(',', "");
    } else if (reader.peek() != '}') {
      fail(str_cat("header: expected ',' or '}' at offset ", reader.pos(), ", found '",
                   reader.peek(), "'"));
    }
  }
  reader.expect('}', "to close the header dict");
  reader.skip_space();
  if (!reader.at_end())
    fail(str_cat("header: unexpected text after the dict at offset ", reader.pos()));
  if (!descr) fail("header: key 'descr' is missing");
  if (!fortran) fail("header: key 'fortran_order' is missing");
  if (!dims) fail("header: key 'shape' is missing");
  if (*fortran) {
    fail("Fortran-order arrays are not supported; save a C-order copy "
         "(np.save(f, np.ascontiguousarray(a)))");
  }
  const Dtype dtype = parse_descr(*descr, options);

  Header h;
  h.is_string = dtype.is_string;
  h.type = dtype.type;
  h.item_size = dtype.item_size;
  h.byte_swap = dtype.item_size > 1 && !dtype.is_string &&
                dtype.big_endian != (std::endian::native == std::endian::big);
  h.descr = *descr;
  h.dims = std::move(*dims);
  h.data_offset = preamble.size + preamble.header_size;
  // Shape's constructor rejects an element count overflowing int64 (dims are >= 0 here).
  std::int64_t count = 1;
  bool zero = false;
  for (std::int64_t d : h.dims) zero = zero || d == 0;
  if (!zero) {
    for (std::int64_t d : h.dims) {
      if (__builtin_mul_overflow(count, d, &count)) {
        fail(str_cat("shape ", format_dims(h.dims), " has more elements than int64 can count"));
      }
    }
  } else {
    count = 0;
  }
  h.count = count;
  std::int64_t data_size = 0;
  if (__builtin_mul_overflow(count, static_cast<std::int64_t>(h.item_size), &data_size)) {
    fail(str_cat("the array (", count, " elements of ", h.item_size,
                 " bytes) needs more bytes than int64 can count"));
  }
  h.data_size = static_cast<std::uint64_t>(data_size);
  const std::uint64_t left = available - h.data_offset;
  if (h.data_size > left) {
    fail(str_cat("truncated file or lying header: ", count, " elements of dtype '", h.descr,
                 "' need ", h.data_size, " data bytes, but only ", left,
                 " follow the header"));
  }
  return h;
}

std::string format_header(std::string_view descr, const std::vector<std::int64_t>& dims,
                          int version) {
  std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) dict += ", ";
    dict += std::to_string(dims[i]);
  }
  if (dims.size() == 1) dict += ",";
  dict += "), }";
  auto padded_size = [&](std::size_t preamble) {
    const std::size_t unpadded = preamble + dict.size() + 1;  // + '\n'
    return (unpadded + kAlignment - 1) / kAlignment * kAlignment - preamble;
  };
  if (version == 0) version = padded_size(10) <= 0xffff ? 1 : 2;
  TENSORBUF_EXPECTS(version >= 1 && version <= 3, InvalidArgumentError,
                    str_cat("npy: format_version must be 0 (automatic), 1, 2 or 3, not ", version));
  const std::size_t preamble = version == 1 ? 10 : 12;
  const std::size_t header_size = padded_size(preamble);
  TENSORBUF_EXPECTS(version != 1 || header_size <= 0xffff, InvalidArgumentError,
                    "npy: the header does not fit in format version 1.0; use version 2.0");
  std::string out = "\x93NUMPY";
  out += static_cast<char>(version);
  out += '\0';
  const std::size_t length_bytes = version == 1 ? 2 : 4;
  for (std::size_t k = 0; k < length_bytes; ++k) {
    out += static_cast<char>((header_size >> (8 * k)) & 0xff);
  }
  out += dict;
  out.append(header_size - dict.size() - 1, ' ');
  out += '\n';
  return out;
}

}  // namespace tensorbuf::core::npy
