#!/bin/sh
# For every committed listing under DIR (nvdisasm -hex text per arch), `gpuport sass --print`
# must give back the same instruction lines. Usage: roundtrip-all.sh GPUPORT DIR OUTDIR
gpuport=$1 dir=$2 out=$3
here=$(dirname "$0")
status=0 count=0
mkdir -p "$out"
for f in "$dir"/*/*.sass; do
  name=$(echo "$f" | sed 's|.*/\([^/]*\)/\([^/]*\)\.sass$|\1.\2|')
  sh "$here/instruction-lines.sh" "$f" > "$out/$name.expected"
  if ! "$gpuport" sass --print "$f" > "$out/$name.printed" 2> "$out/$name.err"; then
    echo "FAIL $f: exit status $? ($(head -1 "$out/$name.err"))"; status=1; continue
  fi
  sh "$here/instruction-lines.sh" "$out/$name.printed" > "$out/$name.actual"
  if ! diff "$out/$name.expected" "$out/$name.actual" > "$out/$name.diff"; then
    echo "FAIL $f: printed instructions differ (first lines of $out/$name.diff):"; head -4 "$out/$name.diff"; status=1
  fi
  count=$((count + 1))
done
echo "round trip: $count listings"
exit $status
