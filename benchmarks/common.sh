# Sourced by benchmarks/run.sh and benchmarks/readpath.sh: the binaries, the results folder, a scratch
# folder removed at exit, the sizes of the runs, and progress on stderr when it is a terminal.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=.build/release/rtctrace
BENCH=benchmarks/.build/release/rtctrace-bench
OUT=bench-results
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
N=${BENCH_RECORDS:-1000000}
BIG=${MEM_RECORDS:-10000000}
export LC_ALL=C
say() { [ -t 2 ] && printf '\r\033[K%s' "$*" >&2 || true; }
peak_kb() { /usr/bin/time -f %M -o "$WORK/mem" "$@" >/dev/null 2>&1 || true; tail -1 "$WORK/mem"; }
