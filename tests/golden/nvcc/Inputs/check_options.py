#!/usr/bin/env python3
"""Every option in `NVCC --help` (its long name and its short one) is in `gpuport nvcc --help`'s
table, and takes a value there exactly when nvcc's help shows one. Prints each one missing or
different and exits 1; prints how many were compared."""
import re
import subprocess
import sys

# Options whose help line shows no value placeholder though they take one (their help text
# says so: "Specify the output file for the dependency file", "The argument will be forwarded").
VALUE_WITHOUT_PLACEHOLDER = {"--dependency-output", "--qpp-config"}

nvcc, gpuport = sys.argv[1], sys.argv[2:]
help_text = subprocess.run([nvcc, "--help"], capture_output=True, text=True, check=True).stdout
theirs = {}
for line in help_text.splitlines():
    m = re.match(r"^(--[A-Za-z0-9_-]+)(\s+\S+)?\s+\((-[^)]+)\)", line) or re.match(r"^(--[A-Za-z0-9_-]+)(\s+<[^>]+>)?\s*$", line)
    if not m:
        continue
    short = m.group(3) if m.lastindex and m.lastindex >= 3 else m.group(1)
    theirs[m.group(1)] = (short, bool(m.group(2) and m.group(2).strip()) or m.group(1) in VALUE_WITHOUT_PLACEHOLDER)
ours = {}
for line in subprocess.run(gpuport + ["nvcc", "--help"], capture_output=True, text=True, check=True).stdout.splitlines():
    m = re.match(r"^  (--\S+) \((-\S+)\)( VALUE)?  (handled|clang|dropped|refused): ", line)
    if m:
        ours.setdefault(m.group(1), []).append((m.group(2), bool(m.group(3))))
problems = 0
for name, (short, value) in sorted(theirs.items()):
    rows = ours.get(name, [])
    if not any(s == short for s, _ in rows):
        print(f"{name} ({short}): not in gpuport nvcc's table")
        problems += 1
    elif not any(s == short and v == value for s, v in rows):
        print(f"{name} ({short}): nvcc {'takes' if value else 'takes no'} value, the table says otherwise")
        problems += 1
print(f"{len(theirs)} options of {nvcc} compared, {problems} problems")
sys.exit(1 if problems else 0)
