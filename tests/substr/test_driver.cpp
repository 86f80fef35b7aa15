// The CUDA backend's substr driver and per-element functions, run on the CPU through
// kernels::HostExecutor (both policies, thread-per-string and lanes-per-string modes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/substr.hpp"
#include "substr/helpers.hpp"

namespace tensorbuf {
namespace {

using testing::DriverRun;
using testing::DriverSettings;
using testing::index_buffer;
using testing::Strings;

TensorBuffer i32(const std::vector<std::int64_t>& v, const Shape& s) {
  return index_buffer(v, s, DataType::kInt32);
}

// (lane threshold, reverse order, lane-scan variant): thread per string and lanes per string,
// both orders, both forms of the lanes' character counts.
class SubstrDriver : public ::testing::TestWithParam<std::tuple<std::int64_t, bool, bool>> {
 protected:
  DriverSettings settings(SubstrUnit unit, bool report) const {
    DriverSettings s;
    s.unit = unit;
    s.report = report;
    s.lane_threshold = std::get<0>(GetParam());
    s.reverse = std::get<1>(GetParam());
    s.lane_scan = std::get<2>(GetParam());
    return s;
  }
};

TEST_P(SubstrDriver, SpecVectorsByte) {
  StringTensor in = StringTensor::from_strings(
      Strings{"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
              "eighteen", "nineteen", "twenty", "twentyone"},
      Shape{4, 3});
  DriverRun run = testing::run_driver(in, i32({1, 2, 3}, Shape{3}), i32({1, 2, 3}, Shape{3}),
                                      settings(SubstrUnit::kByte, true));
  EXPECT_EQ(run.first_bad, -1);
  EXPECT_EQ(run.values,
            (Strings{"e", "ev", "lve", "h", "ur", "tee", "i", "ve", "hte", "i", "en", "nty"}));
  EXPECT_EQ(run.reads, 1);
  EXPECT_EQ(run.allocations, 1);
  EXPECT_EQ(run.offsets.front(), 0);
}

TEST_P(SubstrDriver, SpecVectorsUtf8) {
  StringTensor in = StringTensor::from_strings(Strings{"H\xc3\xa9llo"}, Shape{});
  DriverRun run = testing::run_driver(in, i32({1, 1, -2, 5, -5, -1}, Shape{6}),
                                      i32({2, -1, -1, 1, 2, 5}, Shape{6}),
                                      settings(SubstrUnit::kUtf8Char, true));
  EXPECT_EQ(run.first_bad, -1);
  EXPECT_EQ(run.values, (Strings{"\xc3\xa9l", "\xc3\xa9llo", "lo", "", "H\xc3\xa9", "o"}));
  StringTensor stray = StringTensor::from_strings(Strings{"\x80\x80"
                                                          "ab"},
                                                  Shape{});
  run = testing::run_driver(stray, i32({0, 1, -3, 3}, Shape{4}), i32({1, 1, 1, 1}, Shape{4}),
                            settings(SubstrUnit::kUtf8Char, true));
  EXPECT_EQ(run.values, (Strings{"\x80\x80", "a", "\x80\x80", ""}));
}

TEST_P(SubstrDriver, ErrorPolicyReportsSmallestBadIndexAndWritesNothing) {
  StringTensor in = StringTensor::from_strings(Strings{"Hello", "Hi", "Hey", "H"}, Shape{4});
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    DriverRun run = testing::run_driver(in, i32({0, 3, 4, 9}, Shape{4}),
                                        i32({1, 1, 1, 1}, Shape{4}), settings(unit, true));
    EXPECT_EQ(run.first_bad, 1);
    EXPECT_EQ(run.bad_input, 1);
    EXPECT_EQ(run.bad_pos, 3);
    EXPECT_EQ(run.reads, 2);        // the total with the bad index, then the bad element's pos
    EXPECT_EQ(run.allocations, 0);  // validate first, write second
  }
}

// The bad element's flat index, input index and pos index all differ: [2, 1] strings against
// [3] positions; element (1, 1) is the first bad one (pos 2 on "a").
TEST_P(SubstrDriver, ErrorNamesTheBadElementsStringAndPosThroughTheBroadcast) {
  StringTensor in = StringTensor::from_strings(Strings{"abcd", "a"}, Shape{2, 1});
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    DriverRun run = testing::run_driver(in, i32({0, 2, 3}, Shape{3}), i32({1, 1, 1}, Shape{3}),
                                        settings(unit, true));
    EXPECT_EQ(run.first_bad, 4);
    EXPECT_EQ(run.bad_input, 1);
    EXPECT_EQ(run.bad_pos, 2);
    EXPECT_EQ(run.allocations, 0);
  }
}

