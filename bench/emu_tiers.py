#!/usr/bin/env python3
"""Measures gpuport's emulator tiers on public HIP programs: builds AMD's rocm-examples (HIP-Basic,
Applications) and AMD's HIP-Examples for gfx1100 with clang-19, runs each program twice, under
`gpuport run --jit never` (the interpreter only) and `gpuport run --jit hot` (the default: a kernel
is compiled once it has run a while), and prints, per program, both tiers' exit status and wall
seconds, whether their outputs agree, and the speed-up (never seconds / hot seconds); from
`--stats`, each tier's kernel seconds (what is left of the wall time is the program's host code,
the runtime and compiling), the JIT's compile seconds and the share of wave-instructions its code
ran. All times are of the emulator on this machine's CPUs (gfx1100, emulated), not of a GPU.

rocm-examples are built by bench/rocm_examples_run.py's build() (imported, not copied) against
HIP 6.4 and run without arguments, as that script runs them. HIP-Examples are built as their
Makefiles / build scripts say (hipcc becomes rocm_examples_run.py's compiler(), HIP 6.4, or HIP
5.2 where 6.4 does not build it) and run with the arguments of their Makefile's run target,
test_all.sh or run script; a row's note says where this differs (first size of a sweep, repeat
counts cut). GPU-STREAM and mixbench, written for HIP 1.x, launch with hipLaunchKernel and a
hipLaunchParm first kernel argument, gone from HIP 5 and 6; they build with a small compatibility
header (compat/ under --out) that maps it onto hipLaunchKernelGGL, and their note says so. They
are git submodules of HIP-Examples: extract them into its tree at the commits it pins (`git -C
MIRROR archive COMMIT | tar -x -C HIPEX/GPU-STREAM`); where absent the row says so. A program
that does not build is a row with its first error line.

Outputs agree ("same") when the two runs' stdout is equal after dropping lines that hold timing
words (time, ms, sec, GB/s, GFLOP, bandwidth), and the rows of numbers of a table whose header
holds one (GPU-STREAM's, strided-access's), and lines a program's entry marks as a measured rate;
pointers (0x7f...) are masked; "reordered" when they hold the same lines in another order (device
printf of workgroups run in another order). A program that runs for a time its arguments set
(gpu-burn) has as speed-up the ratio of lane-instructions per wall second instead. The summary
gives the geometric-mean speed-up over
programs that finished under both tiers with the same exit status, over all of them and over those
where the interpreter took at least 1 s, and lists the programs the interpreter did not finish
within --timeout, with the JIT tier's time where it finished.

Usage: bench/emu_tiers.py [--gpuport PATH] [--rex DIR] [--hipex DIR] [--only NAME ...]
                          [--timeout S] [--out DIR] [--skip-build] [--json FILE]
--rex holds rocm-examples' HIP-Basic, Applications and Common (`git archive HEAD HIP-Basic
Applications Common | tar -x -C DIR`); --hipex a `git archive HEAD` of HIP-Examples. --only takes
a program's name (saxpy, reduction) or its label (HIP-Basic/saxpy, HIP-Examples/add4). Programs
are built and run one at a time.
"""
import argparse
import importlib.util
import json
import math
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

_spec = importlib.util.spec_from_file_location("rocm_examples_run", ROOT / "bench" / "rocm_examples_run.py")
rex = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rex)

TIMING = re.compile(r"time|\bms\b|sec|gb/s|gflop|bandwidth", re.IGNORECASE)
# A row of a table: an optional name, then two or more numbers (GPU-STREAM's "Copy  846.0  0.63  0.63").
_NUM = r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?,?"
POINTER = re.compile(r"0x[0-9a-fA-F]{8,}")
NUMBER_ROW = re.compile(r"^\s*([A-Za-z_][\w-]*:?)?(%s){2,}\s*$" % _NUM)

# HIP-Examples, one entry a program: its folder, sources and flags (those of its Makefile or build
# script; sources None: the folder's .cpp files), argument lists (its run target, test_all.sh or run
# script: one row each), note, compat (needs the compatibility header) and ignore (a pattern for
# output lines that hold only a measured rate, left out of the comparison).
# fixed_time: the program runs for a time its arguments set, whatever the speed (gpu-burn): its
# speed-up is the ratio of the work each tier did per wall second (lane-instructions from --stats
# over the whole run's seconds, start-up and compiling included), not of the seconds.
def P(name, folder, sources, flags, args=([],), note="", compat=False, ignore=None, fixed_time=False):
    return {"name": name, "folder": folder, "sources": sources, "flags": flags, "args": [list(x) for x in args],
            "note": note, "compat": compat, "ignore": ignore, "fixed_time": fixed_time}


