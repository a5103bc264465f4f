#!/usr/bin/env python3
"""Translation throughput of `gpuport translate` on a generated CUDA corpus.

Generates a deterministic corpus (default 64 MB) of CUDA sources that look like real code:
kernels with shared memory and warp shuffles, host code with runtime API calls, error-check
macros, comments and strings that mention API names, local headers, templates. Then times
`gpuport translate CORPUS -o OUT` single-threaded and with -j 2 (best of N runs), next to a
baseline in the same invocation: `cp -r` of the same tree (the cost of reading and writing
the bytes alone). `--dry-run` runs (read, translate, report; nothing written) show the
translator apart from the file system's cost of creating the output tree. Prints a table;
--json writes the figures.
"""
import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time

API_CALLS = [
    "cudaMalloc(&{v}, {n} * sizeof(float))", "cudaFree({v})", "cudaMemcpy({v}, h_{v}, {n}, cudaMemcpyHostToDevice)",
    "cudaMemcpyAsync(h_{v}, {v}, {n}, cudaMemcpyDeviceToHost, stream)", "cudaMemset({v}, 0, {n})",
    "cudaStreamSynchronize(stream)", "cudaEventRecord(start, stream)", "cudaEventSynchronize(stop)",
    "cudaDeviceSynchronize()", "cudaGetLastError()", "cudaMemcpyToSymbol(c_params, &params, sizeof(params))",
    "cudaEventElapsedTime(&ms, start, stop)", "cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)",
]

KERNEL = """
// {name}: {comment}
template <int BLOCK>
__global__ void {name}(const float* __restrict__ in, float* __restrict__ out, int n) {{
  __shared__ float tile[BLOCK];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * BLOCK + tid;
  float v = i < n ? __ldg(&in[i]) * {scale}f : 0.0f;
  tile[tid] = v;
  __syncthreads();
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  const int lane = tid % 32;
  if (lane == 0) atomicAdd(&out[blockIdx.x], v + tile[(tid + 1) % BLOCK]);
  out[i % n] = fmaxf(rsqrtf(fabsf(v) + 1.0f), __expf(-v));
}}
"""

HOST = """
/* {name}_host: runs {name} and checks for errors ("cudaMalloc failed" stays a string). */
void {name}_host(float* h_a, int n) {{
  float* a = nullptr;
  float ms = 0.0f;
  cudaStream_t stream;
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
{calls}
  {name}<256><<<(n + 255) / 256, 256, 0, stream>>>(a, a, n);
  CUDA_CHECK(cudaGetLastError());
  printf("%s took %f ms (cudaMemcpy included)\\n", "{name}", ms);
}}
"""

HEADER = """#pragma once
#include <cstdio>
#include <cuda_runtime.h>
#define CUDA_CHECK(call) do {{ cudaError_t e_ = (call); if (e_ != cudaSuccess) {{ \\
    std::fprintf(stderr, "%s:%d %s\\n", __FILE__, __LINE__, cudaGetErrorString(e_)); }} }} while (0)
struct Params{i} {{ float scale; int steps; }};
__constant__ Params{i} c_params;
"""

WORDS = "particle integrate reduce scan gather scatter stencil filter blend histogram normalise sample".split()


def make_file(rng, index, target_bytes):
    parts = [f'#include "common_{index % 16}.cuh"\n#include <curand_kernel.h>\n']
    size = len(parts[0])
    k = 0
    while size < target_bytes:
        name = f"{rng.choice(WORDS)}_{index}_{k}"
        kernel = KERNEL.format(name=name, comment=" ".join(rng.choice(WORDS) for _ in range(8)),
                               scale=rng.randint(1, 99))
        calls = "\n".join("  CUDA_CHECK(" + rng.choice(API_CALLS).format(v="a", n="n") + ");"
                          for _ in range(rng.randint(4, 9)))
        host = HOST.format(name=name, calls=calls).replace("Params params", "")
        parts += [kernel, host]
        size += len(kernel) + len(host)
        k += 1
    return "".join(parts)


def generate(root, total_mb, seed):
    rng = random.Random(seed)
    if os.path.isdir(root):
        shutil.rmtree(root)
    os.makedirs(root)
    total = 0
    files = 0
    for i in range(16):
        text = HEADER.format(i=i)
        with open(os.path.join(root, f"common_{i}.cuh"), "w") as f:
            f.write(text)
        total += len(text)
    index = 0
    while total < total_mb * 1_000_000:
        sub = os.path.join(root, f"module_{index // 50}")
        os.makedirs(sub, exist_ok=True)
        text = make_file(rng, index, rng.randint(60_000, 140_000))
        # headers live in the corpus root; files in module folders reach them with ../
        text = text.replace('#include "common_', '#include "../common_')
        with open(os.path.join(sub, f"unit_{index}.cu"), "w") as f:
            f.write(text)
        total += len(text)
        files += 1
        index += 1
    return total, files + 16


def timed(make_cmd, out_root, runs):
    """Best wall time of `runs` runs. Each run writes into a fresh folder: deleting the last
    run's tree first would make the file system's inode reuse part of the measurement."""
    best = None
    os.makedirs(out_root, exist_ok=True)
    for run in range(runs):
        cmd = make_cmd(os.path.join(out_root, f"run{run}"))
        start = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if r.returncode not in (0, 1):
            sys.exit(f"command failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr.decode()[-2000:]}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gpuport", default=os.path.join(repo, "build", "bin", "gpuport"))
    p.add_argument("--work", default=os.path.join(repo, "build", "bench"))
    p.add_argument("--mb", type=int, default=64, help="corpus size in MB (default 64)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--json", help="write the figures to this file")
    a = p.parse_args()

    corpus = os.path.join(a.work, "corpus")
    out = os.path.join(a.work, "out")
    total, files = generate(corpus, a.mb, a.seed)
    mb = total / 1e6

    def clean():
        shutil.rmtree(out, ignore_errors=True)

    rows = []
    clean()
    t_copy = timed(lambda o: ["cp", "-r", corpus, o], os.path.join(out, "cp"), a.runs)
    rows.append(("baseline: cp -r", t_copy))
    for jobs in (1, 2):
        rows.append((f"gpuport translate -o -j {jobs}",
                     timed(lambda o: [a.gpuport, "translate", corpus, "-o", o, "-j", str(jobs), "--no-progress", "-q"],
                           os.path.join(out, f"j{jobs}"), a.runs)))
    for jobs in (1, 2):
        rows.append((f"gpuport translate --dry-run -j {jobs}",
                     timed(lambda o: [a.gpuport, "translate", corpus, "--dry-run", "-j", str(jobs), "--no-progress", "-q"],
                           os.path.join(out, f"d{jobs}"), a.runs)))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)

    print(f"corpus: {files} files, {mb:.1f} MB (seed {a.seed}); best of {a.runs} runs; {os.cpu_count()} CPUs")
    print(f"{'command':<34} {'seconds':>8} {'MB/s':>8} {'x baseline':>11}")
    for name, t in rows:
        print(f"{name:<34} {t:8.3f} {mb / t:8.1f} {t / t_copy:11.2f}")
    print(f"peak RSS of any run: {usage.ru_maxrss / 1024:.0f} MiB")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"files": files, "megabytes": mb, "runs": a.runs,
                       "results": [{"command": n, "seconds": t, "mb_per_s": mb / t} for n, t in rows],
                       "peak_rss_mib": usage.ru_maxrss / 1024}, f, indent=2)
    clean()


if __name__ == "__main__":
    main()
