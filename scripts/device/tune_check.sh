#!/usr/bin/env bash
# Measures prepared `gpuport tune` candidates on a GPU machine (run from the repository root).
#
#   scripts/device/tune_check.sh [ROOT]     ROOT (default tune-work) holds one prepared folder per
#                                           kernel, made on the CPU machine; each has
#     program          the user's CUDA program linked with src/tune/device/capture.cc
#     capture.env      KEY=VALUE lines for it (GPUPORT_TUNE_CAPTURE, GPUPORT_TUNE_KERNEL, ...)
#     program.args     its command-line arguments, one a line (optional)
#     tune-harness     build/bin/gpuport-tune-harness
#     harness.args     its arguments, one a line, paths relative to the folder
#     *.cubin          the original and the candidates
#
# For each folder: runs ./program with capture.env (that writes the capture), then ./tune-harness
# with harness.args, both inside the folder and under `timeout`; keeps going when one fails.
# Logs and measurements.tsv go to $OUT/<folder>/ ($OUT defaults to ./tune-check-out); the table
# comes last. Timeouts: TUNE_PROGRAM_TIMEOUT (default 120 s), TUNE_HARNESS_TIMEOUT (default 420 s).
set -uo pipefail
root=${1:-tune-work}
out=${OUT:-$PWD/tune-check-out}
program_timeout=${TUNE_PROGRAM_TIMEOUT:-120}
harness_timeout=${TUNE_HARNESS_TIMEOUT:-420}
[ -d "$root" ] || { echo "tune_check: $root is not a folder" >&2; sed -n '2,17p' "$0"; exit 2; }
mkdir -p "$out"
if command -v nvidia-smi >/dev/null; then nvidia-smi -L > "$out/gpu.txt" 2>&1; else echo "nvidia-smi not found" > "$out/gpu.txt"; fi

# outcome RC -> "TIMEOUT" / "CRASH-signal-N" / "exit-N" / "ok"
outcome() {
  if [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then echo TIMEOUT
  elif [ "$1" -gt 128 ]; then echo "CRASH-signal-$(($1 - 128))"
  elif [ "$1" -ne 0 ]; then echo "exit-$1"
  else echo ok; fi
}

# The value of OPTION in a harness.args file, or DEFAULT.
arg_value() {
  awk -v opt="$2" -v def="$3" 'BEGIN { v = def } { sub(/\r$/, "") } prev == opt { v = $0 } { prev = $0 } END { print v }' "$1"
}

table="$out/table.txt"
: > "$table"
failures=0; total=0
for dir in "$root"/*/; do
  [ -d "$dir" ] || continue
  dir=${dir%/}
  name=$(basename "$dir")
  logs="$out/$name"
  mkdir -p "$logs"
  total=$((total + 1))
  program=missing capture=no harness=not-run orig=- best=- best_id=- gain=-

  # 1. The program, capturing the launch.
  if [ -f "$dir/program" ] && [ -f "$dir/capture.env" ]; then
    chmod +x "$dir/program" 2>/dev/null
    # shellcheck source=/dev/null
    # program.args (optional): the program's own arguments, one a line.
    run_args=()
    [ -f "$dir/program.args" ] && mapfile -t run_args < "$dir/program.args"
    (cd "$dir" && set -a && . ./capture.env && set +a && exec timeout "$program_timeout" ./program "${run_args[@]}") \
      > "$logs/program.log" 2>&1
    rc=$?
    program=$(outcome $rc)
    if [ "$program" = ok ]; then
      if grep -qw PASS "$logs/program.log"; then program=PASS; else program=FAIL; fi
    fi
    capture_file=$(sed -n 's/^GPUPORT_TUNE_CAPTURE=//p' "$dir/capture.env" | tail -1 | tr -d '\r"'"'")
    if grep -q '^GPUPORT_TUNE capture: ' "$logs/program.log" && [ -n "$capture_file" ] &&
       (cd "$dir" && [ -s "$capture_file" ]); then
      capture=ok
    elif grep -q '^GPUPORT_TUNE capture error: ' "$logs/program.log"; then
      capture=error
    fi
  else
    echo "tune_check: $dir lacks program or capture.env" > "$logs/program.log"
  fi

  # 2. The harness, on the capture.
  if [ "$capture" = ok ] && [ -f "$dir/tune-harness" ] && [ -f "$dir/harness.args" ]; then
    chmod +x "$dir/tune-harness" 2>/dev/null
    args=()
    while IFS= read -r line || [ -n "$line" ]; do
      line=${line%$'\r'}
      [ -n "$line" ] && args+=("$line")
    done < "$dir/harness.args"
    (cd "$dir" && exec timeout "$harness_timeout" ./tune-harness "${args[@]}") \
      > "$logs/harness.out" 2> "$logs/harness.err"
    rc=$?
    harness=$(outcome $rc)
    [ $rc -eq 4 ] && harness=replay-mismatch
    [ $rc -eq 3 ] && harness=no-device
    tsv=$(arg_value "$dir/harness.args" --out measurements.tsv)
    hlog=$(arg_value "$dir/harness.args" --log "")
    [ -n "$hlog" ] && [ -f "$dir/$hlog" ] && cp "$dir/$hlog" "$logs/harness.log"
    if [ -f "$dir/$tsv" ]; then
      cp "$dir/$tsv" "$logs/measurements.tsv"
      read -r orig best best_id gain <<< "$(awk -F'\t' '
        NR == 1 { next }
        $1 == "original" && $3 == "ok" { orig = $4 }
        $1 != "original" && $3 == "ok" && $4 != "-" && (best == "" || $4 + 0 < best + 0) { best = $4; id = $1 }
        END {
          g = "-"
          if (orig != "" && best != "" && orig + 0 > 0) g = sprintf("%+.2f", (orig - best) / orig * 100)
          printf "%s %s %s %s\n", (orig == "" ? "-" : orig), (best == "" ? "-" : best), (id == "" ? "-" : id), g
        }' "$logs/measurements.tsv")"
    fi
  fi

  [ "$harness" = ok ] || failures=$((failures + 1))
  printf '%-32s %-16s %-8s %-16s %12s %12s %-16s %8s\n' "$name" "$program" "$capture" "$harness" "$orig" "$best" \
    "$best_id" "$gain" >> "$table"
done

{
  echo "GPU: $(head -1 "$out/gpu.txt")"
  printf '%-32s %-16s %-8s %-16s %12s %12s %-16s %8s\n' "dir" "program" "capture" "harness" "original_us" "best_us" \
    "best" "gain_%"
  cat "$table"
  echo "measured (harness exit 0): $((total - failures)) of $total"
} > "$out/summary.txt"
cat "$out/summary.txt"
[ "$total" -gt 0 ] && [ "$failures" -eq 0 ]
