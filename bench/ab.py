#!/usr/bin/python3
"""Interleaved A/B of two tensorbuf builds: runs `A bench` and `B bench` alternately, ROUNDS
times each, and prints per case the median over the rounds of each build's median time and
the ratio B/A (> 1: B is slower). Alternating keeps a drift of the machine (other load,
frequency) from landing on one side only.

    /usr/bin/python3 bench/ab.py --a OLD/tensorbuf --b NEW/tensorbuf [--rounds 5]
        [--device cpu] [--filter REGEX] [--keep DIR] [--limit 1.10]

Exit status 1 when a case's ratio is above --limit (default 1.10), else 0.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(binary, device, filter_regex, out_json):
    cmd = [binary, "bench", "--device", device, "--json", out_json]
    if filter_regex:
        cmd += ["--filter", filter_regex]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out_json) as f:
        return {r["case"]: r["seconds"] for r in json.load(f) if "skipped" not in r}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="the baseline tensorbuf binary")
    parser.add_argument("--b", required=True, help="the candidate tensorbuf binary")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--filter", default="")
    parser.add_argument("--keep", help="folder for the JSON of every run")
    parser.add_argument("--limit", type=float, default=1.10)
    args = parser.parse_args()

    keep = args.keep or tempfile.mkdtemp(prefix="tensorbuf-ab-")
    os.makedirs(keep, exist_ok=True)
    times = {"a": {}, "b": {}}
    for r in range(args.rounds):
        for side in ("a", "b"):
            path = os.path.join(keep, f"{side}_{r}.json")
            for case, seconds in run(getattr(args, side), args.device, args.filter, path).items():
                times[side].setdefault(case, []).append(seconds)
            print(f"round {r + 1}/{args.rounds} {side} done", file=sys.stderr)

    worst = 0.0
    print(f"| case | A ms (median of {args.rounds}) | B ms | B/A |")
    print("|---|---:|---:|---:|")
    for case in sorted(times["a"]):
        if case not in times["b"]:
            continue
        a = statistics.median(times["a"][case]) * 1e3
        b = statistics.median(times["b"][case]) * 1e3
        worst = max(worst, b / a)
        print(f"| {case} | {a:.3f} | {b:.3f} | {b / a:.2f} |")
    print(f"\nworst B/A: {worst:.2f}; runs kept in {keep}")
    return 1 if worst > args.limit else 0


if __name__ == "__main__":
    sys.exit(main())