TEST_P(SubstrDriver, DropPolicyGivesEmpty) {
  StringTensor in = StringTensor::from_strings(Strings{"Hello", "Hi"}, Shape{2});
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    DriverRun run = testing::run_driver(in, i32({3, 3}, Shape{2}), i32({1, 1}, Shape{2}),
                                        settings(unit, false));
    EXPECT_EQ(run.first_bad, -1);
    EXPECT_EQ(run.values, (Strings{"l", ""}));
    EXPECT_EQ(run.reads, 1);
  }
}

TEST_P(SubstrDriver, EmptyOutput) {
  StringTensor in = StringTensor::from_strings(Strings{}, Shape{0});
  DriverRun run = testing::run_driver(in, i32({100}, Shape{}), i32({1}, Shape{}),
                                      settings(SubstrUnit::kUtf8Char, true));
  EXPECT_EQ(run.first_bad, -1);
  EXPECT_TRUE(run.values.empty());
  EXPECT_EQ(run.offsets, (std::vector<std::int64_t>{0}));
  EXPECT_EQ(run.allocations, 1);
}

TEST_P(SubstrDriver, LongMultibyteStrings) {
  // Strings long enough for every slice to hold characters of 1 to 4 bytes.
  std::string s;
  const char* pieces[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  for (int i = 0; i < 300; ++i) s += pieces[i % 4];
  StringTensor in = StringTensor::from_strings(Strings{s, s.substr(0, 37), ""}, Shape{3, 1});
  // Characters: 300, then "a é € 😀 a é € 😀 a é € 😀 a é" style prefix of 37 bytes.
  DriverRun run =
      testing::run_driver(in, i32({0, 7, -13, 299}, Shape{4}), i32({-1, 250, 5, 1}, Shape{4}),
                          settings(SubstrUnit::kUtf8Char, false));
  ASSERT_EQ(run.values.size(), 12u);
  auto char_at = [&](int c) { return std::string(pieces[c % 4]); };
  std::string from7;
  for (int c = 7; c < 257; ++c) from7 += char_at(c);
  std::string last13;
  for (int c = 287; c < 292; ++c) last13 += char_at(c);
  EXPECT_EQ(run.values[0], s);
  EXPECT_EQ(run.values[1], from7);
  EXPECT_EQ(run.values[2], last13);
  EXPECT_EQ(run.values[3], char_at(299));
  // The 37-byte prefix holds 16 characters, the last a lone 0xF0 lead byte.
  EXPECT_EQ(run.values[4], s.substr(0, 37));
  EXPECT_EQ(run.values[5], s.substr(16, 21));  // from character 7 (the emoji at byte 16)
  EXPECT_EQ(run.values[6], s.substr(6, 14));   // characters 3..7
  EXPECT_EQ(run.values[7], "");                // pos 299 of 16 characters dropped
  EXPECT_EQ(run.values[8], "");
  EXPECT_EQ(run.values[9], "");  // pos 7 of "" dropped
  EXPECT_EQ(run.values[10], "");
  EXPECT_EQ(run.values[11], "");
}

// A broadcast that leaves more dims than the functors carry inline (kSubstrInlineRank): strings
// [2, 1, 2, 1, 2] against pos/len [1, 3, 1, 2, 1] alternate their broadcast dims, so no two
// merge and the map keeps 5 dims, read from executor memory. Exact strings, both units, both
// policies, and the first bad element named through that map.
TEST_P(SubstrDriver, AMapOfMoreDimsThanTravelInlineIsReadFromExecutorMemory) {
  static_assert(kernels::kSubstrInlineRank < 5);
  const Strings strings = {"s0abcdefg", "s1abcdefg", "s2abcdefg", "s3abcdefg",
                           "s4abcdefg", "s5abcdefg", "s6abcdefg", "s7abcdefg"};
  const StringTensor in = StringTensor::from_strings(strings, Shape{2, 1, 2, 1, 2});
  const std::vector<std::int64_t> pos = {0, -3, 1, 2, 4, -9};
  const std::vector<std::int64_t> len = {2, 1, -1, 3, 20, 1};
  // out[a, b, c, d, e] = substr(strings[4a + 2c + e], pos[2b + d], len[2b + d]).
  Strings expected;
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 3; ++b) {
      for (int c = 0; c < 2; ++c) {
        for (int d = 0; d < 2; ++d) {
          for (int e = 0; e < 2; ++e) {
            const std::string& str = strings[static_cast<std::size_t>(4 * a + 2 * c + e)];
            const auto size = static_cast<std::int64_t>(str.size());  // 9, all ASCII
            std::int64_t p = pos[static_cast<std::size_t>(2 * b + d)];
            const std::int64_t l = len[static_cast<std::size_t>(2 * b + d)];
            if (p < 0) p += size;  // pos -9: the first byte
            const std::int64_t take = l < 0 || l > size - p ? size - p : l;
            expected.push_back(
                str.substr(static_cast<std::size_t>(p), static_cast<std::size_t>(take)));
          }
        }
      }
    }
  }
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    for (bool report : {false, true}) {
      DriverRun run = testing::run_driver(in, i32(pos, Shape{1, 3, 1, 2, 1}),
                                          i32(len, Shape{1, 3, 1, 2, 1}), settings(unit, report));
      EXPECT_EQ(run.first_bad, -1);
      EXPECT_EQ(run.values, expected);
    }
  }
  // pos 9 (the end of a 9-byte string) is fine; pos 10 (pos/len element 5: b = 2, d = 1) is
  // bad, first at output element [0, 2, 0, 1, 0] (flat 24a + 8b + 4c + 2d + e = 18), string 0.
  const std::vector<std::int64_t> bad_pos = {0, 9, 1, 2, 4, 10};
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    DriverRun run = testing::run_driver(in, i32(bad_pos, Shape{1, 3, 1, 2, 1}),
                                        i32(len, Shape{1, 3, 1, 2, 1}), settings(unit, true));
    EXPECT_EQ(run.first_bad, 18);
    EXPECT_EQ(run.bad_input, 0);
    EXPECT_EQ(run.bad_pos, 10);
  }
}

