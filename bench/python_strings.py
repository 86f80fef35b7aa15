#!/usr/bin/env python3
"""tb.StringTensor from a list of 100k str (issue 34 item 5): the flat-list path
(python/src/to_strings.cpp, from_flat_sequence) against the general nested-list path it
replaced for flat lists (tb._tensorbuf._strings_general_path), A/B alternating in one process,
each call on a freshly built list (a str's UTF-8 cache starts empty, as for data just read),
medians of the rounds, in this thread's CPU time (time.thread_time: on a shared machine other
processes' bursts do not count) and in wall time. Target: at least 3x faster.

usage: PYTHONPATH=build/<preset>/python /usr/bin/python3 bench/python_strings.py
"""

import statistics
import time

import tensorbuf as tb
from tensorbuf import _tensorbuf

COUNT = 100_000


def words(non_ascii):
    return [f"wörd{i}" if non_ascii else f"word{i}" for i in range(COUNT)]


def main(rounds=15):
    for non_ascii in (False, True):
        cpu = {"before": [], "after": []}
        wall = {"before": [], "after": []}
        for _ in range(rounds):
            for kind, build in (("before", _tensorbuf._strings_general_path),
                                ("after", tb.StringTensor)):
                values = words(non_ascii)
                start_cpu, start_wall = time.thread_time(), time.perf_counter()
                build(values)
                cpu[kind].append(time.thread_time() - start_cpu)
                wall[kind].append(time.perf_counter() - start_wall)
        before, after = (statistics.median(cpu[k]) * 1e3 for k in ("before", "after"))
        wall_before, wall_after = (statistics.median(wall[k]) * 1e3 for k in ("before", "after"))
        label = "non-ASCII ('wörd<i>')" if non_ascii else "ASCII ('word<i>')"
        print(f"{COUNT} str, {label}: CPU {before:.2f} -> {after:.2f} ms, {before / after:.1f}x "
              f"(target >= 3x: {'met' if before / after >= 3 else 'NOT met'}); wall "
              f"{wall_before:.2f} -> {wall_after:.2f} ms, {wall_before / wall_after:.1f}x")


if __name__ == "__main__":
    main()
