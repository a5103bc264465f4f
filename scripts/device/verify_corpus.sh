#!/usr/bin/env bash
# Runs the benchmark corpus on a GPU machine, original CUDA against translated HIP.
#
#   scripts/device/verify_corpus.sh build DIR     on the CPU machine: `gpuport verify --no-run`
#                                                   builds every program (nvcc 11.8, sm_90) and its
#                                                   HIP-on-NVIDIA translation, and packs both
#                                                   binaries of each into DIR/corpus-bins.tar.gz
#   scripts/device/verify_corpus.sh run DIR LOGS  on the GPU machine: unpacks DIR/corpus-bins.tar.gz,
#                                                   runs every pair (one at a time), writes each
#                                                   program's output to LOGS/, prints the table last
#
# The binaries link the CUDA runtime statically, so the GPU machine needs only its driver.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:-}
dir=${2:-}
[ -n "$mode" ] && [ -n "$dir" ] || { sed -n '2,14p' "$0"; exit 2; }

case "$mode" in
build)
  gpuport=${GPUPORT:-$here/build/bin/gpuport}
  [ -x "$gpuport" ] || { echo "verify_corpus: $gpuport not built (make build)" >&2; exit 2; }
  mkdir -p "$dir"
  work="$dir/work"
  "$gpuport" verify "$here/bench/corpus" --no-run -q --work "$work" --json "$dir/build-report.json" \
    --html "$dir/build-report.html" | tee "$dir/build-table.txt"
  status=${PIPESTATUS[0]}
  stage=$(mktemp -d)
  for prog in "$work"/*/*/; do
    domain=$(basename "$(dirname "$prog")"); name=$(basename "$prog")
    [ -x "$prog/original" ] && [ -x "$prog/translated-nvidia" ] || continue
    mkdir -p "$stage/$domain/$name"
    cp "$prog/original" "$prog/translated-nvidia" "$stage/$domain/$name/"
  done
  tar -C "$stage" -czf "$dir/corpus-bins.tar.gz" .
  rm -rf "$stage"
  echo "verify_corpus: packed $(tar -tzf "$dir/corpus-bins.tar.gz" | grep -c '/original$') programs into $dir/corpus-bins.tar.gz ($(du -h "$dir/corpus-bins.tar.gz" | cut -f1))"
  exit "$status"
  ;;
run)
  logs=${3:?usage: verify_corpus.sh run DIR LOGS}
  mkdir -p "$logs"
  bins=$(mktemp -d)
  tar -C "$bins" -xzf "$dir/corpus-bins.tar.gz" || { echo "verify_corpus: cannot unpack $dir/corpus-bins.tar.gz" >&2; exit 2; }
  timeout_s=${VERIFY_TIMEOUT:-120}
  if command -v nvidia-smi >/dev/null; then nvidia-smi -L > "$logs/gpu.txt" 2>&1; else echo "nvidia-smi not found" > "$logs/gpu.txt"; fi
  table="$logs/table.txt"
  : > "$table"
  pass=0; total=0
  # result FILE -> "PASS 1.234" / "FAIL 2.0" / "none -" from the RESULT line and exit status
  result() {
    local line verdict ms
    if [ "$2" -eq 124 ]; then echo "TIMEOUT -"; return; fi
    if [ "$2" -gt 128 ]; then echo "CRASH-signal-$(($2 - 128)) -"; return; fi
    line=$(grep '^RESULT ' "$1" | tail -1)
    if [ -z "$line" ]; then echo "no-RESULT -"; return; fi
    verdict=$(echo "$line" | awk '{print $3}')
    ms=$(echo "$line" | sed -n 's/.*gpu_ms=\([0-9.eE+-]*\).*/\1/p')
    [ "$2" -eq 0 ] || { [ "$verdict" = PASS ] && verdict="PASS-but-exit-$2"; }
    echo "$verdict ${ms:--}"
  }
  for prog in "$bins"/*/*/; do
    domain=$(basename "$(dirname "$prog")"); name=$(basename "$prog")
    total=$((total + 1))
    timeout "$timeout_s" "$prog/original" > "$logs/$domain.$name.original.log" 2>&1; o_rc=$?
    timeout "$timeout_s" "$prog/translated-nvidia" > "$logs/$domain.$name.hip.log" 2>&1; h_rc=$?
    read -r o_verdict o_ms <<< "$(result "$logs/$domain.$name.original.log" $o_rc)"
    read -r h_verdict h_ms <<< "$(result "$logs/$domain.$name.hip.log" $h_rc)"
    ratio=-
    if [ "$o_ms" != - ] && [ "$h_ms" != - ]; then
      ratio=$(awk -v a="$h_ms" -v b="$o_ms" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    fi
    [ "$o_verdict" = PASS ] && [ "$h_verdict" = PASS ] && pass=$((pass + 1))
    printf '%-40s %-10s %10s %-10s %10s %6s\n' "$domain/$name" "$o_verdict" "$o_ms" "$h_verdict" "$h_ms" "$ratio" >> "$table"
  done
  rm -rf "$bins"
  {
    echo "GPU: $(head -1 "$logs/gpu.txt")"
    printf '%-40s %-10s %10s %-10s %10s %6s\n' "program" "CUDA" "gpu_ms" "HIP" "gpu_ms" "ratio"
    cat "$table"
    echo "passed (both CUDA and HIP): $pass of $total"
  } > "$logs/summary.txt"
  cat "$logs/summary.txt"
  [ "$pass" -eq "$total" ]
  ;;
*)
  sed -n '2,14p' "$0"; exit 2 ;;
esac
