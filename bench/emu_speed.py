#!/usr/bin/env python3
"""Emulator speed (a benchmark, not a test): emulated lane-instructions per second of gpuport's
gfx1100 emulator on a VALU-heavy and a memory-heavy kernel (bench/emu/emu_bench.hip), at -j 1
and -j 2, from `gpuport run --stats`. A lane-instruction is one instruction of a wave times its
active lanes (scalar instructions count the wave's active lanes too); wave-instructions/s is
given beside it.

With --baseline OTHER_GPUPORT, the two builds run interleaved, run by run, so that both see the
same machine, and the ratio of their medians is printed.

With --jit, each build runs twice per round, on the interpreter (--jit never) and on the JIT tier
(--jit always, compiled before the launch: its rate excludes compilation, whose seconds are
printed apart), and the ratio JIT/interpreter is printed.

Usage: bench/emu_speed.py [--gpuport build/bin/gpuport] [--baseline GPUPORT] [--jit] [--runs 5]
                          [--size 262144] [--rounds 64]
Prints one line per build, kernel and job count: median and best of the runs."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
p.add_argument("--baseline", help="a second gpuport build to run interleaved with the first")
p.add_argument("--runs", type=int, default=5)
p.add_argument("--size", type=int, default=1 << 18)
p.add_argument("--rounds", type=int, default=64)
p.add_argument("--jit", action="store_true", help="each build on the interpreter and on the JIT tier")
a = p.parse_args()

work = tempfile.mkdtemp(prefix="gpuport-emu-speed-")
exe = os.path.join(work, "emu_bench")
libs = os.path.join(here, "build", "rocm-device-libs")
subprocess.run(["clang-19", "-x", "hip", "--offload-arch=gfx1100", "--rocm-path=/usr", "--rocm-device-lib-path=" + libs, "-O3",
                "-Wno-unused-result", os.path.join(here, "bench", "emu", "emu_bench.hip"), "-o", exe, "-lamdhip64", "-lstdc++", "-lm"],
               check=True)
builds = [("this", os.path.abspath(a.gpuport), "never")] + ([("baseline", os.path.abspath(a.baseline), "never")] if a.baseline else [])
if a.jit:
    builds = [(name + "+jit" if tier == "always" else name, gpuport, tier) for name, gpuport, _ in builds for tier in ("never", "always")]
compile_seconds = {}
medians = {}
for jobs in (1, 2):
    rates = {}  # (build, kernel) -> [(lane rate, wave rate)]
    for _ in range(a.runs):
        for name, gpuport, tier in builds:
            r = subprocess.run([gpuport, "run", "--stats", "--jit", tier, "-j", str(jobs), "--", exe, str(a.size), str(a.rounds)],
                               capture_output=True, text=True, check=True)
            for line in r.stderr.splitlines():
                if line.startswith("# jit: ") and " compiled in " in line and tier == "always":
                    compile_seconds.setdefault(name, []).append(float(line.split(" compiled in ")[1].split(" s")[0]))
                cells = line.split("\t")
                if len(cells) == 6 and not line.startswith("#"):
                    seconds = float(cells[4])
                    rates.setdefault((name, cells[0]), []).append((float(cells[5]), int(cells[2]) / seconds if seconds else 0))
    for (name, kernel), values in sorted(rates.items()):
        kind = "VALU-heavy" if "valu" in kernel else "memory-heavy"
        lanes = [v[0] for v in values]
        waves = [v[1] for v in values]
        medians[(name, jobs, kind)] = statistics.median(lanes)
        print("%-8s -j %d  %-12s median %7.1f M lane-instr/s  best %7.1f M  (%6.1f M wave-instr/s; %d runs)" % (
            name, jobs, kind, statistics.median(lanes) / 1e6, max(lanes) / 1e6, statistics.median(waves) / 1e6, len(values)))
for name, values in sorted(compile_seconds.items()):
    print("%-8s JIT compile time (both kernels) median %.3f s" % (name, statistics.median(values)))
if a.jit:
    for (name, jobs, kind), m in sorted(medians.items()):
        if name.endswith("+jit") and medians.get((name[:-4], jobs, kind)):
            print("ratio %s/%s  -j %d  %-12s %.2fx" % (name, name[:-4], jobs, kind, m / medians[(name[:-4], jobs, kind)]))
if a.baseline:
    for (name, jobs, kind), m in sorted(medians.items()):
        if name == "this" and medians.get(("baseline", jobs, kind)):
            print("ratio this/baseline  -j %d  %-12s %.2fx" % (jobs, kind, m / medians[("baseline", jobs, kind)]))
sys.exit(0)