// Byte units' offsets in one scan (SubstrByteOffsets::kScanOfSizes) against the default: the
// same strings and reads, with the launches per call of docs/substr.md ("CUDA passes").
TEST(SubstrDriverByteOffsets, OneScanGivesTheSameStringsInFewerLaunches) {
  StringTensor in = StringTensor::from_strings(
      Strings{"ten", "eleven", "twelve", "thirteen", "", "fifteen"}, Shape{6});
  for (bool report : {false, true}) {
    DriverSettings settings;
    settings.report = report;
    const DriverRun sizes_then_scan =
        testing::run_driver(in, i32({1, -4, 0, 3, 0, 9}, Shape{6}),
                            i32({2, -1, 3, 100, 1, 1}, Shape{6}), settings);
    settings.byte_offsets = kernels::SubstrByteOffsets::kScanOfSizes;
    const DriverRun one_scan = testing::run_driver(
        in, i32({1, -4, 0, 3, 0, 9}, Shape{6}), i32({2, -1, 3, 100, 1, 1}, Shape{6}), settings);
    SCOPED_TRACE(::testing::Message() << "report " << report);
    if (report) {  // "fifteen"[9] is out of range: element 5, pos 9
      EXPECT_EQ(one_scan.first_bad, 5);
      EXPECT_EQ(one_scan.bad_input, 5);
      EXPECT_EQ(one_scan.bad_pos, 9);
      EXPECT_EQ(one_scan.reads, 2);
      EXPECT_EQ(one_scan.allocations, 0);
      EXPECT_EQ(sizes_then_scan.launches, 5);  // fill, sizes, scan (2), tail
      EXPECT_EQ(one_scan.launches, 2);         // the scan
    } else {
      EXPECT_EQ(one_scan.values, (Strings{"en", "even", "twe", "rteen", "", ""}));
      EXPECT_EQ(one_scan.values, sizes_then_scan.values);
      EXPECT_EQ(one_scan.offsets, sizes_then_scan.offsets);
      EXPECT_EQ(one_scan.reads, 1);
      EXPECT_EQ(sizes_then_scan.launches, 4);  // sizes, scan (2), copy
      EXPECT_EQ(one_scan.launches, 3);         // scan (2), copy
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, SubstrDriver,
                         ::testing::Combine(::testing::Values(std::int64_t{0}, std::int64_t{64},
                                                              INT64_MAX),
                                            ::testing::Bool(), ::testing::Bool()));

// Per-element functions.

const std::uint8_t* bytes(const std::string& s) {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

TEST(SubstrKernels, CountStartsMatchesByteLoopOnEveryByteValue) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  all += all;
  for (std::int64_t lo = 0; lo < 40; ++lo) {
    for (std::int64_t hi = lo; hi <= static_cast<std::int64_t>(all.size()); hi += 7) {
      std::int64_t expected = 0;
      for (std::int64_t i = lo; i < hi; ++i) {
        const auto b = static_cast<unsigned char>(all[static_cast<std::size_t>(i)]);
        expected += (i == 0 || b < 0x80 || b > 0xBF) ? 1 : 0;
      }
      ASSERT_EQ(kernels::count_starts(bytes(all), lo, hi), expected) << lo << " " << hi;
    }
  }
}

// The byte positions of the character starts among the first `size` bytes of s (byte 0 and
// every byte outside 0x80..0xBF), by a byte loop.
std::vector<std::int64_t> start_positions(const std::string& s, std::size_t size) {
  std::vector<std::int64_t> starts;
  for (std::size_t i = 0; i < size; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (i == 0 || b < 0x80 || b > 0xBF) starts.push_back(static_cast<std::int64_t>(i));
  }
  return starts;
}

TEST(SubstrKernels, StartByteFindsEachStart) {
  const std::string piece =
      "\x80\xbf"
      "ab\xc3\xa9\xe2\x82\xac"
      "cdefghijk\xf0\x9f\x98\x80z";
  std::string repeated;
  for (int r = 0; r < 9; ++r) repeated += piece + std::string(static_cast<std::size_t>(r * 5), 'q');
  for (const std::string& s : {piece, repeated}) {
    const std::vector<std::int64_t> starts = start_positions(s, s.size());
    const auto size = static_cast<std::int64_t>(s.size());
    for (std::size_t k = 0; k <= starts.size() + 1; ++k) {
      std::int64_t seen = -1;
      const std::int64_t at =
          kernels::start_byte(bytes(s), 0, size, static_cast<std::int64_t>(k), &seen);
      if (k < starts.size()) {
        EXPECT_EQ(at, starts[k]);
        EXPECT_EQ(seen, static_cast<std::int64_t>(k + 1));
      } else {
        EXPECT_EQ(at, size);
        EXPECT_EQ(seen, static_cast<std::int64_t>(starts.size()));
      }
    }
    // From every start position on, too (the blocks begin unaligned).
    for (std::size_t from = 1; from < starts.size(); ++from) {
      const std::int64_t lo = starts[from - 1] + 1;
      for (std::size_t k = 0; from + k < starts.size(); k += 3) {
        std::int64_t seen = -1;
        EXPECT_EQ(kernels::start_byte(bytes(s), lo, size, static_cast<std::int64_t>(k), &seen),
                  starts[from + k]);
      }
    }
  }
}

TEST(SubstrKernels, StartByteFromEndFindsEachStartOfEveryPrefix) {
  // Every prefix of a mixed string (lengths across the word and 32-byte block steps), every k
  // from 0 (the last start) to two past the last start number, against a byte loop.
  const std::string piece =
      "\x80\xbf"
      "ab\xc3\xa9\xe2\x82\xac"
      "cdefghijk\xf0\x9f\x98\x80z\xbf\xbf\xbf";
  std::string s;
  for (int r = 0; r < 6; ++r) s += piece + std::string(static_cast<std::size_t>(r * 7), 'q');
  for (std::size_t size = 0; size <= s.size(); ++size) {
    const std::vector<std::int64_t> starts = start_positions(s, size);
    for (std::size_t k = 0; k <= starts.size() + 1; ++k) {
      const std::int64_t want = k < starts.size() ? starts[starts.size() - 1 - k] : -1;
      ASSERT_EQ(kernels::start_byte_from_end(bytes(s), static_cast<std::int64_t>(size),
                                             static_cast<std::int64_t>(k)),
                want)
          << "size " << size << ", k " << k;
    }
  }
}

TEST(SubstrKernels, ShortAsciiCheckSeesEveryByte) {
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::string ascii(n, 'a');
    EXPECT_EQ(kernels::is_short_ascii(bytes(ascii), static_cast<std::int64_t>(n)),
              n <= static_cast<std::size_t>(kernels::kShortAscii));
    for (std::size_t at = 0; at < n; ++at) {
      std::string high = ascii;
      high[at] = '\x80';
      EXPECT_FALSE(kernels::is_short_ascii(bytes(high), static_cast<std::int64_t>(n)))
          << n << " " << at;
    }
  }
}

TEST(SubstrKernels, ByteRangeRules) {
  kernels::ByteRange r;
  EXPECT_TRUE(kernels::byte_range(5, 5, 3, &r));
  EXPECT_EQ(r.begin, 5);
  EXPECT_EQ(r.end, 5);
  EXPECT_FALSE(kernels::byte_range(5, 6, 1, &r));
  EXPECT_TRUE(kernels::byte_range(5, -5, 2, &r));
  EXPECT_EQ(r.end, 2);
  EXPECT_FALSE(kernels::byte_range(5, -6, 2, &r));
  EXPECT_TRUE(kernels::byte_range(5, -2, -1, &r));
  EXPECT_EQ(r.begin, 3);
  EXPECT_EQ(r.end, 5);
  EXPECT_FALSE(kernels::byte_range(5, INT64_MIN, 1, &r));
  EXPECT_FALSE(kernels::byte_range(0, INT64_MAX, 1, &r));
  EXPECT_TRUE(kernels::byte_range(5, 1, INT64_MAX, &r));
  EXPECT_EQ(r.end, 5);
}

// The lane form against the one-thread scan: for strings at every offset 0..9 of a buffer of
// exactly their bytes (ASan sees a read outside) and lengths around the word and run ends, the
// lane counts add up to the character count, and the lane owning character c finds its byte.
TEST(SubstrKernels, LaneRunsAgreeWithScanningCount) {
  std::string pattern;
  for (int i = 0; i < 800; ++i) {
    pattern += (i % 3 == 0) ? "\xe2\x82\xac" : (i % 5 == 0 ? "\x80" : "q");
  }
  for (std::int64_t size : {0, 1, 7, 8, 9, 63, 64, 65, 255, 256, 257, 300, 1000, 1029}) {
    for (std::int64_t first = 0; first < 10; ++first) {
      const std::string s = pattern.substr(0, static_cast<std::size_t>(size));
      std::vector<std::uint8_t> buffer(static_cast<std::size_t>(first + size), 0xBF);
      std::copy(s.begin(), s.end(), buffer.begin() + first);
      const std::uint8_t* chars = buffer.data();
      const std::int64_t end = first + size;
      const std::int64_t nchars = kernels::count_starts(bytes(s), 0, size);
      std::int64_t before = 0;
      for (int lane = 0; lane < kernels::kLanes; ++lane) {
        const std::int64_t mine = kernels::lane_count_starts(chars, first, end, lane);
        for (std::int64_t k = 0; k < mine; ++k) {
          std::int64_t seen = 0;
          const std::int64_t expected = kernels::start_byte(bytes(s), 0, size, before + k, &seen);
          ASSERT_EQ(seen, before + k + 1);
          EXPECT_EQ(kernels::lane_start_byte(chars, first, end, lane, k), first + expected)
              << size << " " << first << " " << lane << " " << k;
        }
        before += mine;
      }
      EXPECT_EQ(before, nchars) << size << " " << first;
    }
  }
}

// A 16-byte aligned buffer of exactly `size` bytes (ASan sees a read past its end).
struct AlignedBytes {
  explicit AlignedBytes(std::size_t size)
      : data(new (std::align_val_t{16}) std::uint8_t[size == 0 ? 1 : size]) {}
  ~AlignedBytes() { ::operator delete[](data, std::align_val_t{16}); }
  AlignedBytes(const AlignedBytes&) = delete;
  AlignedBytes& operator=(const AlignedBytes&) = delete;
  std::uint8_t* data;
};

// The lane copy with vector reads (SubstrLaneCopy::kVectors) against a byte loop: substrings
// at every source offset 0..31 of a 16-byte aligned chars buffer that ends with them, output
// offsets of every alignment class that matters, lengths around the limit of the vector chunks
// (16 more bytes after the chunk) and the lanes' 512-byte step.
TEST(SubstrKernels, VectorLaneCopyMatchesByteLoop) {
  for (std::int64_t count : {0, 1, 15, 16, 31, 32, 33, 47, 48, 49, 63, 64, 100, 511, 512, 513,
                             529, 1000, 1029}) {
    for (std::int64_t begin = 0; begin < 32; ++begin) {
      const auto size = static_cast<std::size_t>(begin + count);
      AlignedBytes in(size);
      for (std::size_t i = 0; i < size; ++i) in.data[i] = static_cast<std::uint8_t>(i * 131 + 7);
      for (std::int64_t start : {0, 1, 5, 8, 15, 16, 17}) {
        const auto out_size = static_cast<std::size_t>(start + count + 16);
        AlignedBytes out(out_size);
        std::fill(out.data, out.data + out_size, std::uint8_t{0xEE});
        const std::int64_t offsets[2] = {start, start + count};
        const std::int64_t begins[1] = {begin};
        const kernels::LaneCopyFunctor copy{in.data, begins, offsets, out.data, /*vectors=*/true};
        for (std::int64_t t = 0; t < kernels::kLanes; ++t) copy(t);
        for (std::size_t i = 0; i < out_size; ++i) {
          const auto at = static_cast<std::int64_t>(i);
          const std::uint8_t want = at >= start && at < start + count
                                        ? in.data[static_cast<std::size_t>(begin + at - start)]
                                        : std::uint8_t{0xEE};
          ASSERT_EQ(out.data[i], want) << "count " << count << " begin " << begin << " start "
                                       << start << " byte " << i;
        }
      }
    }
  }
}

// join16 against a byte copy for every shift: the device's funnel shifts, in portable code.
TEST(SubstrKernels, Join16TakesTheSixteenBytesFromTheShift) {
  std::uint8_t bytes32[32];
  for (int i = 0; i < 32; ++i) bytes32[i] = static_cast<std::uint8_t>(0x11 * (i % 15) + i);
  std::uint32_t words[8];
  std::memcpy(words, bytes32, sizeof words);
  for (unsigned int shift = 0; shift < 16; ++shift) {
    std::uint32_t out[4];
    kernels::join16(words, shift, out);
    std::uint8_t got[16];
    std::memcpy(got, out, sizeof got);
    for (unsigned int i = 0; i < 16; ++i) {
      ASSERT_EQ(got[i], bytes32[shift + i]) << "shift " << shift << " byte " << i;
    }
  }
}

}  // namespace
}  // namespace tensorbuf
