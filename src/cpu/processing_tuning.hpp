// The CPU Processor's switches, for tests: the table of an 8-bit input's chain taken always
// (wherever the input is 8-bit), never, or where it is cheaper (the default); and a uint8
// normalize step's division-free form (normalize_reciprocal.hpp) taken where checked exact (the
// default), never, or unchecked (only to show that the check matters).
#pragma once

#include <cstdint>

namespace tensorbuf::cpu {

// Outputs of this many bytes or more are streamed past the caches (non-temporal stores): the
// larger of kStreamOutputBytes and this CPU's last-level cache. An output that fits the
// last-level cache stays there for the op that reads it next (a model's input).
std::int64_t process_stream_output_bytes();

enum class ProcessTableUse { kAuto, kAlways, kNever };

void set_process_table_use(ProcessTableUse use);

enum class ProcessDivideUse { kAuto, kNever, kUnchecked };

void set_process_divide_use(ProcessDivideUse use);

// Whether the division-free form gives (float(x) - mean) / stddev bit for bit for every uint8
// x on this CPU (false without AVX-512: the form is not used there).
bool normalize_reciprocal_exact(float mean, float stddev);
// Whether the bare product (float(x) - mean) * (1 / stddev) rounded to float16 gives the
// division's float16 bits for every uint8 x (the float16 outputs' form; false without AVX-512).
bool normalize_half_product_exact(float mean, float stddev);

}  // namespace tensorbuf::cpu
