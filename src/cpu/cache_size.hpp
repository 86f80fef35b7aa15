// The size of this CPU's last-level cache, for the ops that pick a path by whether their table
// stays in it.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

namespace tensorbuf::cpu {

// Assumed where the system does not say.
inline constexpr std::int64_t kDefaultLastLevelCacheBytes = std::int64_t{16} << 20;

// The highest-level data or unified cache of CPU 0 that Linux's sysfs lists (one slice: an
// AMD CCD's L3, not the socket's sum that glibc's sysconf reports), detected once.
inline std::int64_t last_level_cache_bytes() {
  static const std::int64_t bytes = [] {
    std::int64_t found = 0;
    int found_level = 0;
    for (int i = 0; i < 8; ++i) {
      const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
      std::ifstream level_file(dir + "level");
      std::ifstream type_file(dir + "type");
      std::ifstream size_file(dir + "size");
      int level = 0;
      std::string type;
      std::int64_t size = 0;
      std::string unit;
      if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) continue;
      if (type == "Instruction" || level < found_level) continue;
      size_file >> unit;  // "32768K"
      if (!unit.empty() && unit[0] == 'K') size <<= 10;
      if (!unit.empty() && unit[0] == 'M') size <<= 20;
      found = size;
      found_level = level;
    }
    return found > 0 ? found : kDefaultLastLevelCacheBytes;
  }();
  return bytes;
}

}  // namespace tensorbuf::cpu