NBODY_RATE = r"^\d+, [\d.]+$"  # -DSHMOO's "bodies, billion interactions per second"
APPS = ["BinomialOption", "BitonicSort", "FastWalshTransform", "FloydWarshall", "HelloWorld", "Histogram",
        "MatrixMultiplication", "PrefixSum", "RecursiveGaussian", "SimpleConvolution", "dct", "dwtHaar1D"]
HIPEX = [
    P("vectorAdd", "vectorAdd", ["vectoradd_hip.cpp"], ["-g"]),
    P("add4", "add4", ["hip-stream.cpp", "common.cpp"], ["-std=c++11", "-O3"],
      [[x for x in v] + ["--numtimes", "2"] for v in
       ([], ["--groups", "256", "--groupSize", "256"], ["--float"], ["--float", "--groups", "256", "--groupSize", "256"])],
      "runhip.sh's 4 runs, --numtimes 2 (default 10; 2 is its minimum)"),
    P("cuda-stream", "cuda-stream", ["stream.cpp"], ["-std=c++11", "-O3"]),
    P("gpu-burn", "gpu-burn", ["AmdGpuMonitor.cpp", "BurnKernel.cpp", "common.cpp", "gpuburn.cpp"],
      ["-O3", "-lpthread"], [["-t", "5"]], "burns for -t seconds: speed-up of lane-instructions per wall second",
      fixed_time=True),
    P("mini-nbody-orig", "mini-nbody/hip", ["nbody-orig.cpp"], ["-I..", "-DSHMOO"], [["1024"]],
      "first of HIP-nbody-orig.sh's 10 sizes; prints only a rate", ignore=NBODY_RATE),
    P("mini-nbody-soa", "mini-nbody/hip", ["nbody-soa.cpp"], ["-I..", "-DSHMOO"], [["1024"]],
      "first of HIP-nbody-soa.sh's 8 sizes; prints only a rate", ignore=NBODY_RATE),
    P("mini-nbody-block", "mini-nbody/hip", ["nbody-block.cpp"], ["-I..", "-DSHMOO"], [["1024"]],
      "first of HIP-nbody-block.sh's 8 sizes; prints only a rate", ignore=NBODY_RATE),
    P("reduction", "reduction", ["reduction.cpp"], ["-std=c++11", "-O3"], [["4194304"]],
      "first of run.sh's 8 sizes (1024*1024*4)"),
    P("rtm8", "rtm8", ["rtm8.cpp"], ["-std=c++11", "-O3"], note="dt, speedup lines are timings",
      ignore=r"^(dt|speedup) = "),
    P("strided-access", "strided-access", ["benchmark-hip.cpp"], ["-std=c++11", "-O3"]),
    P("GPU-STREAM", "GPU-STREAM", ["main.cpp", "HIPStream.cu"], ["--std=c++11", "-DHIP"], [["--numtimes", "2"]],
      "--numtimes 2 (default 100; 2 is its minimum); compat header", compat=True),
    P("mixbench-hip", "mixbench", ["main-hip.cpp", "mix_kernels_hip.cpp"], ["-O2", "-DUNIX"],
      note="compat header", compat=True),
    P("mixbench-hip-ro", "mixbench", ["main-hip-ro.cpp", "mix_kernels_hip_ro.cpp"], ["-O2", "-DUNIX", "-DREADONLY"],
      note="compat header", compat=True),
    P("openmp-helloworld", "openmp-helloworld", ["openmp_helloworld.cpp"], ["-fopenmp"]),
] + [P("HIP-Examples-Applications/" + a, "HIP-Examples-Applications/" + a, None, ["-g"]) for a in APPS]

