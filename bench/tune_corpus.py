#!/usr/bin/env python3
"""Prepares `gpuport tune` for the corpus kernels where scheduling matters, and reads the GPU's
measurements back into the table of docs/RESULTS.md.

  python3 bench/tune_corpus.py prepare [--work tune-work]      # here: builds everything, no GPU
  OUT=out scripts/device/tune_check.sh tune-work               # on the GPU machine, one call
  python3 bench/tune_corpus.py measure --measurements out      # here again: gpuport tune --measure

(the device tool carries tune-work/, an ignored folder of the repository, and brings $OUT back;
--measurements copies each kernel's measurements.tsv from there into its prepared folder).

`prepare` prints, per kernel, the instructions, the candidates proved and the model's best
gain; `measure` prints the table (kernel, original us, tuned us, gain, moves) with every tuned
kernel's output checked by the harness. Nothing here needs a GPU except the middle step.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GPUPORT = os.path.join(ROOT, "build", "bin", "gpuport")

# (folder name, corpus file, kernel): GEMM, attention, softmax, layernorm, convolution,
# stencils, reductions, FFT.
KERNELS = [
    ("gemm_tiled", "linear-algebra/gemm_tiled.cu", "sgemm_tiled"),
    ("batched_small_gemm", "linear-algebra/batched_small_gemm.cu", "batched_gemm_small"),
    ("attention_small", "ml-layers/attention_small.cu", "attention_kernel"),
    ("softmax_rows", "ml-layers/softmax_rows.cu", "softmax_kernel"),
    ("layernorm", "ml-layers/layernorm.cu", "layernorm_kernel"),
    ("conv2d_nchw", "ml-layers/conv2d_nchw.cu", "conv3x3_kernel"),
    ("conv1d", "signal-processing/conv1d.cu", "conv1d"),
    ("heat2d_jacobi", "stencils-pde/heat2d_jacobi.cu", "jacobi_step"),
    ("stencil3d_7pt", "stencils-pde/stencil3d_7pt.cu", "stencil7"),
    ("reduce_sum", "reductions-scans/reduce_sum.cu", "reduce_partial"),
    ("fft_radix2", "signal-processing/fft_radix2.cu", "fft_batch"),
]


def prepare(work, candidates, repeat):
    rows = []
    for name, source, kernel in KERNELS:
        start = time.time()
        cmd = [GPUPORT, "tune", os.path.join(ROOT, "bench", "corpus", source), "--kernel", kernel, "--arch", "sm_90",
               "--candidates", str(candidates), "--repeat", str(repeat), "--prepare", os.path.join(work, name)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.time() - start
        if run.returncode != 0:
            print(f"{name}: FAILED ({run.returncode}): {run.stderr.strip()[:500]}", file=sys.stderr)
            rows.append((name, "FAILED", 0, 0, 0.0, seconds))
            continue
        manifest = json.load(open(os.path.join(work, name, "tune.json")))
        cands = manifest["candidates"]
        best = max((c["model_gain"] for c in cands), default=0.0)
        built = os.path.exists(os.path.join(work, name, "program"))
        rows.append((name, "ok" if built else "no-program", manifest["instructions"], len(cands), best, seconds))
    print(f"{'kernel':<22} {'status':<11} {'instr':>6} {'cands':>6} {'model best':>11} {'prepare s':>10}")
    for name, status, instr, n, best, seconds in rows:
        print(f"{name:<22} {status:<11} {instr:>6} {n:>6} {100 * best:>+10.1f}% {seconds:>10.1f}")
    return 0 if all(r[1] == "ok" for r in rows) else 1


def measure(work, measurements):
    if measurements:
        for name, _, _ in KERNELS:
            src = os.path.join(measurements, name, "measurements.tsv")
            if os.path.exists(src) and os.path.isdir(os.path.join(work, name)):
                shutil.copyfile(src, os.path.join(work, name, "measurements.tsv"))
    print(f"| kernel | original us | tuned us | gain | kept | moves |")
    print(f"|---|---:|---:|---:|---|---:|")
    gains = []
    for name, _, _ in KERNELS:
        d = os.path.join(work, name)
        if not os.path.exists(os.path.join(d, "measurements.tsv")):
            print(f"| {name} | - | - | - | not measured | - |")
            continue
        run = subprocess.run([GPUPORT, "tune", "--measure", d, "-o", os.path.join(d, "tuned.cubin")], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"| {name} | - | - | - | measure failed: {run.stderr.strip()[:200]} | - |")
            continue
        manifest = json.load(open(os.path.join(d, "tune.json")))
        rows = {}
        for line in open(os.path.join(d, "measurements.tsv")).read().splitlines()[1:]:
            f = line.split("\t")
            rows[f[0]] = f
        orig = float(rows["original"][3])
        kept = "original"
        for line in run.stdout.splitlines():
            if line.startswith("kept "):
                kept = line.split()[1].rstrip(":")
        tuned = orig if kept in ("the", "original") else float(rows[kept][3])
        moved = next((c["moved"] for c in manifest["candidates"] if c["id"] == kept), 0)
        gain = orig / tuned - 1
        gains.append(gain)
        print(f"| {name} | {orig:.3f} | {tuned:.3f} | {100 * gain:+.1f}% | {kept if kept != 'the' else 'original'} | {moved} |")
    if gains:
        print(f"\naverage gain over {len(gains)} kernels: {100 * sum(gains) / len(gains):+.1f}%")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("step", choices=["prepare", "measure"])
    p.add_argument("--work", default=os.path.join(ROOT, "tune-work"))
    p.add_argument("--candidates", type=int, default=6)
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--measurements", help="the GPU run's $OUT folder (measure)")
    a = p.parse_args()
    return prepare(a.work, a.candidates, a.repeat) if a.step == "prepare" else measure(a.work, a.measurements)


if __name__ == "__main__":
    sys.exit(main())
