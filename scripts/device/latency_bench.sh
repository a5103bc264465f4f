#!/usr/bin/env bash
# Runs the SASS latency microbenchmark on a GPU machine and keeps its output.
#
#   scripts/device/latency_bench.sh EXECUTABLE
#
# EXECUTABLE is what `gpuport latency-bench --out DIR` built on the CPU machine (DIR/latency_bench,
# nvcc 11.8 for sm_90; it links the CUDA runtime statically, so the GPU machine needs only its
# driver). Carry DIR with the run (e.g. `--out build/latency-bench`, carry build/latency-bench).
# The output goes to $OUT/latency_bench.out ($OUT defaults to ./latency-bench-out) and to stdout:
# the LATBENCH lines are the table (op, kind, cycles per link, links). nvidia-smi's view of the GPU
# and its clocks goes to $OUT/gpu.txt. LATBENCH_TIMEOUT (default 300 s) bounds the run. Exit status:
# the executable's (124: timed out). Back on the CPU machine:
#   gpuport latency-bench --from-output OUT/latency_bench.out --write-overrides data/tune/latency-sm_90.tsv
set -uo pipefail
exe=${1:-}
[ -n "$exe" ] || { sed -n '2,13p' "$0"; exit 2; }
[ -x "$exe" ] || { echo "latency_bench: $exe is not an executable" >&2; exit 2; }
out=${OUT:-$PWD/latency-bench-out}
mkdir -p "$out"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$out/gpu.txt" 2>&1
else
  echo "nvidia-smi not found" > "$out/gpu.txt"
fi
timeout "${LATBENCH_TIMEOUT:-300}" "$exe" > "$out/latency_bench.out" 2> "$out/latency_bench.err"
status=$?
cat "$out/latency_bench.out"
[ -s "$out/latency_bench.err" ] && { echo "--- stderr:"; cat "$out/latency_bench.err"; }
echo "latency_bench: exit status $status; output in $out/latency_bench.out ($(grep -c '^LATBENCH op=' "$out/latency_bench.out") measurements)"
exit "$status"
