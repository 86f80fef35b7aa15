#!/usr/bin/python3
"""Concurrent callers' table for bench/RESULTS.md.

Reads DIR/run*.json, each one process of
  tensorbuf_bench --benchmark_filter=concurrent --benchmark_repetitions=R
                  --benchmark_report_aggregates_only=true --benchmark_out=DIR/runK.json
and prints, per size, the single caller's pairs per second (median over the processes, then
their range) and each caller count's throughput over the single caller's in the same process
(median and range over the processes).
"""
import glob
import json
import re
import statistics
import sys


def main(directory):
    runs = []
    for path in sorted(glob.glob(directory + "/run*.json")):
        table = {}
        for b in json.load(open(path))["benchmarks"]:
            m = re.match(r"concurrent_pairs_(\d+)_(\d+)_caller", b["name"])
            if m and b.get("aggregate_name") == "median":
                table[(int(m.group(1)), int(m.group(2)))] = b["pairs_per_second"]
        runs.append(table)
    print("| elements | 1 caller (pairs/s) | 2 callers | 4 callers | 8 callers |")
    print("|---:|---:|---:|---:|---:|")
    for n in sorted({key[0] for key in runs[0]}):
        one = [r[(n, 1)] for r in runs]
        cells = ["%.1fk (%.1f-%.1fk)" % (statistics.median(one) / 1e3, min(one) / 1e3,
                                        max(one) / 1e3)]
        for callers in (2, 4, 8):
            ratios = [r[(n, callers)] / r[(n, 1)] for r in runs]
            cells.append("%.2fx (%.2f-%.2f)" % (statistics.median(ratios), min(ratios),
                                               max(ratios)))
        print("| 2^%d | %s |" % (n.bit_length() - 1, " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1])
