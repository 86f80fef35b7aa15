// substr on the CPU: the prefetch policy of pass 1 (how far ahead, and which bytes, the scans
// of long strings fetch). The A/B measurements behind the distances are in docs/substr.md.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cpu/prefetch.hpp"

namespace tensorbuf::cpu::substr_detail {

constexpr std::int64_t kPrefetchAhead = 8;      // strings: the head of the string this far on
constexpr std::int64_t kShortScanAhead = 1024;  // bytes: short strings' prefetch distance

// Pass 1's prefetch for a contiguous chunk of long strings, kScanStreamAhead bytes ahead of
// the element it scans. Each scan is a short stream (from the front, or back from the end)
// that the hardware prefetcher does not follow. By default one software stream runs over all
// of the chunk's bytes, each line fetched once, although some are read by no scan: DRAM serves
// one stream faster than many short ranges. When pos and len are scalars whose scan window (a
// character is at most 4 bytes) spans at most a quarter of the chunk's average string, only
// each string's window is fetched. The measurements: docs/substr.md, "CPU fast paths".
constexpr std::int64_t kScanStreamAhead = 4096;

class ScanPrefetch {
 public:
  ScanPrefetch(const std::int64_t* offs, const std::uint8_t* chars, std::int64_t b, std::int64_t e,
               std::int64_t pos_stride, std::int64_t pos, std::int64_t len)
      : offs_(offs),
        chars_(chars),
        e_(e),
        end_(offs[e]),
        fetched_(offs[b] & ~std::int64_t{63}),
        next_(b) {
    if (pos_stride != 0) return;
    // Characters the scan may cover: pos (+ len) from the front, or -pos from the end.
    const std::int64_t max_reach = (end_ - offs[b]) / (e - b) / 16;  // window <= average / 4
    if (pos >= 0) {
      if (pos > max_reach || (len > 0 && len > max_reach - pos)) return;
      window_ = 4 * (pos + std::max<std::int64_t>(len, 0)) + 64;
    } else {
      if (pos < -max_reach) return;
      window_ = 4 * -pos + 64;
      from_end_ = true;
    }
  }
  // Called with the byte offset of the element about to be scanned.
  void advance(std::int64_t first) {
    const std::int64_t target = std::min(first + kScanStreamAhead, end_);
    if (window_ == 0) {
      for (; fetched_ < target; fetched_ += 64) __builtin_prefetch(chars_ + fetched_);
      return;
    }
    for (; next_ < e_ && offs_[next_] < target; ++next_) {
      const std::int64_t lo = offs_[next_];
      const std::int64_t hi = offs_[next_ + 1];
      const std::int64_t a = from_end_ ? std::max(lo, hi - window_) : lo;
      const std::int64_t z = from_end_ ? hi : std::min(hi, lo + window_);
      for (std::int64_t at = a & ~std::int64_t{63}; at < z; at += 64) {
        __builtin_prefetch(chars_ + at);
      }
    }
  }

 private:
  const std::int64_t* offs_;
  const std::uint8_t* chars_;
  std::int64_t e_;
  std::int64_t end_;
  std::int64_t fetched_;     // stream: the lines before it are fetched
  std::int64_t next_;        // window: the next element to fetch
  std::int64_t window_ = 0;  // 0: stream; else bytes from the string's front (or end)
  bool from_end_ = false;
};

// The stand-in where pass 1 does not prefetch (constructs and advances as nothing).
struct NoScanPrefetch {
  NoScanPrefetch(const std::int64_t*, const std::uint8_t*, std::int64_t, std::int64_t, std::int64_t,
                 std::int64_t, std::int64_t) {}
  void advance(std::int64_t) {}
};

}  // namespace tensorbuf::cpu::substr_detail
