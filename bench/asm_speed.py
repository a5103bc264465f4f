#!/usr/bin/env python3
"""Translation speed of `gpuport asm` (a measurement for docs/RESULTS.md, not a test): the cubins
of bench/corpus, made once by nvcc 11.8 for each architecture asked for, are translated to gfx1100
code objects, one process per cubin, one at a time. Counted over the cubins whose every kernel
translates within --timeout: kernels per second and SASS instructions per second, by wall time
of the whole process and by the phases gpuport reports (setup, lift, optimize, codegen, link).

Usage: bench/asm_speed.py [--gpuport build/bin/gpuport] [--work DIR] [--arch 80,90] [--repeat 3]
                          [--filter TEXT] [--json FILE]"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
p.add_argument("--work", default="/tmp/gpuport-asm-speed")
p.add_argument("--arch", default="80,90")
p.add_argument("--repeat", type=int, default=3, help="translations per cubin; the fastest counts")
p.add_argument("--filter", default="")
p.add_argument("--timeout", type=int, default=120, help="seconds for one translation; a cubin over it is left out")
p.add_argument("--json")
a = p.parse_args()
gpuport = os.path.abspath(a.gpuport)
archs = [int(x) for x in a.arch.split(",")]
sources = sorted(s for s in glob.glob(os.path.join(here, "bench", "corpus", "*", "*.cu")) if a.filter in s)


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", **kw)


rows = []
for source in sources:
    domain = os.path.basename(os.path.dirname(source))
    name = os.path.splitext(os.path.basename(source))[0]
    for arch in archs:
        d = os.path.join(a.work, domain, name, f"sm_{arch}")
        # A cubin made before (here, or by asm_corpus.py --text with the same --work) is reused.
        cubins = sorted(glob.glob(os.path.join(d, "**", "*.cubin"), recursive=True))
        cubins = [c for c in cubins if os.sep + "out" + os.sep not in c]
        if not cubins:
            run([gpuport, "sass", "--print", "--save-temps", d, source, "--arch", f"sm_{arch}"])
            # A cubin made before (here, or by asm_corpus.py --text with the same --work) is reused.
        cubins = sorted(glob.glob(os.path.join(d, "**", "*.cubin"), recursive=True))
        cubins = [c for c in cubins if os.sep + "out" + os.sep not in c]
        if not cubins:
            continue
        best = None
        for _ in range(a.repeat):
            start = time.perf_counter()
            try:
                r = run([gpuport, "asm", cubins[0], "--emit", "obj", "-o", os.path.join(d, "out"), "--report", "json"],
                        timeout=a.timeout)
            except subprocess.TimeoutExpired:
                best = None
                break
            wall = time.perf_counter() - start
            try:
                report = json.loads(r.stdout)[0]
            except (ValueError, IndexError):
                report = None
            if report is None or not report["ok"]:
                best = None
                break
            if best is None or wall < best["wall"]:
                best = {"program": f"{domain}/{name}", "arch": f"sm_{arch}", "wall": wall, "phases": report["seconds"],
                        "kernels": len(report["kernels"]),
                        "sass_instructions": sum(k["sass_instructions"] for k in report["kernels"])}
        if best:
            rows.append(best)
            print(f"{best['program']:40} {best['arch']:6} {best['kernels']:3} kernels {best['sass_instructions']:6} SASS "
                  f"instructions {best['wall'] * 1000:8.1f} ms", flush=True)

if rows:
    kernels = sum(r["kernels"] for r in rows)
    instructions = sum(r["sass_instructions"] for r in rows)
    wall = sum(r["wall"] for r in rows)
    phases = {k: sum(r["phases"][k] for r in rows) for k in rows[0]["phases"]}
    inside = sum(phases.values())
    print()
    print(f"{len(rows)} cubins, {kernels} kernels, {instructions} SASS instructions")
    print(f"whole process: {wall:.2f} s: {kernels / wall:.1f} kernels/s, {instructions / wall:.0f} SASS instructions/s, "
          f"median {statistics.median(r['wall'] for r in rows) * 1000:.0f} ms per cubin")
    print(f"translation phases: {inside:.2f} s: {kernels / inside:.1f} kernels/s, {instructions / inside:.0f} SASS "
          f"instructions/s; " + ", ".join(f"{k} {v:.2f} s" for k, v in phases.items()))
if a.json:
    with open(a.json, "w") as f:
        json.dump(rows, f, indent=1)
