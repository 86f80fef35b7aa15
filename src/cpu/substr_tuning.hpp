// Tuning of the CPU substr backend, for tests.
#pragma once

namespace tensorbuf::cpu {

// true: every input uses the wide element records of inputs of 2^31 bytes or more (the start in
// the output offsets, the count in a scratch array), so tests cover that form on small inputs;
// false (the default): packed records below 2^31 bytes.
void set_substr_wide_records(bool wide);

}  // namespace tensorbuf::cpu
