#!/usr/bin/env bash
# The device-side recorder's figures (docs/recorder.md), each beside its baseline from the same run: the
# caller's cost against a locked array append (median, p99, p99.9, maximum; 1 thread, 4 threads, and 4
# threads with as many more threads spinning as there are cores), how old a record gets before it is in the file and what
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

CORES=$(nproc 2>/dev/null || echo 2)
say "recorder: caller cost, 1 thread"
REC_CALLER1=$($BENCH recorder-caller 1 100000 20000 "$WORK/rec-caller1")
say "recorder: caller cost, 4 threads"
REC_CALLER=$($BENCH recorder-caller 4 100000 20000 "$WORK/rec-caller")
say "recorder: caller cost, 4 threads, $CORES more spinning"
REC_CALLER_OVER=$($BENCH recorder-caller 4 100000 20000 "$WORK/rec-caller-over" "$CORES")
rm -rf "$WORK"/rec-caller*
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
  "$REC_AGE5" "$REC_AGE50" "$REC_KILL5" "$REC_KILL50" "$REC_CALLER1" "$REC_CALLER_OVER" <<PY
import json, sys
rc, rh = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rc1, rco = json.loads(sys.argv[12]), json.loads(sys.argv[13])
rsweep = [json.loads(x) for x in sys.argv[3].replace('} {', '}\n{').split('\n') if x.strip()]
rt, rfs, rfb, rf0 = (json.loads(sys.argv[i]) for i in (4, 5, 6, 7))
a5, a50, k5, k50 = (json.loads(sys.argv[i]) for i in (8, 9, 10, 11))
rec_z19, rec_sweep_z19 = $REC_HOUR_Z19, $REC_SWEEP_Z19
rows = []
def caller(c, what):
    ns = lambda v: f"{v:,.0f} ns"
    rows.append((f"recorder: record(), {what}, median", ns(c['medianNs']), f"locked array append: {ns(c['baselineMedianNs'])}", f"{c['medianRatio']:.2f}x (a clock reading: {c['clockReadMedianNs']:.0f} ns)"))
    rows.append(("  beside a locked append that also reads the clock", ns(c['medianNs']), f"median {ns(c['stampedMedianNs'])}, p99.9 {ns(c['stampedP999Ns'])}", f"{c['stampedMedianRatio']:.2f}x"))
    rows.append(("  p99 / p99.9", f"{ns(c['p99Ns'])} / {ns(c['p999Ns'])}", f"{ns(c['baselineP99Ns'])} / {ns(c['baselineP999Ns'])}", f"{c['p99Ratio']:.2f}x / {c['p999Ratio']:.2f}x"))
    rows.append(("  max", ns(c['maxNs']), ns(c['baselineMaxNs']), f"{c['maxRatio']:.2f}x; {c['written']:,} written, {c['dropped']:,} dropped"))
    rows.append(("  real-time producer, median / p99.9", f"{ns(c['realtimeMedianNs'])} / {ns(c['realtimeP999Ns'])}", f"{ns(c['baselineMedianNs'])} / {ns(c['baselineP999Ns'])}",
                 f"{c['realtimeMedianRatio']:.2f}x / {c['realtimeP999Ratio']:.2f}x, {c['realtimeDropped']:,} dropped"))
caller(rc1, "1 thread")
caller(rc, "4 threads")
caller(rco, f"4 threads + {rco['busy']} spinning ({rco['cores']} cores)")
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
out = {"caller": rc, "callerOneThread": rc1, "callerOversubscribed": rco, "age": {"5": a5, "50": a50}, "sigkill": {"5": k5, "50": k50}, "hour": rh, "hourZstd19Bytes": rec_z19,
       "frameSweep5PerSec": rsweep, "frameSweepZstd19Bytes": rec_sweep_z19, "realtime": rt,
       "flood": {"1000": rf0, "200000": rfs, "2000000": rfb}}
json.dump(out, open("bench-results/recorder.json", "w"), indent=2)
print("\nwritten: bench-results/recorder.json")
PY
