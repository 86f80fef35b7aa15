#!/usr/bin/env bash
# Runs every libFuzzer harness of build/fuzz for SECONDS each (default 60), starting from its
# committed seed corpus; exits non-zero on the first finding (crash, leak, UB, failed check).
# Findings are left in build/fuzz/findings/ (turn each into a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
mkdir -p build/fuzz/findings
for harness in build/fuzz/tests/fuzz/fuzz_*; do
  [ -x "$harness" ] || continue
  name=$(basename "$harness")
  corpus=build/fuzz/corpus/$name
  mkdir -p "$corpus"
  seeds=tests/fuzz/corpus/${name#fuzz_}
  [ -d "$seeds" ] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
  log=build/fuzz/$name.log
  if ! "$harness" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
       -artifact_prefix=build/fuzz/findings/"$name"- "$corpus" > "$log" 2>&1; then
    echo "$name: FINDING (see $log and build/fuzz/findings/)"
    tail -30 "$log"
    exit 1
  fi
  echo "$name: $(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1) — no finding"
done