# Pre-HIP-3 kernel launches: hipLaunchKernel(HIP_KERNEL_NAME(k), grid, block, shmem, stream, args...)
# with a hipLaunchParm first kernel parameter. HIP 5.2 keeps the typedef, HIP 6.4 does not.
COMPAT_HEADER = """#pragma once
#include <hip/hip_runtime.h>
#if HIP_VERSION_MAJOR >= 6
typedef int hipLaunchParm;
#endif
#undef hipLaunchKernel
#define hipLaunchKernel(kernel, grid, block, shmem, stream, ...) \\
    hipLaunchKernelGGL((kernel), grid, block, shmem, stream, hipLaunchParm{}, ##__VA_ARGS__)
"""
COMPAT_FILES = {
    "legacy_hip.h": COMPAT_HEADER,
    "hip_runtime.h": "#pragma once\n#include <hip/hip_runtime.h>\n",
    "hip_runtime_api.h": "#pragma once\n#include <hip/hip_runtime_api.h>\n",
    "math_constants.h": "#pragma once\n#define CUDART_INF __builtin_inf()\n#define CUDART_INF_F __builtin_inff()\n",
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def rex_examples(root, folders):
    """rocm-examples: a folder with a main.* is an example (as rocm_examples_run.py finds them)."""
    def under(folder):
        found = []
        for p in sorted(folder.iterdir()):
            if p.is_dir():
                found += [p] if any(q.stem == "main" for q in p.iterdir()) else under(p)
        return found
    return [p for f in folders if (root / f).is_dir() for p in under(root / f)]


def build_rex(example, root, out, gpuport):
    """rocm_examples_run.build(), with its `gpuport translate` (hipify) run by the gpuport under test."""
    real = rex.subprocess
    original = str(rex.BUILD / "bin" / "gpuport")

    class Shim:
        def __getattr__(self, name):
            return getattr(real, name)

        @staticmethod
        def run(cmd, *a, **k):
            if cmd and cmd[0] == original:
                cmd = [gpuport] + list(cmd[1:])
            return real.run(cmd, *a, **k)
    rex.subprocess = Shim()
    try:
        exe, why = rex.build(example, root, out, "6.4")
    finally:
        rex.subprocess = real
    return exe, why, "6.4"


def build_hipex(folder, sources, flags, compat, out, exe):
    """One clang-19 command per program, as hipcc would run it: HIP 6.4 first, else HIP 5.2."""
    if not folder.is_dir() or not any(folder.iterdir()):
        return None, "folder empty (a git submodule of HIP-Examples, not extracted)", ""
    if sources is None:
        sources = sorted(p.name for p in folder.iterdir() if p.suffix == ".cpp")
    # Data files the program reads from its folder (RecursiveGaussian's .bmp) go next to it.
    for p in folder.iterdir():
        if p.is_file() and p.suffix.lower() in (".bmp", ".txt", ".dat"):
            shutil.copy(p, out / p.name)
    extra = ["-I" + str(folder), "-I" + str(out)]
    if folder.name == "GPU-STREAM":
        # CMake configures common.h from common.h.in (version 2.1 in its CMakeLists.txt).
        (out / "common.h").write_text((folder / "common.h.in").read_text()
                                      .replace("@gpu-stream_VERSION_MAJOR@", "2")
                                      .replace("@gpu-stream_VERSION_MINOR@", "1"))
    if compat:
        c = out / "compat"
        c.mkdir(exist_ok=True)
        for name, text in COMPAT_FILES.items():
            (c / name).write_text(text)
        extra += ["-I" + str(c), "-include", str(c / "legacy_hip.h")]
    link_flags = [f for f in flags if f.startswith("-l")]
    flags = [f for f in flags if not f.startswith("-l")]
    why = ""
    for hip in ("6.4", "5.2"):
        cc, link = rex.compiler(hip)
        cmd = cc + flags + extra + [str(folder / s) for s in sources] + ["-o", str(exe)] + link_flags + link
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=folder)
        if r.returncode == 0:
            return exe, "", hip
        why = why or rex.first_error(r.stderr + r.stdout)
    return None, why, ""


def run_tier(gpuport, tier, exe, args, cwd, timeout):
    """Wall seconds, exit status ('timeout' past the limit), stdout and stderr of one run."""
    cmd = [gpuport, "run", "--stats", "--jit", tier, "--", str(exe)] + list(args)
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        status = "timeout"
    seconds = time.monotonic() - start
    return {"status": status, "seconds": round(seconds, 3), "stdout": out.decode(errors="replace"),
            "stderr": err.decode(errors="replace")}


def run_stats(stderr):
    """From `gpuport run --stats` on stderr: the kernels' seconds (launch to end, summed), the JIT's
    compile seconds, the share of wave-instructions that ran compiled (None without a JIT) and the
    lane-instructions of every launch."""
    kernels, compile_s, compiled, lanes = 0.0, 0.0, None, 0
    for line in stderr.splitlines():
        cells = line.split("\t")
        if len(cells) == 6 and not line.startswith("#"):
            try:
                kernels += float(cells[4])
                lanes += int(cells[3])
            except ValueError:
                pass
        elif line.startswith("# jit: ") and " compiled in " in line:
            compile_s = float(line.split(" compiled in ")[1].split(" s")[0])
        elif line.startswith("# jit: ") and "ran in compiled code" in line:
            compiled = float(line.rsplit("(", 1)[1].rstrip("%)"))
    return round(kernels, 3), compile_s, compiled, lanes


