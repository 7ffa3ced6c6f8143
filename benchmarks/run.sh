#!/usr/bin/env bash
# make bench: every performance figure with its baseline, measured in the same run, as one table
# and as JSON (bench-results/latest.json). Ratios are against baselines run here, now, on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/rtctrace
BENCH=.build/release/rtctrace-bench
OUT=bench-results
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
N=${BENCH_RECORDS:-1000000}
SMALL=$((N / 10))
export LC_ALL=C

json() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); python3 -c "print($e - $s)"; }
best() { # best of 3 wall-clock seconds of a shell command
  local b=""; for _ in 1 2 3; do local t; t=$(secs bash -c "$1"); b=$(python3 -c "print(min(float('${b:-1e9}'), $t))"); done; echo "$b"; }
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m), $(swift --version 2>/dev/null | head -1)"
echo "records: $N (synthetic session: quality reports, speaker updates, SDK events, some route records)"

W=$($BENCH synth "$N" "$WORK/big.trace.zst")
$BENCH synth "$SMALL" "$WORK/small.trace.zst" >/dev/null
R=$($BENCH read "$WORK/big.trace.zst")
P=$($BENCH parse "$WORK/big.trace.zst" 200000)
ZSTD_DC=$(best "zstd -dc $WORK/big.trace.zst > /dev/null")
READ_CAT=$(best "$BIN cat $WORK/big.trace.zst > /dev/null")
zstd -dc "$WORK/big.trace.zst" > "$WORK/big.jsonl"
zstd -q -19 -T1 "$WORK/big.jsonl" -o "$WORK/big.z19"
Z19=$(stat -c %s "$WORK/big.z19")
MEM_SMALL=$(peak_kb $BIN info "$WORK/small.trace.zst")
MEM_BIG=$(peak_kb $BIN info "$WORK/big.trace.zst")
$BENCH synth 100000 "$WORK/e100k.trace.zst" >/dev/null
EXPLAIN_100K=$(best "$BIN explain --json $WORK/e100k.trace.zst > /dev/null || true")

python3 - "$W" "$R" "$P" "$ZSTD_DC" "$READ_CAT" "$Z19" "$N" "$MEM_SMALL" "$MEM_BIG" "$SMALL" "$EXPLAIN_100K" <<'PY'
import json, sys
w, r, p = (json.loads(a) for a in sys.argv[1:4])
zstd_dc, read_cat, z19, n, mem_s, mem_b, small, explain = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9]), int(sys.argv[10]), float(sys.argv[11])
rows = [
  ("write: TraceWriter.append", f"{w['recordsPerSec']:,.0f} rec/s", "", ""),
  ("write: compressed bytes/record", f"{w['bytesPerRecord']:.2f} B", f"zstd -19 whole file: {z19/n:.2f} B", f"{w['bytes']/z19:.2f}x"),
  ("read+decode (1 core)", f"{r['recordsPerSec']:,.0f} rec/s", f"JSONDecoder decode only: {p['jsonDecoderRecordsPerSec']:,.0f} rec/s", f"{r['recordsPerSec']/p['jsonDecoderRecordsPerSec']:.1f}x"),
  ("parse only, same lines", f"{p['fastRecordsPerSec']:,.0f} rec/s", f"JSONDecoder: {p['jsonDecoderRecordsPerSec']:,.0f} rec/s", f"{p['ratio']:.1f}x"),
  ("rtctrace cat > /dev/null", f"{read_cat:.2f} s", f"zstd -dc > /dev/null: {zstd_dc:.2f} s", f"{read_cat/zstd_dc:.1f}x"),
  (f"peak RSS reading (info), {small:,} vs {n:,} rec", f"{mem_b/1024:.1f} MiB", f"{small:,} rec: {mem_s/1024:.1f} MiB", f"{mem_b/mem_s:.2f}x"),
  ("explain --json, 100,000 records", f"{explain:.2f} s", "target: < 2 s", ""),
]
width = [max(len(str(row[i])) for row in rows) for i in range(4)]
print()
print(f"{'figure':<{width[0]}}  {'measured':<{width[1]}}  {'baseline (same run)':<{width[2]}}  ratio")
for row in rows: print("  ".join(f"{str(c):<{width[i]}}" for i, c in enumerate(row)))
out = {"records": n, "write": w, "read": r, "parse": p, "zstdDcSeconds": zstd_dc, "catSeconds": read_cat,
       "zstd19BytesPerRecord": z19 / n, "peakKiB": {str(small): mem_s, str(n): mem_b}, "explain100kSeconds": explain}
json.dump(out, open("bench-results/latest.json", "w"), indent=2)
print("\nwritten: bench-results/latest.json")
PY
