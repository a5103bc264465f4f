#!/usr/bin/env python3
"""The lifter checked on NVIDIA's own machine (a measurement for docs/RESULTS.md, not a test): every
program of bench/corpus is built by nvcc 11.8 for one architecture with its device code replaced
by the round trip (`gpuport asm X.cu --arch sm_XX --target sm_XX --emit exe`: SASS lifted to LLVM
IR, lowered through NVPTX and ptxas 11.8, embedded where nvcc's own cubin and PTX would be).

Here (no GPU needed) it counts the programs whose round trip builds and lists the reasons of the
others. With --run, on a machine with an NVIDIA GPU of that architecture, it also runs each
round-tripped program (full workload) and counts PASS by the program's own check.

Usage: bench/asm_roundtrip.py [--gpuport build/bin/gpuport] [--work DIR] [--arch 90] [-j 2]
                              [--filter TEXT] [--run] [--json FILE]"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import subprocess

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
p.add_argument("--work", default="/tmp/gpuport-asm-roundtrip")
p.add_argument("--arch", type=int, default=90)
p.add_argument("-j", type=int, default=2)
p.add_argument("--filter", default="")
p.add_argument("--run", action="store_true", help="run the programs (needs an NVIDIA GPU of --arch)")
p.add_argument("--timeout", type=int, default=300)
p.add_argument("--json")
a = p.parse_args()
gpuport = os.path.abspath(a.gpuport)
sources = sorted(s for s in glob.glob(os.path.join(here, "bench", "corpus", "*", "*.cu")) if a.filter in s)


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", **kw)


def one(source):
    domain = os.path.basename(os.path.dirname(source))
    name = os.path.splitext(os.path.basename(source))[0]
    out = os.path.join(a.work, domain, name)
    os.makedirs(out, exist_ok=True)
    r = {"program": f"{domain}/{name}", "domain": domain, "outcome": "", "reason": ""}
    s = run([gpuport, "asm", source, "--arch", f"sm_{a.arch}", "--target", f"sm_{a.arch}", "--emit", "exe", "-o", out])
    exe = os.path.join(out, f"{name}.sm_{a.arch}.sm_{a.arch}")
    if s.returncode != 0 or not os.path.exists(exe):
        errors = [line for line in s.stderr.splitlines() if "error:" in line]
        r["outcome"], r["reason"] = "build-failed", (errors[0] if errors else s.stderr.strip()[-300:])
        return r
    r["outcome"] = "built"
    if a.run:
        try:
            x = run([exe], cwd=out, timeout=a.timeout)
            line = next((l for l in x.stdout.splitlines() if l.startswith("RESULT")), "")
            r["outcome"] = "PASS" if x.returncode == 0 and " PASS" in line else "FAIL"
            if r["outcome"] == "FAIL":
                r["reason"] = (line or (x.stderr.strip().splitlines() or ["exit %d" % x.returncode])[-1])[:300]
        except subprocess.TimeoutExpired:
            r["outcome"], r["reason"] = "FAIL", "timed out"
    return r


results = []
with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
    for r in pool.map(one, sources):
        print(f"{r['program']:40} {r['outcome']:13} {r['reason'][:150]}", flush=True)
        results.append(r)
counts = collections.Counter(r["outcome"] for r in results)
print(f"\nsm_{a.arch} round trip: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + f" of {len(results)}")
if not a.run:
    print("(not run: --run needs an NVIDIA GPU)")
if a.json:
    with open(a.json, "w") as f:
        json.dump(results, f, indent=1)
