#!/usr/bin/env python3
"""Two gpuport builds timed against each other on one input, runs interleaved.

On a shared machine the speed moves by tens of percent from minute to minute; timing one
build after the other measures the machine. This alternates the builds run by run (A B, B A,
...), single-threaded, `translate INPUT --dry-run`, and prints for each the median and best
wall time, the MB/s they give, and the median CPU time (user + system).

  python3 bench/translate_ab.py OLD/gpuport NEW/gpuport INPUT [--runs N]
"""
import argparse
import os
import resource
import statistics
import subprocess
import time


def input_bytes(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("input")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    builds = [args.a, args.b]
    wall = {b: [] for b in builds}
    cpu = {b: [] for b in builds}
    for i in range(args.runs):
        for b in builds if i % 2 == 0 else builds[::-1]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([b, "translate", args.input, "--dry-run", "-q", "--no-progress", "-j", "1"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall[b].append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[b].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    mb = input_bytes(args.input) / 1e6
    print(f"{args.input}: {mb:.1f} MB, {args.runs} runs each, interleaved")
    print("| build | median wall s | MB/s | best wall s | MB/s | median CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    for b in builds:
        med, best = statistics.median(wall[b]), min(wall[b])
        print(f"| {b} | {med:.3f} | {mb / med:.0f} | {best:.3f} | {mb / best:.0f} | {statistics.median(cpu[b]):.3f} |")


if __name__ == "__main__":
    main()
