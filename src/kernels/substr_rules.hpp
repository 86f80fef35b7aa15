// substr's per-element rules (spec/substr.md rules 3-4): the byte range of one element's
// substring from its string, pos and len, in either unit. Written once here; the CUDA driver
// and the CPU's portable path call these, the CPU's fast paths only find bytes faster.
#pragma once

#include <cstdint>

#include "kernels/config.hpp"
#include "kernels/substr_scan.hpp"

namespace tensorbuf::kernels {

// A substring as byte offsets [begin, end) into its string.
struct ByteRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

// a if c, else b, without a branch.
TENSORBUF_HOST_DEVICE inline std::uint64_t pick(bool c, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t m = std::uint64_t{0} - static_cast<std::uint64_t>(c);
  return (a & m) | (b & ~m);
}

// Units [first, end) of a string of `count` units (bytes, or characters).
struct UnitWindow {
  std::uint64_t first;
  std::uint64_t end;
  bool valid;  // false: pos is out of range (first and end are then meaningless)
};

// THE rule of pos and len (spec/substr.md rules 3-4) in units: a negative pos counts from the
// end, pos may equal the count (an empty result), and a negative len or one past the end takes
// the rest. Every form that knows the string's unit count applies it through this function:
// bytes, the short UTF-8 fast paths and the lane form; the scanning forms (utf8_range) find the
// same window without counting. Branch-free, in unsigned arithmetic: it wraps instead of
// overflowing for any pos and len (INT64_MIN included), and a negative len, as unsigned, is
// above any remaining count.
TENSORBUF_HOST_DEVICE inline UnitWindow unit_window(std::uint64_t count, std::int64_t pos,
                                                    std::int64_t len) {
  const std::uint64_t p =
      static_cast<std::uint64_t>(pos) + (count & static_cast<std::uint64_t>(pos >> 63));
  const std::uint64_t rem = count - p;
  const auto ulen = static_cast<std::uint64_t>(len);
  return UnitWindow{p, p + pick(ulen < rem, ulen, rem), p <= count};
}

// Rule 3 (BYTE). False when pos is out of range.
TENSORBUF_HOST_DEVICE inline bool byte_range(std::int64_t size, std::int64_t pos, std::int64_t len,
                                             ByteRange* out) {
  const UnitWindow w = unit_window(static_cast<std::uint64_t>(size), pos, len);
  if (!w.valid) return false;
  out->begin = static_cast<std::int64_t>(w.first);
  out->end = static_cast<std::int64_t>(w.end);
  return true;
}

// Rule 4 for the forms that scan a string instead of counting its characters first (long
// strings: the count would cost a pass over every byte). `starts` locates character starts
// (byte 0 of the string, and every byte outside 0x80..0xBF), by 0-based start numbers in both
// directions (kernels/substr_scan.hpp):
//   starts.from_front(from, k, &missing): start number k among the starts at or after byte
//     `from` (0, or a start, which is number 0); when only m <= k exist: size, with
//     *missing = k - m (so k == m, one past the last start, gives size and 0);
//   starts.from_back(k): start number k counted back from the end (0: the last), or -1 when
//     there are k or fewer.
// The forms differ only in how they find a start (ScanStarts below; the CPU's AVX-512 scan).

// The len half: the end of `len` characters from `begin` (a start, or size).
template <class Starts>
TENSORBUF_HOST_DEVICE inline std::int64_t char_end(const Starts& starts, std::int64_t size,
                                                   std::int64_t begin, std::int64_t len) {
  if (len < 0 || len >= size - begin) return size;  // never more characters than bytes
  std::uint64_t missing = 0;
  return starts.from_front(begin, static_cast<std::uint64_t>(len), &missing);  // size if fewer
}

// The whole window. False when pos is out of range.
template <class Starts>
TENSORBUF_HOST_DEVICE inline bool char_window(const Starts& starts, std::int64_t size,
                                              std::int64_t pos, std::int64_t len, ByteRange* out) {
  std::int64_t begin = 0;
  if (pos < 0) {
    // Start number -pos - 1 from the back, read back from the end rather than counted from the
    // front (-pos as unsigned: no overflow for INT64_MIN).
    const std::uint64_t back = std::uint64_t{0} - static_cast<std::uint64_t>(pos);
    if (back > static_cast<std::uint64_t>(size)) return false;  // never more chars than bytes
    begin = starts.from_back(static_cast<std::int64_t>(back - 1));
    if (begin < 0) return false;
  } else {
    if (pos > size) return false;
    std::uint64_t missing = 0;
    begin = starts.from_front(0, static_cast<std::uint64_t>(pos), &missing);
    if (missing != 0) return false;  // pos beyond the character count
  }
  out->begin = begin;
  out->end = char_end(starts, size, begin, len);
  return true;
}

// Starts found by the portable SWAR scan (kernels/substr_scan.hpp), on the host and the device.
struct ScanStarts {
  const std::uint8_t* s;
  std::int64_t size;
  TENSORBUF_HOST_DEVICE std::int64_t from_front(std::int64_t from, std::uint64_t k,
                                                std::uint64_t* missing) const {
    if (k == 0 || from >= size) {
      *missing = from >= size ? k : 0;
      return from >= size ? size : from;
    }
    // Starts after `from` are bytes outside 0x80..0xBF (from + 1 >= 1: no byte-0 rule), where
    // number k at or after `from` is number k - 1; with `from` itself, m = seen + 1 starts when
    // fewer follow it.
    std::int64_t seen = 0;
    const std::int64_t at =
        start_byte(s, from + 1, size, static_cast<std::int64_t>(k - 1), &seen);
    const auto after = static_cast<std::uint64_t>(seen);
    *missing = after == k ? 0 : k - (after + 1);
    return after == k ? at : size;
  }
  TENSORBUF_HOST_DEVICE std::int64_t from_back(std::int64_t k) const {
    return start_byte_from_end(s, size, k);
  }
};

// Whether a string of at most kShortAscii bytes is all ASCII (then characters are bytes):
// a few word loads, all inside the string.
inline constexpr std::int64_t kShortAscii = 32;
TENSORBUF_HOST_DEVICE inline bool is_short_ascii(const std::uint8_t* s, std::int64_t size) {
  if (size > kShortAscii) return false;
  if (size < 8) {
    std::uint8_t any = 0;
    for (std::int64_t i = 0; i < size; ++i) any |= s[i];
    return (any & 0x80u) == 0;
  }
  std::uint64_t any = load_u64(s + size - 8);
  for (std::int64_t i = 0; i + 8 <= size; i += 8) any |= load_u64(s + i);
  return (any & kTopBits) == 0;
}

// Rule 4 (UTF8_CHAR), one thread scanning the string. False when pos is out of range.
TENSORBUF_HOST_DEVICE inline bool utf8_range(const std::uint8_t* s, std::int64_t size,
                                             std::int64_t pos, std::int64_t len, ByteRange* out) {
  if (is_short_ascii(s, size)) return byte_range(size, pos, len, out);
  return char_window(ScanStarts{s, size}, size, pos, len, out);
}

}  // namespace tensorbuf::kernels
