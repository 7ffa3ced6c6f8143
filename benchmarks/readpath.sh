#!/usr/bin/env bash
# make bench, the read path: `explain --json` and `cat` against `zstd -dc` of the same file in the same run,
# for the stress and the healthy session (TraceFixtures.BenchSession), each phase of explain's read path on
# its own (rtctrace-bench phases), the targets they are held to, and the counted figures of the ratchet
# (benchmarks/ratchet.sh --report). Prints the tables and writes bench-results/readpath.json.
# BENCH_RECORDS (default 1,000,000) sizes the sessions, MEM_RECORDS (default 10,000,000) the memory run,
# BENCH_RUNS (default 5) the runs each time is the best of. run.sh passes TRIAGE_PER_CORE and
# EXPLAIN_PER_CORE (records/s) for the triage target, measured there.
source "$(dirname "$0")/common.sh"
RUNS=${BENCH_RUNS:-5}
best() { python3 benchmarks/best-of.py "$RUNS" "$@"; }

for s in stress healthy; do
  say "read path: $s session, $N records"
  $BENCH session "$s" "$N" "$WORK/$s.trace.zst" >/dev/null
  f="$WORK/$s.trace.zst"
  best zstd -dc "$f" > "$WORK/$s-zstd.json"
  best taskset -c 0 "$BIN" cat "$f" > "$WORK/$s-cat.json"
  best taskset -c 0 "$BIN" explain --json "$f" > "$WORK/$s-explain1.json"
  best taskset -c 0,1 "$BIN" explain --json "$f" > "$WORK/$s-explain2.json"
  taskset -c 0 $BENCH phases "$f" 3 > "$WORK/$s-phases.json"
  stat -c %s "$f" > "$WORK/$s-bytes"
done
say "read path: peak memory at 100,000 and $BIG stress records"
$BENCH session stress 100000 "$WORK/small.trace.zst" >/dev/null
MEM_SMALL=$(peak_kb "$BIN" explain --json "$WORK/small.trace.zst")
rm -f "$WORK"/stress.trace.zst "$WORK"/healthy.trace.zst
$BENCH session stress "$BIG" "$WORK/big.trace.zst" >/dev/null
MEM_BIG=$(peak_kb "$BIN" explain --json "$WORK/big.trace.zst")
rm -f "$WORK/big.trace.zst"
say "read path: the ratchet's counted figures"
if command -v valgrind >/dev/null && [ -x benchmarks/.build/debug/ratchet-figures ]; then
  bash benchmarks/ratchet.sh --report > "$WORK/ratchet.json"
else
  echo '{"figures": {}, "instructions": {}, "missing": "valgrind or ratchet-figures (make bench builds them)"}' > "$WORK/ratchet.json"
fi
say ""

python3 - "$WORK" "$N" "$BIG" "$MEM_SMALL" "$MEM_BIG" "${TRIAGE_PER_CORE:-0}" "${EXPLAIN_PER_CORE:-0}" "$OUT/readpath.json" <<'PY'
import json, sys
work, n, big, mem_small, mem_big, triage, explain_rate, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7]), sys.argv[8]
load = lambda name: json.load(open(f"{work}/{name}"))
sessions = {}
for s in ("stress", "healthy"):
    sessions[s] = {k: load(f"{s}-{k}.json") for k in ("zstd", "cat", "explain1", "explain2", "phases")}
    sessions[s]["fileBytes"] = int(open(f"{work}/{s}-bytes").read())

def table(header, rows):
    width = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(c).ljust(width[i]) if i == 0 else str(c).rjust(width[i]) for i, c in enumerate(r)))
    print()

for s, m in sessions.items():
    p, z = m["phases"], m["zstd"]
    raw = p["rawBytes"] / 1e6
    print(f"{s} session, {n:,} records ({raw:.0f} MB of JSON Lines, {m['fileBytes'] / 1e6:.1f} MB compressed), one core, best of runs:")
    rows = [("zstd -dc (same file, same run)", f"{z['cpu']:.3f}", f"{z['wall']:.3f}", f"{n / z['cpu']:,.0f}", f"{raw / z['cpu']:,.0f}")]
    for key, name in (("decompression", "decompression (libzstd alone)"), ("split", "split (frames, checksums, lines)"),
                      ("decode", "decode"), ("replay", "replay, no observer"), ("replayObserved", "replay with an observer"),
                      ("explanation", "explanation"), ("rendering", "rendering (--json)")):
        ph = p["phases"][key]
        cpu, wall = max(ph["cpuSeconds"], 0), max(ph["wallSeconds"], 0)
        rate = lambda x: f"{x:,.0f}" if cpu > 0.0005 else "-"
        rows.append((name, f"{cpu:.3f}", f"{wall:.3f}", rate(n / cpu if cpu else 0), rate(raw / cpu if cpu else 0)))
    table(("phase", "CPU s", "wall s", "records/s", "MB/s"), rows)

def ratio(a, b): return a / b if b else float("inf")
targets = []
for s, m in sessions.items():
    z = m["zstd"]
    targets += [
        (f"{s}: explain --json, 1 core, CPU", ratio(m["explain1"]["cpu"], z["cpu"]), "<=", 3.0),
        (f"{s}: explain --json, 1 core, wall", ratio(m["explain1"]["wall"], z["wall"]), "<=", 3.0),
        (f"{s}: explain --json, 2 cores, wall", ratio(m["explain2"]["wall"], z["wall"]), "<=", 2.0),
        (f"{s}: cat, CPU", ratio(m["cat"]["cpu"], z["cpu"]), "<=", 1.5),
        (f"{s}: cat, wall", ratio(m["cat"]["wall"], z["wall"]), "<=", 1.5),
    ]
targets.append((f"peak RSS explain, stress, {big:,} vs 100,000 records", ratio(mem_big, mem_small), "<=", 1.5))
if triage > 0 and explain_rate > 0:
    targets.append(("triage records/s per core vs explain's", ratio(triage, explain_rate), ">=", 0.95))
print("Against zstd -dc of the same file in the same run (ratios of the times above):")
table(("target", "measured", "target", "met"),
      [(name, f"{v:.2f}x", f"{op} {t}x", "yes" if (v <= t if op == "<=" else v >= t) else "NO") for name, v, op, t in targets])

r = load("ratchet.json")
if r.get("figures"):
    print("Counted figures (the ratchet of make test, benchmarks/budget.json):")
    table(("figure", "measured"), [(k, f"{v:.4g}") for k, v in sorted(r["figures"].items())])
    print("instructions, 50,000 stress records: " + ", ".join(f"{k} {v:,}" for k, v in r["instructions"].items()) + "\n")
else:
    print("counted figures: not measured (" + r.get("missing", "") + ")\n")
json.dump({"records": n, "sessions": sessions, "peakKiB": {"100000": mem_small, str(big): mem_big},
           "targets": [{"figure": a, "ratio": b, "op": c, "target": d} for a, b, c, d in targets], "counted": r},
          open(out, "w"), indent=2)
PY
