#!/usr/bin/env bash
# Runs every original corpus program under NVIDIA's compute-sanitizer (memcheck, then racecheck)
# on a GPU machine, several programs at a time.
#
#   scripts/device/sanitize_corpus.sh DIR LOGS [JOBS]
#
# DIR/corpus-bins.tar.gz is what `scripts/device/verify_corpus.sh build DIR` packs. Each
# program's sanitizer output goes to LOGS/<domain>.<name>.<tool>.log; LOGS/results.txt holds one
# line per program and tool: "<domain>/<name> <tool> <exit status>" (0 clean, 99 errors found,
# 124 timed out). The summary is printed last; the exit status is 0 when every run was clean.
# SANITIZE_TOOLS (default "memcheck racecheck") picks the tools, SANITIZE_TIMEOUT (default 150)
# the seconds per program and tool; racecheck is slow on programs with much shared memory.
# SANITIZE_PROGRAMS="domain/name ..." restricts the run to those programs.
set -uo pipefail
dir=${1:?usage: sanitize_corpus.sh DIR LOGS [JOBS]}
logs=${2:?usage: sanitize_corpus.sh DIR LOGS [JOBS]}
jobs=${3:-8}
san=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
[ -n "$san" ] || { echo "sanitize_corpus: compute-sanitizer not found" >&2; exit 2; }
mkdir -p "$logs"
bins=$(mktemp -d)
tar -C "$bins" -xzf "$dir/corpus-bins.tar.gz" || { echo "sanitize_corpus: cannot unpack $dir/corpus-bins.tar.gz" >&2; exit 2; }
: > "$logs/results.txt"
tools=${SANITIZE_TOOLS:-memcheck racecheck}
export san logs tools
one() {
  local prog=$1 domain name tool rc
  domain=$(basename "$(dirname "$prog")"); name=$(basename "$prog")
  for tool in $tools; do
    timeout "${SANITIZE_TIMEOUT:-150}" "$san" --tool "$tool" --error-exitcode 99 --print-limit 20 \
      "$prog/original" > "$logs/$domain.$name.$tool.log" 2>&1
    rc=$?
    echo "$domain/$name $tool $rc" >> "$logs/results.txt"
  done
}
export -f one
find "$bins" -mindepth 2 -maxdepth 2 -type d | sort | while read -r d; do
  [ -z "${SANITIZE_PROGRAMS:-}" ] && { echo "$d"; continue; }
  case " $SANITIZE_PROGRAMS " in *" $(basename "$(dirname "$d")")/$(basename "$d") "*) echo "$d" ;; esac
done | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}
rm -rf "$bins"
sort -o "$logs/results.txt" "$logs/results.txt"
"$san" --version | tail -1
for tool in $tools; do
  awk -v t="$tool" '$2 == t { n++; if ($3 == 0) ok++; else bad = bad " " $1 "(" $3 ")" }
    END { printf "%-10s clean %d of %d%s\n", t, ok, n, (bad == "" ? "" : "; not clean:" bad) }' "$logs/results.txt"
done
awk '$3 != 0 { bad = 1 } END { exit bad }' "$logs/results.txt"
