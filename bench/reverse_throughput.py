#!/usr/bin/env python3
"""HIP -> CUDA translation speed beside CUDA -> HIP, measured side by side (docs/RESULTS.md).

Takes a CUDA corpus (by default the one `bench/translate_throughput.py --work DIR` generates in
DIR/corpus), translates it to HIP once, then times, best of N runs each, in one invocation:
`translate CORPUS` and `translate --to cuda HIP-TREE`, writing an output tree (-o) and as
--dry-run, single-threaded, and the reverse with -j 2. MB/s is the input's size over the time.

Usage: bench/reverse_throughput.py [--gpuport build/bin/gpuport] [--corpus DIR] [--work DIR] [--runs 5]
"""
import argparse
import os
import shutil
import subprocess
import time

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--gpuport", default="build/bin/gpuport")
p.add_argument("--corpus", default="/tmp/tp/corpus")
p.add_argument("--work", default="/tmp/gpuport-reverse-throughput")
p.add_argument("--runs", type=int, default=5)
a = p.parse_args()

if not os.path.isdir(a.corpus):
    raise SystemExit(f"{a.corpus}: no corpus; make one with bench/translate_throughput.py --work {os.path.dirname(a.corpus)}")
shutil.rmtree(a.work, ignore_errors=True)
os.makedirs(a.work)
hip = os.path.join(a.work, "hip")
subprocess.run([a.gpuport, "translate", a.corpus, "-o", hip, "-q", "--no-progress", "-j", "2"],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def size(tree):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(tree) for f in fs)


def best(cmd, out):
    times = []
    for _ in range(a.runs):
        if out:
            shutil.rmtree(out, ignore_errors=True)
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return min(times)


out = os.path.join(a.work, "out")
g = [a.gpuport, "translate", "-q", "--no-progress"]
rows = [
    ("CUDA -> HIP  -o -j 1", g + [a.corpus, "-o", out, "-j", "1"], out, size(a.corpus)),
    ("HIP -> CUDA  -o -j 1", g + ["--to", "cuda", hip, "-o", out, "-j", "1"], out, size(hip)),
    ("CUDA -> HIP  --dry-run -j 1", g + [a.corpus, "--dry-run", "-j", "1"], None, size(a.corpus)),
    ("HIP -> CUDA  --dry-run -j 1", g + ["--to", "cuda", hip, "--dry-run", "-j", "1"], None, size(hip)),
    ("HIP -> CUDA  -o -j 2", g + ["--to", "cuda", hip, "-o", out, "-j", "2"], out, size(hip)),
]
print(f"best of {a.runs} runs")
for name, cmd, o, n in rows:
    s = best(cmd, o)
    print(f"{name:30} {s:7.3f} s {n / 1e6 / s:7.1f} MB/s  ({n / 1e6:.1f} MB)")
