#!/usr/bin/env bash
# make bench, the what-if section: one what-if against explain --json of the same trace, and triage
# --whatif against plain triage of the same fleet, each pair measured here, now, best of three on one
# core; a table and bench-results/whatif.json. WHATIF_RECORDS (default 1,000,000) sizes the trace.
source "$(dirname "$0")/common.sh"

secs() { local s e; s=$(date +%s%N); bash -c "$1" >/dev/null 2>&1 || true; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
best() { local b=999999999999 t; for _ in $(seq "${2:-3}"); do t=$(secs "$1"); [ "$t" -lt "$b" ] && b=$t; done; echo "$b"; }

M=${WHATIF_RECORDS:-1000000}
say "what-if: $M records"
$BENCH synth "$M" "$WORK/w.trace.zst" >/dev/null
# Edits that change the trace throughout (no headset ever connects, the session's mode changes), so the
# edited replay decides other verdicts and routes all along: a whole replay of its own.
echo '[{"edit":"drop-type","type":"os.deviceConnected"},{"edit":"mode","value":"default"}]' > "$WORK/edits.json"
EXPLAIN=$(best "taskset -c 0 $BIN explain --json $WORK/w.trace.zst > /dev/null")
WHATIF=$(best "taskset -c 0 $BIN whatif $WORK/w.trace.zst --edits $WORK/edits.json --json > /dev/null")
$BIN whatif "$WORK/w.trace.zst" --edits "$WORK/edits.json" --json > "$WORK/whatif.json" 2>/dev/null || true
CHANGED=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(e['changed'] for e in d['edits']))" "$WORK/whatif.json")
say "what-if: triage of 200 traces of 10,000 records"
mkdir -p "$WORK/wfleet10" "$WORK/wfleet"
$BENCH fleet 10 10000 "$WORK/wfleet10" >/dev/null
for f in "$WORK"/wfleet10/*.trace.zst; do
  for i in $(seq -w 1 20); do ln "$f" "$WORK/wfleet/$(basename "$f" .trace.zst)-$i.trace.zst"; done
done
TRIAGE=$(best "taskset -c 0 $BIN triage $WORK/wfleet --jobs 1 > /dev/null")
TRIAGE_W=$(best "taskset -c 0 $BIN triage $WORK/wfleet --jobs 1 --whatif $WORK/edits.json > /dev/null")
say ""

python3 - "$M" "$EXPLAIN" "$WHATIF" "$TRIAGE" "$TRIAGE_W" "$CHANGED" <<'PY'
import json, sys
m, explain, whatif, triage, triage_w, changed = (float(x) for x in sys.argv[1:7])
explain, whatif, triage, triage_w = explain / 1e6, whatif / 1e6, triage / 1e6, triage_w / 1e6
rows = [
  (f"whatif --json, {int(m):,} records, 1 core", f"{whatif:.2f} s", f"explain --json: {explain:.2f} s", f"{whatif/explain:.2f}x (target <= 2)"),
  ("triage --whatif, 200 x 10,000 rec, 1 core", f"{triage_w:.2f} s", f"triage: {triage:.2f} s", f"{triage_w/triage:.2f}x (target <= 2.2)"),
]
width = [max(len(str(r[i])) for r in rows) for i in range(3)]
print(f"{'what-if figure':<{width[0]}}  {'measured':<{width[1]}}  {'baseline (same run)':<{width[2]}}  ratio")
for r in rows: print("  ".join(f"{str(c):<{width[i]}}" for i, c in enumerate(r[:3])) + "  " + r[3])
json.dump({"records": int(m), "editsThatChanged": int(changed), "explainSeconds": explain, "whatifSeconds": whatif,
           "whatifRatio": whatif / explain, "triageTraces": 200, "triageSeconds": triage, "triageWhatifSeconds": triage_w,
           "triageWhatifRatio": triage_w / triage}, open("bench-results/whatif.json", "w"), indent=2)
print()
PY
