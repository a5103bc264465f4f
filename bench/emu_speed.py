#!/usr/bin/env python3
"""Emulator speed (a benchmark, not a test): emulated lane-instructions per second of gpuport's
gfx1100 emulator on a VALU-heavy and a memory-heavy kernel (bench/emu/emu_bench.hip), at -j 1
and -j 2, from `gpuport run --stats`.

Usage: bench/emu_speed.py [--gpuport build/bin/gpuport] [--runs 5] [--size 262144] [--rounds 64]
Prints one line per kernel and job count: median and best lane-instructions/s of the runs."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
p.add_argument("--runs", type=int, default=5)
p.add_argument("--size", type=int, default=1 << 18)
p.add_argument("--rounds", type=int, default=64)
a = p.parse_args()

work = tempfile.mkdtemp(prefix="gpuport-emu-speed-")
exe = os.path.join(work, "emu_bench")
libs = os.path.join(here, "build", "rocm-device-libs")
subprocess.run(["clang-19", "-x", "hip", "--offload-arch=gfx1100", "--rocm-path=/usr", "--rocm-device-lib-path=" + libs, "-O3",
                "-Wno-unused-result", os.path.join(here, "bench", "emu", "emu_bench.hip"), "-o", exe, "-lamdhip64", "-lstdc++", "-lm"],
               check=True)
for jobs in (1, 2):
    rates = {}
    for _ in range(a.runs):
        r = subprocess.run([a.gpuport, "run", "--stats", "-j", str(jobs), "--", exe, str(a.size), str(a.rounds)],
                           capture_output=True, text=True, check=True)
        for line in r.stderr.splitlines():
            cells = line.split("\t")
            if len(cells) == 6 and not line.startswith("#"):
                rates.setdefault(cells[0], []).append(float(cells[5]))
    for kernel, values in sorted(rates.items()):
        kind = "VALU-heavy" if "valu" in kernel else "memory-heavy"
        print("-j %d  %-12s median %6.1f M lane-instr/s  best %6.1f M  (%d runs, %s)" % (
            jobs, kind, statistics.median(values) / 1e6, max(values) / 1e6, len(values), kernel))
sys.exit(0)
