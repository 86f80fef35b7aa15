// The CPU Processor's one switch, for tests: the table of an 8-bit input's chain taken always
// (wherever the input is 8-bit), never, or where it is cheaper (the default).
#pragma once

namespace tensorbuf::cpu {

enum class ProcessTableUse { kAuto, kAlways, kNever };

void set_process_table_use(ProcessTableUse use);

}  // namespace tensorbuf::cpu