def kept_lines(text, ignore=None):
    """Lines without timing words; the rows of numbers under a header with one go too, and the
    lines the program's ignore pattern matches. Pointers (0x7f...) print differently run to run."""
    kept, in_table = [], False
    for line in text.splitlines():
        line = POINTER.sub("0x?", line)
        if TIMING.search(line) or (ignore and re.search(ignore, line)):
            in_table = True
        elif in_table and NUMBER_ROW.match(line):
            pass
        else:
            in_table = False
            kept.append(line.rstrip())
    return kept


def compare(a, b, ignore=None):
    """'same' or 'differs' for two stdouts (timing lines dropped), and the first differing pair."""
    x, y = kept_lines(a, ignore), kept_lines(b, ignore)
    if x == y:
        return "same", None
    if sorted(x) == sorted(y):
        # The same lines in another order: device printf of workgroups that ran in another order.
        return "reordered", None
    for i in range(max(len(x), len(y))):
        u = x[i] if i < len(x) else "<end of output>"
        v = y[i] if i < len(y) else "<end of output>"
        if u != v:
            return "differs", {"line": i + 1, "never": u[:200], "hot": v[:200]}
    return "differs", None


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def fmt_status(s):
    return s if s == "timeout" else str(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpuport", default=str(ROOT / "build" / "bin" / "gpuport"))
    ap.add_argument("--rex", type=pathlib.Path, default=pathlib.Path("/tmp/rex"))
    ap.add_argument("--rex-folders", nargs="*", default=["HIP-Basic", "Applications"])
    ap.add_argument("--hipex", type=pathlib.Path, default=pathlib.Path("/tmp/hipex"))
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("/tmp/gpuport-emu-tiers"))
    ap.add_argument("--skip-build", action="store_true", help="reuse the executables a previous run built")
    ap.add_argument("--json", type=pathlib.Path)
    a = ap.parse_args()
    a.gpuport = str(pathlib.Path(a.gpuport).resolve())

    # (label, build thunk, exe path, build folder, argument lists, note, ignore pattern)
    programs = []
    if a.rex.is_dir():
        for ex in rex_examples(a.rex, a.rex_folders):
            label = str(ex.relative_to(a.rex))
            out = a.out / "rocm-examples" / label
            programs.append((label, lambda ex=ex, out=out: build_rex(ex, a.rex, out, a.gpuport),
                             out / ex.name, out, [[]], "", None, False))
    else:
        log(f"no rocm-examples tree at {a.rex}: skipped")
    if a.hipex.is_dir():
        for p in HIPEX:
            label = "HIP-Examples/" + p["name"]
            out = a.out / "HIP-Examples" / p["name"]
            exe = out / p["name"].split("/")[-1]
            programs.append((label, lambda p=p, out=out, exe=exe:
                             build_hipex(a.hipex / p["folder"], p["sources"], p["flags"], p["compat"], out, exe),
                             exe, out, p["args"], p["note"], p["ignore"], p["fixed_time"]))
    else:
        log(f"no HIP-Examples tree at {a.hipex}: skipped")
    if a.only:
        programs = [p for p in programs if p[0] in a.only or p[0].split("/")[-1] in a.only]

    rows, built = [], 0
    for label, build, exe, out, arglists, note, ignore, fixed_time in programs:
        out.mkdir(parents=True, exist_ok=True)
        hip = ""
        if a.skip_build and exe.is_file():
            why = ""
        else:
            log(f"build {label}")
            built_exe, why, hip = build()
            if not built_exe:
                rows.append({"name": label, "args": "", "note": note, "build": "failed: " + why})
                continue
        built += 1
        for args in arglists:
            row = {"name": label, "args": " ".join(args), "note": note, "build": "ok", "hip": hip}
            for tier in ("never", "hot"):
                log(f"run {label} {' '.join(args)} --jit {tier}")
                row[tier] = run_tier(a.gpuport, tier, exe, args, out, a.timeout)
            n, h = row["never"], row["hot"]
            row["outputs"], row["first_difference"] = compare(n["stdout"], h["stdout"], ignore)
            for tier in ("never", "hot"):
                (row[tier]["kernel_seconds"], row[tier]["compile_seconds"], row[tier]["compiled_percent"],
                 row[tier]["lane_instructions"]) = run_stats(row[tier]["stderr"])
            if n["status"] != "timeout" and h["status"] != "timeout" and h["seconds"] > 0:
                if fixed_time:
                    if n["lane_instructions"] and n["seconds"] > 0:
                        row["speedup"] = round((h["lane_instructions"] / h["seconds"]) / (n["lane_instructions"] / n["seconds"]), 3)
                else:
                    row["speedup"] = round(n["seconds"] / h["seconds"], 3)
            for tier in ("never", "hot"):
                # Keep the JSON small: the outputs' tails only.
                row[tier]["stdout_tail"] = row[tier].pop("stdout")[-2000:]
                row[tier]["stderr_tail"] = row[tier].pop("stderr")[-2000:]
            rows.append(row)

    ran = [r for r in rows if r["build"] == "ok"]
    print(f"# gpuport emulator tiers, --jit never vs --jit hot (gfx1100, emulated on this machine's CPUs; "
          f"timeout {a.timeout:.0f} s per run)")
    print(f"# gpuport: {a.gpuport}")
    # Kernels: the seconds from launch to end of every launch (--stats), the rest is the program's
    # host code, the runtime and (hot) compiling in the program; compile: the JIT's seconds, in the
    # program or by the helper beside the waves; compiled: the wave-instructions the JIT's code ran.
    print("| program | args | never: exit | never s | never kernels s | hot: exit | hot s | hot kernels s | compile s | compiled | "
          "speed-up | outputs | note |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if r["build"] != "ok":
            print(f"| {r['name']} | | build failed | | | | | | | | | | {r['build'][8:].replace('|', '/')[:120]} |")
            continue
        n, h = r["never"], r["hot"]
        sp = f"{r['speedup']:.2f}" if "speedup" in r else ""
        note = r["note"] + (f"; HIP {r['hip']}" if r.get("hip") == "5.2" else "")
        share = f"{h['compiled_percent']:.0f}%" if h.get("compiled_percent") is not None else "0%"
        print(f"| {r['name']} | {r['args']} | {fmt_status(n['status'])} | {n['seconds']:.1f} | {n.get('kernel_seconds', 0):.1f} | "
              f"{fmt_status(h['status'])} | {h['seconds']:.1f} | {h.get('kernel_seconds', 0):.1f} | {h.get('compile_seconds', 0):.2f} | "
              f"{share} | {sp} | {r['outputs']} | {note} |")

    both = [r for r in ran if "speedup" in r and r["never"]["status"] == r["hot"]["status"]]
    slow = [r for r in both if r["never"]["seconds"] >= 1.0]
    print(f"\n{built} of {len(programs)} programs built; {len(ran)} runs "
          f"({sum(1 for r in ran if r['never']['status'] == 0)} exit 0 under never, "
          f"{sum(1 for r in ran if r['hot']['status'] == 0)} under hot)")
    print(f"geometric-mean speed-up (never s / hot s; work per second for fixed-time runs), both tiers finished with the same exit status: "
          f"{geomean([r['speedup'] for r in slow]):.2f}x over {len(slow)} runs where the interpreter took >= 1 s; "
          f"{geomean([r['speedup'] for r in both]):.2f}x over all {len(both)}")
    unfinished = [r for r in ran if r["never"]["status"] == "timeout"]
    print(f"interpreter did not finish within {a.timeout:.0f} s: {len(unfinished)}")
    for r in unfinished:
        h = r["hot"]
        jit = "also timeout" if h["status"] == "timeout" else f"hot finished in {h['seconds']:.1f} s, exit {h['status']}"
        print(f"  {r['name']} {r['args']}: {jit}")
    reordered = [r["name"] + (" " + r["args"] if r["args"] else "") for r in ran if r["outputs"] == "reordered"]
    if reordered:
        print("outputs the same lines in another order (workgroups' device printf): " + ", ".join(reordered))
    disagree = [r for r in ran if r["outputs"] == "differs" or
                (r["never"]["status"] != r["hot"]["status"] and "timeout" not in (r["never"]["status"], r["hot"]["status"]))]
    if disagree:
        print("tiers disagree (exit status or output):")
        for r in disagree:
            d = r["first_difference"]
            where = f"; line {d['line']}: never {d['never']!r} / hot {d['hot']!r}" if d else ""
            print(f"  {r['name']} {r['args']}: exit {fmt_status(r['never']['status'])} / "
                  f"{fmt_status(r['hot']['status'])}{where}")
    if a.json:
        a.json.write_text(json.dumps({"gpuport": a.gpuport, "timeout": a.timeout, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
