#!/usr/bin/env bash
# Seeds fuzz/corpus/{frames,decoder,replay} from the bundled traces in traces/.
#   frames:  every trace as stored, plus each plain trace compressed by stock zstd (one frame)
#            and by rtctrace's own writer layout is covered by the .zst traces.
#   decoder: one file per distinct record type, holding the first line of that type.
#   replay:  every trace as stored (small ones only; the fuzzer caps input size anyway).
# Regression inputs in fuzz/regressions/ join every corpus.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
traces="$here/../traces"
out="$here/corpus"
mkdir -p "$out/frames" "$out/decoder" "$out/replay" "$out/limits"
for t in "$traces"/*.jsonl "$traces"/*.zst; do
  name="$(basename "$t")"
  cp "$t" "$out/frames/$name"
  size=$(stat -c %s "$t")
  if [ "$size" -le 65536 ]; then cp "$t" "$out/replay/$name"; fi
  # limits: a control byte (which boundary value, which numbers) before each small plain trace.
  case "$t" in *.jsonl) [ "$size" -le 65536 ] && for c in 0 2 5 19 37; do { printf "\\$(printf %o $c)"; cat "$t"; } > "$out/limits/$c-$name"; done ;; esac
  case "$t" in
    *.jsonl)
      zstd -q -3 -c "$t" > "$out/frames/$name.zst"
      [ "$size" -le 65536 ] && zstd -q -3 -c "$t" > "$out/replay/$name.zst"
      ;;
  esac
done
# One decoder seed per record type (plain traces only).
cat "$traces"/*.jsonl | python3 -c '
import sys, json, os, hashlib
seen = {}
for line in sys.stdin:
    try: t = json.loads(line).get("type")
    except Exception: continue
    if t not in seen: seen[t] = line
for t, line in seen.items():
    name = hashlib.sha1(line.encode()).hexdigest()[:16]
    open(os.path.join(sys.argv[1], t.replace("/", "_") + "-" + name), "w").write(line)
' "$out/decoder"
if compgen -G "$here/regressions/*" > /dev/null; then
  for d in frames decoder replay; do cp "$here"/regressions/* "$out/$d/"; done
fi
echo "corpus: $(ls "$out/frames" | wc -l) frames, $(ls "$out/decoder" | wc -l) decoder, $(ls "$out/replay" | wc -l) replay inputs"
