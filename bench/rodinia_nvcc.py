#!/usr/bin/env python3
"""Builds Rodinia's CUDA benchmarks with `gpuport nvcc` as their Makefiles' nvcc, the Makefiles
unchanged: the CUDA toolkit folder `gpuport nvcc --toolkit` writes (bin/nvcc runs gpuport nvcc,
lib64/libcudart.so links HIP's runtime) is given as CUDA_DIR (Rodinia's make.config names nvcc
$(CUDA_DIR)/bin/nvcc), as NVCC, and first on PATH (for Makefiles that say `nvcc`); prints a
table: benchmark, built or not, the first error.

usage: rodinia_nvcc.py GPUPORT RODINIA_CUDA_FOLDER [--timeout S]
(RODINIA_CUDA_FOLDER: the `cuda` folder of a Rodinia tree, with `common/make.config` beside it.)
"""
import argparse
import os
import pathlib
import re
import subprocess
import tempfile
import time


def first_error(log):
    for line in log.splitlines():
        if re.search(r"\berror\b", line) and "warning" not in line:
            return line.strip()[:160]
    lines = [l for l in log.splitlines() if l.strip()]
    return lines[-1][:160] if lines else ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("gpuport")
    p.add_argument("folder")
    p.add_argument("--timeout", type=int, default=600)
    a = p.parse_args()
    cuda = pathlib.Path(tempfile.mkdtemp(prefix="gpuport-cuda-")) / "cuda"
    subprocess.run([a.gpuport, "nvcc", "--toolkit", str(cuda)], check=True, capture_output=True)
    nvcc = cuda / "bin" / "nvcc"
    env = dict(os.environ, PATH=f"{cuda / 'bin'}:{os.environ['PATH']}")
    built = 0
    rows = []
    start = time.time()
    for bench in sorted(pathlib.Path(a.folder).iterdir()):
        if not bench.is_dir() or not (bench / "Makefile").exists():
            continue
        subprocess.run(["make", "clean"], cwd=bench, capture_output=True)
        t0 = time.time()
        try:
            r = subprocess.run(["make", f"CUDA_DIR={cuda}", f"NVCC={nvcc}"], cwd=bench, capture_output=True, text=True,
                               timeout=a.timeout, errors="replace", env=env)
            ok, log = r.returncode == 0, r.stdout + r.stderr
        except subprocess.TimeoutExpired:
            ok, log = False, f"timed out after {a.timeout} s"
        built += ok
        rows.append((bench.name, "built" if ok else "failed", f"{time.time() - t0:.0f}", "" if ok else first_error(log)))
    print("| benchmark | make | seconds | first error |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")
    print(f"\n{built} of {len(rows)} built, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
