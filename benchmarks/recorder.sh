#!/usr/bin/env bash
# The device-side recorder's figures (docs/recorder.md), each beside its baseline from the same run: the
# caller's cost against a locked array append, how old a record gets before it is in the file and what
# SIGKILL loses (default configuration, irregular arrivals at 5 and 50 records/s), the writer's CPU and
# bytes per hour against zstd -19 of the same records, and the memory the queue cap bounds.
# Run by benchmarks/run.sh (make bench), or alone: make bench-recorder. Writes bench-results/recorder.json.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=benchmarks/.build/release/rtctrace-bench
OUT=bench-results
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
export LC_ALL=C
say() { [ -t 2 ] && printf '\r\033[K%s' "$*" >&2 || true; }
KILL_RUNS=${KILL_RUNS:-8}

say "recorder: caller cost"
REC_CALLER=$($BENCH recorder-caller 4 100000 20000 "$WORK/rec-caller")
rm -rf "$WORK/rec-caller"
say "recorder: age of unwritten records, 5 and 50 records/s"
REC_AGE5=$($BENCH recorder-age 5 60 "$WORK/rec-age5")
REC_AGE50=$($BENCH recorder-age 50 30 "$WORK/rec-age50")
say "recorder: SIGKILL, $KILL_RUNS runs at 5 and at 50 records/s"
REC_KILL5=$($BENCH recorder-kill 5 "$KILL_RUNS" "$WORK/rec-kill5")
REC_KILL50=$($BENCH recorder-kill 50 "$KILL_RUNS" "$WORK/rec-kill50")
z19_of() { cat "$1"/outbox/*.trace.zst | zstd -dc | zstd -q -19 -T1 -c | wc -c; }
say "recorder: simulated hours"
REC_HOUR=$($BENCH recorder-hour 50 3600 "$WORK/rec-hour")
REC_HOUR_Z19=$(z19_of "$WORK/rec-hour")
REC_SWEEP=""
for f in 1000 2000 5000 10000 30000; do
  rm -rf "$WORK/rec-sweep"
  REC_SWEEP="$REC_SWEEP $($BENCH recorder-hour 5 3600 "$WORK/rec-sweep" "$f" | sed "s/^{/{\"frameMs\":$f,/")"
done
REC_SWEEP_Z19=$(z19_of "$WORK/rec-sweep")
rm -rf "$WORK/rec-hour" "$WORK/rec-sweep"
say "recorder: 20 s in real time"
REC_RT=$($BENCH recorder-realtime 50 20 "$WORK/rec-rt")
say "recorder: memory"
REC_FLOOD_S=$($BENCH recorder-flood 200000 "$WORK/rec-flood-s")
REC_FLOOD_B=$($BENCH recorder-flood 2000000 "$WORK/rec-flood-b")
REC_FLOOD_0=$($BENCH recorder-flood 1000 "$WORK/rec-flood-0")
rm -rf "$WORK"/rec-*
say ""

python3 - "$REC_CALLER" "$REC_HOUR" "$REC_SWEEP" "$REC_RT" "$REC_FLOOD_S" "$REC_FLOOD_B" "$REC_FLOOD_0" \
  "$REC_AGE5" "$REC_AGE50" "$REC_KILL5" "$REC_KILL50" <<PY
import json, sys
rc, rh = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rsweep = [json.loads(x) for x in sys.argv[3].replace('} {', '}\n{').split('\n') if x.strip()]
rt, rfs, rfb, rf0 = (json.loads(sys.argv[i]) for i in (4, 5, 6, 7))
a5, a50, k5, k50 = (json.loads(sys.argv[i]) for i in (8, 9, 10, 11))
rec_z19, rec_sweep_z19 = $REC_HOUR_Z19, $REC_SWEEP_Z19
rows = []
rows.append(("recorder: record(), 4 threads, median", f"{rc['medianNs']:.0f} ns", f"locked array append: {rc['baselineMedianNs']:.0f} ns", f"{rc['medianRatio']:.2f}x (before: 1.12x)"))
rows.append(("recorder: record(), 4 threads, p99", f"{rc['p99Ns']:.0f} ns", f"locked array append: {rc['baselineP99Ns']:.0f} ns", f"{rc['p99Ratio']:.2f}x (before: 0.43x)"))
rows.append(("  writer during it", f"{rc['written']:,} written, {rc['dropped']:,} dropped", f"{rc['frames']:,} frames", ""))
rows.append(("recorder: real-time producer, median", f"{rc['realtimeMedianNs']:.0f} ns", f"locked array append: {rc['baselineMedianNs']:.0f} ns", f"{rc['realtimeMedianRatio']:.2f}x"))
rows.append(("recorder: real-time producer, p99", f"{rc['realtimeP99Ns']:.0f} ns", f"locked array append: {rc['baselineP99Ns']:.0f} ns", f"{rc['realtimeP99Ratio']:.2f}x, {rc['realtimeDropped']:,} dropped (lock busy)"))
for a in (a5, a50):
    rows.append((f"recorder: worst age unwritten, {a['rate']} rec/s", f"{a['worstAgeMs']:,.0f} ms", f"frame interval: {a['frameIntervalMs']:,} ms",
                 f"{'<=' if a['worstAgeMs'] <= a['frameIntervalMs'] else '>'} interval; p99 {a['p99AgeMs']:,.0f} ms, median {a['medianAgeMs']:,.0f} ms, {a['records']:,} records"))
for k in (k5, k50):
    rows.append((f"recorder: SIGKILL at {k['rate']} rec/s, {k['runs']} runs", f"lost {k['lostRecordsMedian']} records / {k['lostSecondsMedian']:.2f} s median",
                 f"max {k['lostRecordsMax']} / {k['lostSecondsMax']:.2f} s", f"of ~{k['recordsMadeMedian']} made"))
rows.append(("recorder: writer CPU, 50 rec/s real time", f"{rt['writerCpuSeconds']*3600/rt['seconds']:.2f} s/h", f"{rt['wakeups']} wake-ups in {rt['seconds']} s", f"{rt['writerCpuSeconds']/rt['seconds']*100:.3f}% of a core"))
rows.append(("recorder: writer CPU, simulated hour at 50 rec/s", f"{rh['writerCpuSeconds']:.2f} s/h", f"{rh['frames']:,} frames, {rh['syncs']} syncs", f"{rh['writerCpuSeconds']/3600*100:.3f}% of a core"))
rows.append(("recorder: bytes per hour at 50 rec/s", f"{rh['bytes']/1e6:.2f} MB", f"zstd -19 same records: {rec_z19/1e6:.2f} MB", f"{rh['bytes']/rec_z19:.2f}x"))
for x in rsweep:
    rows.append((f"  5 rec/s, frames of {x['frameMs']/1000:g} s", f"{x['bytes']/1e3:,.0f} kB/h", f"zstd -19: {rec_sweep_z19/1e3:,.0f} kB/h", f"{x['bytes']/rec_sweep_z19:.2f}x"))
rows.append(("recorder: peak RSS, 2,000,000 offered", f"{rfb['peakRssKiB']/1024:.1f} MiB", f"200,000 offered: {rfs['peakRssKiB']/1024:.1f} MiB", f"{rfb['peakRssKiB']/rfs['peakRssKiB']:.2f}x"))
rows.append(("  before the recorder; 1,000 records", f"{rfb['rssBeforeKiB']/1024:.1f} MiB", f"1,000 offered: {rf0['peakRssKiB']/1024:.1f} MiB", f"queue peak {rfb['peakQueuedBytes']/1024:.0f} KiB est."))
width = [max(len(str(row[i])) for row in rows) for i in range(3)]
print(f"{'recorder figure':<{width[0]}}  {'measured':<{width[1]}}  {'baseline (same run)':<{width[2]}}  ratio")
for row in rows: print("  ".join(f"{str(c):<{width[i]}}" for i, c in enumerate(row[:3])) + "  " + row[3])
out = {"caller": rc, "age": {"5": a5, "50": a50}, "sigkill": {"5": k5, "50": k50}, "hour": rh, "hourZstd19Bytes": rec_z19,
       "frameSweep5PerSec": rsweep, "frameSweepZstd19Bytes": rec_sweep_z19, "realtime": rt,
       "flood": {"1000": rf0, "200000": rfs, "2000000": rfb}}
json.dump(out, open("bench-results/recorder.json", "w"), indent=2)
print("\nwritten: bench-results/recorder.json")
PY
