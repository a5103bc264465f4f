#!/usr/bin/env python3
"""Translation throughput on API-dense code nobody here wrote: HIPIFY's own test files.

Takes a checkout of ROCm/HIPIFY (its tests/unit_tests folder: CUDA sources that call almost
nothing but runtime, driver and library APIs), and builds two inputs of about --mb megabytes:

  one file  the test files laid end to end, repeated until the size is reached;
  a tree    copies of the test folder (c1/, c2/, ...), the same bytes as separate files.

Files that are not valid UTF-8 are left out (gpuport rejects them; their names are printed).
Then times, single-threaded (-j 1), best of --runs, in one invocation:

  gpuport translate FILE -o OUT --report-file R     (and TREE -o OUT)
  gpuport translate FILE --dry-run --report-file R  (translation alone, nothing written)
  cp FILE OUT                                       (the cost of the bytes alone)
  hipify-perl FILE -o OUT                           (once: --hipify-perl PATH; it takes minutes)

and prints MB/s (10^6 bytes per second of wall time; also per second of CPU time, user +
system, which a busy or shared machine disturbs less). --json writes the figures.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SUFFIXES = (".cu", ".cuh", ".cpp", ".h", ".hpp", ".c")


def test_files(checkout):
    root = os.path.join(checkout, "tests", "unit_tests")
    if not os.path.isdir(root):
        sys.exit(f"{checkout}: no tests/unit_tests folder (give a checkout of ROCm/HIPIFY)")
    keep, dropped = [], []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith(SUFFIXES):
                continue
            path = os.path.join(folder, name)
            data = open(path, "rb").read()
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                dropped.append(os.path.relpath(path, root))
                continue
            keep.append((os.path.relpath(path, root), data))
    keep.sort()
    return keep, dropped


def build_inputs(files, target, work):
    one = os.path.join(work, "hipify_tests.cu")
    size = 0
    with open(one, "wb") as f:
        while size < target:
            for _, data in files:
                f.write(data)
                if not data.endswith(b"\n"):
                    f.write(b"\n")
                    size += 1
                size += len(data)
    tree = os.path.join(work, "tree")
    tree_size, copy = 0, 0
    while tree_size < target:
        copy += 1
        for rel, data in files:
            path = os.path.join(tree, f"c{copy}", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            tree_size += len(data)
    return one, size, tree, tree_size, copy


def best_of(runs, command, cleanup, ok=(0, 1)):
    """(wall seconds, CPU seconds: user + system), each the best of `runs`."""
    best_wall = best_cpu = None
    for _ in range(runs):
        cleanup()
        before = os.times()
        start = time.perf_counter()
        proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        if proc.returncode not in ok:  # gpuport: 1 when the translation has error-level findings
            sys.exit(f"{' '.join(command)}: exit {proc.returncode}\n{proc.stderr.decode()[-2000:]}")
        best_wall = elapsed if best_wall is None else min(best_wall, elapsed)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    return best_wall, best_cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", help="a checkout of ROCm/HIPIFY")
    ap.add_argument("--gpuport", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "gpuport"))
    ap.add_argument("--mb", type=float, default=20.0, help="input size in megabytes (default 20)")
    ap.add_argument("--runs", type=int, default=5, help="best of this many runs (default 5)")
    ap.add_argument("--hipify-perl", help="time this hipify-perl on the one-file input too (one run)")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()

    files, dropped = test_files(args.checkout)
    for d in dropped:
        print(f"left out (not UTF-8): {d}", file=sys.stderr)
    work = tempfile.mkdtemp(prefix="gpuport-hipify-tp-")
    try:
        one, one_size, tree, tree_size, copies = build_inputs(files, int(args.mb * 1e6), work)
        out = os.path.join(work, "out")
        report = os.path.join(work, "report.txt")

        def clean():
            if os.path.isdir(out) and not os.path.islink(out):
                shutil.rmtree(out)
            elif os.path.lexists(out):
                os.remove(out)

        gp = [args.gpuport, "translate", "-j", "1", "--report-file", report]
        rows = []
        t = best_of(args.runs, gp + [one, "-o", out], clean)
        rows.append(("gpuport translate FILE -o OUT", one_size, t))
        t = best_of(args.runs, gp + [one, "--dry-run"], clean)
        rows.append(("gpuport translate FILE --dry-run", one_size, t))
        t = best_of(args.runs, gp + [tree, "-o", out], clean)
        rows.append((f"gpuport translate TREE -o OUT ({len(files) * copies} files)", tree_size, t))
        t = best_of(args.runs, gp + [tree, "--dry-run"], clean)
        rows.append(("gpuport translate TREE --dry-run", tree_size, t))
        t = best_of(args.runs, ["cp", one, out], clean, ok=(0,))
        rows.append(("cp FILE OUT", one_size, t))
        t = best_of(args.runs, ["cp", "-r", tree, out], clean, ok=(0,))
        rows.append(("cp -r TREE OUT", tree_size, t))
        if args.hipify_perl:
            t = best_of(1, ["perl", args.hipify_perl, one, "-o", out], clean, ok=(0,))
            rows.append(("hipify-perl FILE -o OUT (1 run)", one_size, t))

        print(f"input: {len(files)} HIPIFY test files; one file {one_size / 1e6:.1f} MB, "
              f"tree {tree_size / 1e6:.1f} MB in {copies} copies; best of {args.runs}, -j 1")
        print(f"| {'command':<52} | {'MB':>6} | {'wall s':>7} | {'MB/s':>7} | {'CPU s':>7} | {'MB/CPU s':>8} |")
        print(f"|{'-' * 54}|{'-' * 8}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 10}|")
        for name, size, (wall, cpu) in rows:
            cpu_rate = f"{size / 1e6 / cpu:8.1f}" if cpu > 0 else f"{'-':>8}"
            print(f"| {name:<52} | {size / 1e6:6.1f} | {wall:7.3f} | {size / 1e6 / wall:7.1f} | {cpu:7.3f} | {cpu_rate} |")
        if args.json:
            with open(args.json, "w") as f:
                json.dump([{"command": n, "bytes": s, "wall_seconds": w, "cpu_seconds": c, "mb_per_s": s / 1e6 / w}
                           for n, s, (w, c) in rows], f, indent=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
