#!/usr/bin/env bash
# The ratchet of `make test`: figures that are counted, not timed, so that they come out the same on every
# run on a machine and a change that makes them worse fails the tests (docs/performance.md, "The ratchet").
#
#   benchmarks/ratchet.sh           measure, compare with benchmarks/budget.json, fail above it
#   benchmarks/ratchet.sh --report  measure and print the figures as JSON (make bench), no comparison
#
# Needs the release binary (make release) and the debug build of benchmarks' ratchet-figures, both built
# by `make ratchet`; valgrind, GNU time's companions taskset and a C compiler (make test-deps).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-check}
BIN=.build/release/rtctrace
FIGURES=benchmarks/.build/debug/ratchet-figures
BUDGET=${RATCHET_BUDGET:-benchmarks/budget.json}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Counts must not depend on the run: one thread (the affinity mask of one core is what makes the replay
# read on its own thread, and two threads hand batches over as they happen to meet), and the same hash
# seed every run (dictionaries then probe the same way).
export LC_ALL=C SWIFT_DETERMINISTIC_HASHING=1
ONE_CORE="taskset -c 0"
say() { [ -t 2 ] && printf '\r\033[K%s' "$*" >&2 || true; }

for f in "$BIN" "$FIGURES"; do [ -x "$f" ] || { echo "ratchet: $f is not built (make ratchet builds it)" >&2; exit 2; }; done
CC=${CC:-$(command -v clang || command -v cc)}
"$CC" -O2 -shared -fPIC -o "$WORK/alloc-count.so" benchmarks/ratchet/alloc-count.c
# valgrind 3.19 cannot read the DWARF 5 of the toolchain's debug information: count a copy without it.
if command -v strip >/dev/null; then strip --strip-debug -o "$WORK/rtctrace" "$BIN"; else llvm-objcopy --strip-debug "$BIN" "$WORK/rtctrace"; fi

say "writing the sessions"
for s in stress healthy; do
  for n in 50000 100000 200000; do "$FIGURES" session "$s" "$n" "$WORK/$s-$n.trace.zst" >/dev/null; done
done

# Runs the release binary on one core; exit 0 or 1 (findings) is a run, anything else a failure.
run() {
  local rc=0
  "$@" >/dev/null 2>"$WORK/stderr" || rc=$?
  if [ "$rc" -gt 1 ]; then echo "ratchet: '$*' exited $rc:" >&2; tail -5 "$WORK/stderr" >&2; exit 2; fi
}
# Allocation calls of the whole process (malloc, calloc, realloc, posix_memalign, aligned_alloc).
allocations() {
  run env RTCTRACE_ALLOC_COUNT_FILE="$WORK/count" LD_PRELOAD="$WORK/alloc-count.so" $ONE_CORE "$BIN" "$@"
  cat "$WORK/count"
}
# Instructions executed (valgrind's cachegrind without its cache simulation).
instructions() {
  run $ONE_CORE valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file="$WORK/valgrind" "$@"
  awk '/I *refs/ { gsub(",", "", $NF); print $NF }' "$WORK/valgrind"
}

declare -A F
for s in stress healthy; do
  say "allocations: $s"
  for cmd in explain cat; do
    args=(explain --json); [ "$cmd" = cat ] && args=(cat)
    small=$(allocations "${args[@]}" "$WORK/$s-100000.trace.zst")
    large=$(allocations "${args[@]}" "$WORK/$s-200000.trace.zst")
    F["$cmd.$s.allocationsPerRecord"]=$(python3 -c "print(($large - $small) / 100000)")
  done
  say "timers: $s"
  small=$("$FIGURES" replay "$WORK/$s-100000.trace.zst")
  large=$("$FIGURES" replay "$WORK/$s-200000.trace.zst")
  F["replay.$s.timersFiredPerRecord"]=$(python3 -c "import json,sys; a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2]); print((b['timersFired'] - a['timersFired']) / (b['records'] - a['records']))" "$small" "$large")
  F["replay.recordStride"]=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['recordStride'])" "$large")
done
say "instructions: 50,000 stress records"
zstd_ir=$(instructions zstd -dc --no-asyncio "$WORK/stress-50000.trace.zst")
explain_ir=$(instructions "$WORK/rtctrace" explain --json "$WORK/stress-50000.trace.zst")
cat_ir=$(instructions "$WORK/rtctrace" cat "$WORK/stress-50000.trace.zst")
F["explain.stress.instructionRatioToZstd"]=$(python3 -c "print($explain_ir / $zstd_ir)")
F["cat.stress.instructionRatioToZstd"]=$(python3 -c "print($cat_ir / $zstd_ir)")
say ""

MEASURED=$(for k in "${!F[@]}"; do printf '%s %s\n' "$k" "${F[$k]}"; done | sort)
python3 - "$MODE" "$BUDGET" "$zstd_ir" "$explain_ir" "$cat_ir" <<PY
import json, sys
mode, budget_path = sys.argv[1], sys.argv[2]
zstd_ir, explain_ir, cat_ir = (int(a) for a in sys.argv[3:6])
measured = {k: float(v) for k, v in (line.split() for line in """$MEASURED""".strip().splitlines())}
if mode == "--report":
    print(json.dumps({"figures": measured, "instructions": {"zstd -dc": zstd_ir, "explain --json": explain_ir, "cat": cat_ir}}, indent=2))
    sys.exit(0)
budget = json.load(open(budget_path))
tolerance, floors = budget["tolerance"], budget["absoluteTolerance"]
failed, lower = [], []
print(f"{'figure':<42} {'measured':>10} {'budget':>10}")
for key in sorted(set(measured) | set(budget["figures"])):
    have, allowed = measured.get(key), budget["figures"].get(key)
    if have is None:
        failed.append(f"{key}: in the budget but not measured"); continue
    if allowed is None:
        failed.append(f"{key}: measured {have:g} but not in the budget: add it to {budget_path}"); continue
    slack = max(allowed * tolerance, floors.get(key.rsplit(".", 1)[1], 0))
    print(f"{key:<42} {have:>10.4g} {allowed:>10.4g}")
    if have > allowed + slack:
        failed.append(f"{key}: {have:.4g} exceeds the budget of {allowed:.4g} by more than {tolerance:.0%}")
    elif have < allowed - slack:
        lower.append(f"{key}: {have:.4g} is more than {tolerance:.0%} under the budget of {allowed:.4g}: lower it in {budget_path}")
print(f"(instructions: zstd -dc {zstd_ir:,}, explain --json {explain_ir:,}, cat {cat_ir:,})")
for note in lower: print("note: " + note)
for f in failed: print("FAILED: " + f)
sys.exit(1 if failed else 0)
PY
