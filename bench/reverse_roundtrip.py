#!/usr/bin/env python3
"""CUDA -> HIP -> CUDA over bench/corpus (a measurement for docs/RESULTS.md, not a test).

Every program is translated to HIP (`gpuport translate`) and back (`gpuport translate --to cuda`,
with --check: nvcc 11.8 compiles each unit as CUDA for sm_90), and the result is compared with the
original line by line. Each differing line is put in one class:
  runtime-include  a line `#include <cuda_runtime.h>` the forward direction's runtime include became
  lane-mask        a warp call whose mask the forward direction dropped and the reverse put back as
                   0xffffffffu (the original spelling, FULL_MASK or 0xffffffff, is gone)
  other            anything else (printed)

Usage: bench/reverse_roundtrip.py [--gpuport build/bin/gpuport] [--work DIR] [-j 2]
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--gpuport", default="build/bin/gpuport")
p.add_argument("--work", default="/tmp/gpuport-roundtrip")
p.add_argument("-j", default="2")
a = p.parse_args()

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "bench", "corpus")
shutil.rmtree(a.work, ignore_errors=True)
hip, back = os.path.join(a.work, "hip"), os.path.join(a.work, "cuda")
subprocess.run([a.gpuport, "translate", corpus, "-o", hip, "-q", "-j", a.j, "--no-progress"], check=True)
r = subprocess.run([a.gpuport, "translate", "--to", "cuda", hip, "-o", back, "-j", a.j, "--no-progress", "--check",
                    "--check-targets", "nvidia"], capture_output=True, text=True)
checks = re.findall(r"^(\S+): check nvidia: (\S+)", r.stdout, re.M)
compiled = sum(1 for _, outcome in checks if outcome == "compiles")
print(f"compiled with nvcc 11.8 (sm_90) after the round trip: {compiled}/{len(checks)}")
for unit, outcome in checks:
    if outcome != "compiles":
        print(f"  FAILED {unit}")

mask = re.compile(r"(__\w+_sync)\(0xffffffffu, ")
classes = {"runtime-include": 0, "lane-mask": 0, "other": 0}
files = identical = 0
others = []
for dirpath, _, names in os.walk(corpus):
    for n in sorted(names):
        original = os.path.join(dirpath, n)
        rel = os.path.relpath(original, corpus)
        returned = os.path.join(back, rel)
        if not os.path.exists(returned):
            continue
        files += 1
        a_lines = open(original, encoding="utf-8").read().splitlines()
        b_lines = open(returned, encoding="utf-8").read().splitlines()
        if a_lines == b_lines:
            identical += 1
            continue
        for op in difflib.SequenceMatcher(a=a_lines, b=b_lines, autojunk=False).get_opcodes():
            tag, i1, i2, j1, j2 = op
            if tag == "equal":
                continue
            new = b_lines[j1:j2]
            old = a_lines[i1:i2]
            for k, line in enumerate(new):
                if line.strip() == "#include <cuda_runtime.h>" and tag == "insert":
                    classes["runtime-include"] += 1
                elif mask.search(line) and k < len(old) and re.sub(r"\(\s*[^,()]+,", "(", mask.sub(r"\1(", line)) == \
                        re.sub(r"\(\s*[^,()]+,", "(", re.sub(r"(__\w+_sync)\([^,]*, ", r"\1(", old[k])):
                    classes["lane-mask"] += 1
                else:
                    classes["other"] += 1
                    others.append(f"{rel}: -{old[k] if k < len(old) else ''} +{line}")
print(f"files: {files}, identical: {identical}")
print("differing lines by class: " + ", ".join(f"{k} {v}" for k, v in classes.items()))
for o in others:
    print("  " + o)
sys.exit(0)
