#!/usr/bin/env bash
# Regenerates every golden trace in traces/ (deterministic) and compresses the ones kept as zstd.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
here="$(cd "$(dirname "$0")" && pwd)"
out="$(dirname "$here")"
python3 "$here/make_traces.py"
python3 "$here/long_meeting.py" "$out"
python3 "$here/v2_traces.py"
cd "$out"
# single-frame zstd, stock command
for n in smeeting-long-meeting-45min smeeting-quality-flapping smeeting-field-service-10min srtc-device-limit; do
  zstd -q -f -19 "$n.jsonl" -o "$n.jsonl.zst" && rm "$n.jsonl"
done
# .trace.zst naming
zstd -q -f -19 srtc-layer-switch-not-confirmed.jsonl -o srtc-layer-switch-not-confirmed.trace.zst
rm srtc-layer-switch-not-confirmed.jsonl
# multi-frame: two halves compressed separately and concatenated
n=srtc-long-call-20min
half=$(( $(wc -l < "$n.jsonl") / 2 ))
head -n "$half" "$n.jsonl" > "/tmp/$n.part1"
tail -n +"$((half + 1))" "$n.jsonl" > "/tmp/$n.part2"
zstd -q -f -19 "/tmp/$n.part1" -o "/tmp/$n.part1.zst"
zstd -q -f -19 "/tmp/$n.part2" -o "/tmp/$n.part2.zst"
cat "/tmp/$n.part1.zst" "/tmp/$n.part2.zst" > "$n.jsonl.zst"
rm -f "/tmp/$n.part1" "/tmp/$n.part2" "/tmp/$n.part1.zst" "/tmp/$n.part2.zst" "$n.jsonl"
python3 "$here/readme.py"
echo "traces: $(ls "$out" | grep -cE '\.(jsonl|jsonl\.zst|trace\.zst)$')"
