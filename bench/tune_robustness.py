#!/usr/bin/env python3
"""Runs `gpuport tune --prepare` on every kernel of CUDA code nobody in this project wrote, and
counts what happens: kernels prepared, refused (by diagnostic), candidates proved, candidates
rejected by the proof (a gpuport bug), crashes and timeouts. Nothing here needs a GPU.

  python3 bench/tune_robustness.py --cuda-samples DIR --llmc DIR [--work DIR] [--markdown FILE]
  python3 bench/tune_robustness.py --sources DIR [--include DIR ...] [--nvcc-flag FLAG ...]

The known sources are public checkouts, cloned as a user would:
  git clone https://github.com/NVIDIA/cuda-samples && git -C cuda-samples checkout c94ff366aed1
  git clone https://github.com/karpathy/llm.c && git -C llm.c checkout f1e2ace65149
  (--cuda-samples-11 DIR: the same repository at tag v11.8, for samples whose newest version
  needs CUDA 12 APIs; only reduction is taken from it)

Each .cu is compiled to an sm_90 cubin with Debian's CUDA 11.8: through `gpuport sass
--save-temps` (the project's own path, with its host include filter), or, for sources that need
extra nvcc flags (llm.c: -std=c++17 --use_fast_math, as its Makefile; the cdp samples:
-rdc=true), nvcc 11.8 directly with the same host include flags. Each entry kernel (from `gpuport sass CUBIN`) then gets
  gpuport tune CUBIN --kernel NAME --candidates 4 --steps 4000 --prepare DIR
one at a time, with a timeout. Rows go to WORK/results.jsonl as they come (--resume reuses
them); prepared folders are kept only where something went wrong (--keep-all keeps them all).
"""
import argparse
import datetime
import functools
import glob
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GPUPORT = os.path.join(ROOT, "build", "bin", "gpuport")
NVCC11 = "/usr/lib/nvidia-cuda-toolkit/bin/nvcc"
NVCC11_PATH = "/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:/bin"

# Refusals the tool documents for kernels it cannot handle; any other diagnostic from a kernel
# named by its own listing is unexpected.
EXPECTED_REFUSALS = {"tune-nvinfo", "tune-not-schedulable"}

# cuda-samples: every Samples/**/*.cu except these (library-heavy, other platforms' graphics
# APIs, or headers that are not on a Linux machine without a GPU).
CUDA_SAMPLES_SKIP = {
    "Samples/2_Concepts_and_Techniques/radixSortThrust/": "Thrust-heavy",
    "Samples/2_Concepts_and_Techniques/segmentationTreeThrust/": "Thrust-heavy",
    "Samples/2_Concepts_and_Techniques/reduction/": "needs CUDA 12's cg::block_tile_memory: taken from tag v11.8",
    "Samples/4_CUDA_Libraries/": "CUDA libraries (cuFFT, cuBLAS, cuSOLVER, NPP...)",
    "Samples/5_Domain_Specific/fluidsGL/": "cuFFT",
    "Samples/5_Domain_Specific/simpleD3D": "Direct3D",
    "Samples/5_Domain_Specific/vulkanImageCUDA/": "GLFW/Vulkan headers",
    "Samples/8_Platform_Specific/": "Tegra/Windows platform samples",
}
# Samples built with more than the defaults, as their Makefiles: dynamic parallelism needs
# relocatable device code (a relocatable cubin, the device runtime's calls left as relocations).
CUDA_SAMPLES_FLAGS = {"Samples/3_CUDA_Features/cdp": ["-rdc=true"]}
CUDA_SAMPLES_11_ONLY = ["Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu"]
# llm.c's dev/cuda kernels, with its Makefile's flags; nccl_all_reduce needs MPI and NCCL.
LLMC_FLAGS = ["-std=c++17", "--use_fast_math"]
LLMC_SKIP = {"dev/cuda/nccl_all_reduce.cu": "MPI + NCCL"}


class Source:
    """One .cu file: `name` is checkout/relative path, `ident` the same as one folder name."""

    def __init__(self, checkout, root, rel, includes, flags):
        self.checkout, self.path, self.includes, self.flags = checkout, os.path.join(root, rel), includes, flags
        self.commit = checkout_commit(root)
        self.name = f"{checkout}/{rel}"
        self.ident = re.sub(r"[^A-Za-z0-9_.-]", "_", self.name.replace("/Samples/", "/")[:-len(".cu")])


@functools.lru_cache(maxsize=None)
def checkout_commit(root):
    run = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True)
    if run.returncode == 0:
        return run.stdout.strip()
    note = os.path.join(root, "COMMIT")  # a tree exported from a mirror says its commit here
    return open(note).read().strip() if os.path.exists(note) else "unknown"


def known_sources(a):
    sources, skipped = [], []

    def add(checkout, root, rel, includes, flags):
        sources.append(Source(checkout, root, rel, includes, flags))

    if a.cuda_samples:
        common = [os.path.join(a.cuda_samples, "Common")]
        for path in sorted(glob.glob(os.path.join(a.cuda_samples, "Samples", "**", "*.cu"), recursive=True)):
            rel = os.path.relpath(path, a.cuda_samples)
            why = next((w for prefix, w in CUDA_SAMPLES_SKIP.items() if rel.startswith(prefix)), None)
            if why:
                skipped.append((f"cuda-samples/{rel}", why))
                continue
            here = os.path.dirname(path)
            extra = [d for d in (os.path.join(here, "inc"), os.path.join(here, "..", "inc")) if os.path.isdir(d)]
            flags = next((f for prefix, f in CUDA_SAMPLES_FLAGS.items() if rel.startswith(prefix)), [])
            add("cuda-samples", a.cuda_samples, rel, common + extra, flags)
    if a.cuda_samples_11:
        for rel in CUDA_SAMPLES_11_ONLY:
            add("cuda-samples@v11.8", a.cuda_samples_11, rel, [os.path.join(a.cuda_samples_11, "Common")], [])
    if a.llmc:
        for path in sorted(glob.glob(os.path.join(a.llmc, "dev", "cuda", "*.cu"))):
            rel = os.path.relpath(path, a.llmc)
            if rel in LLMC_SKIP:
                skipped.append((f"llm.c/{rel}", LLMC_SKIP[rel]))
                continue
            add("llm.c", a.llmc, rel, [], LLMC_FLAGS)
    for folder in a.sources:
        name = os.path.basename(os.path.normpath(folder))
        for path in sorted(glob.glob(os.path.join(folder, "**", "*.cu"), recursive=True)):
            add(name, folder, os.path.relpath(path, folder), a.include, a.nvcc_flag)
    if a.only:
        sources = [s for s in sources if re.search(a.only, s.name)]
    return sources, skipped


# --- running gpuport (the binary may be rebuilt while this runs: wait for it) -----------------

def wait_for_gpuport():
    for _ in range(60):
        try:
            if os.access(GPUPORT, os.X_OK) and time.time() - os.path.getmtime(GPUPORT) > 15:
                return
        except OSError:
            pass
        time.sleep(10)
    sys.exit(f"{GPUPORT} missing or changing for 10 minutes")


def gpuport_build():
    wait_for_gpuport()
    with open(GPUPORT, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def run(cmd, timeout, env=None):
    """(exit status or 'timeout', stdout, stderr, seconds); the whole process group dies on timeout."""
    for _ in range(10):
        if cmd[0] == GPUPORT:
            wait_for_gpuport()
        start = time.time()
        try:
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                 start_new_session=True)
        except (PermissionError, FileNotFoundError):
            time.sleep(30)  # mid-link
            continue
        try:
            out, err = p.communicate(timeout=timeout)
            status = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            status = "timeout"
        if status in (126, 127) and cmd[0] == GPUPORT:
            time.sleep(30)
            continue
        return status, out, err, time.time() - start
    sys.exit(f"could not run {cmd[0]}")


def diagnostic_code(text):
    codes = re.findall(r"\[([a-z][a-z0-9-]*)\]\s*$", text, re.M)
    return codes[0] if codes else ""


# --- compiling ----------------------------------------------------------------------------------

_host_flags = None


def host_include_flags():
    # As src/common/nvcc11.cc: clang-14's include path without the folders holding CUDA 13's
    # headers (/usr/local/include), which break nvcc 11.8.
    global _host_flags
    if _host_flags is None:
        err = subprocess.run(["clang-14", "-x", "c++", "-E", "-v", "/dev/null"], capture_output=True, text=True).stderr
        dirs = err.split("search starts here:")[-1].split("End of search list")[0].splitlines()
        dirs = [d.strip() for d in dirs if d.startswith(" ")]
        dirs = [d for d in dirs if d == "/usr/include" or not os.path.exists(os.path.join(d, "cuda_runtime_api.h"))]
        _host_flags = ["-Xcompiler", "-nostdinc"] + [f for d in dirs for f in ("-Xcompiler", "-isystem," + d)]
    return _host_flags


def compile_command(source, out_dir):
    includes = [f for d in source.includes for f in ("-I", d)]
    if not source.flags:
        return [GPUPORT, "sass", "--save-temps", out_dir, source.path, "--arch", "sm_90", *includes, "--print"]
    cubin = os.path.join(out_dir, os.path.basename(source.path)[:-3] + ".sm_90.cubin")
    return [NVCC11, "-ccbin", "clang-14", *host_include_flags(), "-I", os.path.dirname(source.path), *includes,
            *source.flags, "-cubin", "-O3", "-arch=sm_90", "-o", cubin, source.path]


def compile_source(source, out_dir, timeout):
    os.makedirs(out_dir, exist_ok=True)
    cmd = compile_command(source, out_dir)
    env = None  # gpuport sets nvcc 11.8's environment itself; a direct nvcc call gets the same
    if cmd[0] != GPUPORT:
        env = {k: v for k, v in os.environ.items() if k not in ("CUDA_HOME", "CUDA_PATH", "CPATH", "LIBRARY_PATH")}
        env["PATH"] = NVCC11_PATH
    status, _, err, seconds = run(cmd, timeout, env)
    cubins = glob.glob(os.path.join(out_dir, "*.sm_90.cubin"))
    if status != 0 or not cubins:
        errors = [l.strip() for l in err.splitlines() if re.search(r"error|fatal", l) and "failed (exit" not in l]
        return None, cmd, seconds, f"exit {status}: " + (errors[0] if errors else err.strip()[-300:])
    return cubins[0], cmd, seconds, ""


def list_kernels(cubin):
    status, out, err, _ = run([GPUPORT, "sass", cubin], 300)
    names = [l[len("kernel "):].split(":")[0] for l in out.splitlines() if l.startswith("kernel ")]
    return names, ("" if status == 0 else f"gpuport sass exit {status}: {err.strip()[-300:]}")


# --- tuning -------------------------------------------------------------------------------------

def tune_kernel(source, cubin, kernel, prepared, a):
    cmd = [GPUPORT, "tune", cubin, "--kernel", kernel, "--candidates", str(a.candidates), "--steps", str(a.steps),
           "--prepare", prepared]
    if os.path.exists(prepared):
        subprocess.run(["rm", "-rf", prepared])
    build = gpuport_build()
    status, out, err, seconds = run(cmd, a.timeout)
    row = {"source": source.name, "cubin": cubin, "kernel": kernel, "prepared": prepared, "command": shlex.join(cmd),
           "exit": status, "seconds": round(seconds, 2), "gpuport": build, "instructions": None, "blocks": None,
           "movable": None, "candidates": 0, "rejected": [], "best_gain": None, "stalls_raised": 0,
           "search_stopped_by_time": False, "code": "", "message": ""}
    manifest = os.path.join(prepared, "tune.json")
    if status == "timeout":
        row["status"] = "timeout"
    elif status == 0 and os.path.exists(manifest):
        m = json.load(open(manifest))
        row.update(instructions=m["instructions"], blocks=m["blocks"], candidates=len(m["candidates"]),
                   rejected=m["rejected"], best_gain=max((c["model_gain"] for c in m["candidates"]), default=None),
                   stalls_raised=sum(c.get("stalls_raised", 0) for c in m["candidates"]),
                   search_stopped_by_time=m.get("search_stopped_by_time", False))
        movable = re.search(r"\((\d+) with room to move\)", out)
        row["movable"] = int(movable.group(1)) if movable else None
        row["status"] = "rejected" if m["rejected"] else "prepared"
    elif status == 2:
        row["code"] = diagnostic_code(err)
        row["message"] = err.strip()[:600]
        row["status"] = "refused" if row["code"] in EXPECTED_REFUSALS else "unexpected"
    else:  # a signal (negative), an abort, or success without a manifest
        row["status"] = "crash"
        row["message"] = (err.strip() or out.strip())[-600:]
    return row


def failed(row):
    return row["status"] not in ("prepared", "refused")


# --- reporting ----------------------------------------------------------------------------------

def gain_text(g):
    return "-" if g is None else f"{100 * g:+.1f}%"


def totals(compiles, rows, skipped):
    t = {
        "sources skipped": len(skipped),
        "sources compiled": sum(1 for c in compiles if c["cubin"]),
        "sources not compiled": sum(1 for c in compiles if not c["cubin"]),
        "kernels tried": len(rows),
        "prepared": sum(r["status"] in ("prepared", "rejected") for r in rows),
        "prepared with candidates": sum(r["candidates"] > 0 for r in rows),
        "candidates proved": sum(r["candidates"] for r in rows),
        "candidates rejected": sum(len(r["rejected"]) for r in rows),
        "searches stopped by their time limit": sum(bool(r.get("search_stopped_by_time")) for r in rows),
        "crashes": sum(r["status"] == "crash" for r in rows),
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "tune seconds": round(sum(r["seconds"] for r in rows), 1),
    }
    for code in sorted({r["code"] for r in rows if r["code"]}):
        kind = "refused" if code in EXPECTED_REFUSALS else "unexpected refusal"
        t[f"{kind} [{code}]"] = sum(r["code"] == code for r in rows)
    return t


def print_report(compiles, rows, skipped):
    print(f"{'source':<48} {'kernel':<44} {'status':<10} {'instr':>6} {'blk':>4} {'cand':>4} {'rej':>3} "
          f"{'best':>7} {'secs':>6}")
    for r in rows:
        status = r["status"] if not r["code"] else r["code"]
        print(f"{r['source'][-48:]:<48} {r['kernel'][:44]:<44} {status:<10} {r['instructions'] or '-':>6} "
              f"{r['blocks'] or '-':>4} {r['candidates']:>4} {len(r['rejected']):>3} {gain_text(r['best_gain']):>7} "
              f"{r['seconds']:>6.1f}")
    print()
    for c in compiles:
        if not c["cubin"]:
            print(f"not compiled: {c['source']}: {c['message'][:200]}")
    for r in rows:
        if failed(r):
            print(f"{r['status'].upper()}: {r['source']} {r['kernel']}: "
                  f"{'; '.join(r['rejected']) or r['message'][:300]}\n  {r['command']}")
    print()
    for k, v in totals(compiles, rows, skipped).items():
        print(f"{k:<40} {v}")


def write_markdown(path, a, sources, compiles, rows, skipped, elapsed):
    builds = sorted({r["gpuport"] for r in rows})
    head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src"], capture_output=True, text=True).stdout
    L = [f"# gpuport tune --prepare on public CUDA code",
         "",
         f"Written {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; this invocation took {elapsed / 60:.1f} min"
         f"{' (--resume: earlier rows reused)' if a.resume else ''}. gpuport at `{head}`"
         f"{' (src/ with uncommitted edits)' if dirty else ''}; binary sha256 prefix(es): {', '.join(builds)}.",
         "",
         "## Sources",
         ""]
    for checkout, commit in sorted({(s.checkout, s.commit) for s in sources}):
        L.append(f"- {checkout}: commit {commit}")
    L += ["", "## Commands", "", "```", "python3 " + shlex.join([os.path.relpath(__file__, ROOT)] + sys.argv[1:]), "```", "",
          "Per source (gpuport's own compile path; sources with extra flags through nvcc 11.8 directly) and per kernel:",
          "", "```"]
    if compiles:
        L.append(compiles[0]["command"])
        nv = next((c for c in compiles if not c["command"].startswith(GPUPORT)), None)
        if nv:
            L.append(nv["command"])
    if rows:
        L.append(rows[0]["command"])
    L += ["```", "", "## Totals", "", "| | |", "|---|---:|"]
    L += [f"| {k} | {v} |" for k, v in totals(compiles, rows, skipped).items()]
    L += ["", "## Rejected candidates, crashes, timeouts, unexpected refusals", ""]
    bad = [r for r in rows if failed(r)]
    if not bad:
        L.append("None.")
    for r in bad:
        L += [f"- **{r['status']}** `{r['kernel']}` ({r['source']}), exit {r['exit']}, {r['seconds']} s",
              f"  - cubin: `{r['cubin']}`, prepared: `{r['prepared']}`",
              f"  - reproduce: `{r['command']}`"]
        for why in r["rejected"]:
            L.append(f"  - rejected {why} (gpuport keeps the cubin as candidates/<id>.rejected)")
        if r["message"]:
            L += ["  - message:", "", "    ```", *["    " + l for l in r["message"].splitlines()[:12]], "    ```"]
    L += ["", "## Sources not compiled", ""]
    L += [f"- {c['source']}: {c['message'][:300]}" for c in compiles if not c["cubin"]] or ["None."]
    L += ["", "## Sources skipped", ""] + [f"- {s}: {why}" for s, why in skipped]
    L += ["", "## Per kernel", "",
          "| source | kernel | status | instr | blocks | movable | cands | rejected | model best | s |",
          "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        L.append(f"| {r['source']} | `{r['kernel']}` | {r['status']}{' [' + r['code'] + ']' if r['code'] else ''} | "
                 f"{r['instructions'] or '-'} | {r['blocks'] or '-'} | {r['movable'] if r['movable'] is not None else '-'} | "
                 f"{r['candidates']} | {len(r['rejected'])} | {gain_text(r['best_gain'])} | {r['seconds']} |")
    refusals = [r for r in rows if r["status"] == "refused"]
    if refusals:
        L += ["", "## Refusals (expected kinds), first line of each", ""]
        L += [f"- `{r['kernel']}`: {r['message'].splitlines()[0][:300]}" for r in refusals]
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cuda-samples", help="a checkout of NVIDIA/cuda-samples")
    p.add_argument("--cuda-samples-11", help="NVIDIA/cuda-samples at tag v11.8 (reduction only)")
    p.add_argument("--llmc", help="a checkout of karpathy/llm.c")
    p.add_argument("--sources", action="append", default=[], help="a folder of .cu files (all of them, recursively)")
    p.add_argument("--include", action="append", default=[], help="include folder for --sources")
    p.add_argument("--nvcc-flag", action="append", default=[], help="extra nvcc flag for --sources")
    p.add_argument("--only", help="regular expression on the source name")
    p.add_argument("--work", default=os.path.join(ROOT, "tune-robustness"))
    p.add_argument("--markdown", help="also write the summary here")
    p.add_argument("--candidates", type=int, default=4)
    p.add_argument("--steps", type=int, default=4000)
    p.add_argument("--timeout", type=int, default=300, help="seconds per compile and per kernel")
    p.add_argument("--resume", action="store_true", help="reuse the rows of WORK/results.jsonl")
    p.add_argument("--keep-all", action="store_true", help="keep every prepared folder, not only the failures'")
    a = p.parse_args()
    a.include = [os.path.abspath(d) for d in a.include]
    sources, skipped = known_sources(a)
    if not sources:
        p.error("no sources: give --cuda-samples, --llmc or --sources")

    os.makedirs(a.work, exist_ok=True)
    log_path = os.path.join(a.work, "results.jsonl")
    done = {}
    if a.resume and os.path.exists(log_path):
        for line in open(log_path):
            r = json.loads(line)
            done[(r["kind"], r["source"], r.get("kernel", ""))] = r
    log = open(log_path, "a" if a.resume else "w")

    def record(r):
        log.write(json.dumps(r) + "\n")
        log.flush()

    start = time.time()
    compiles, rows = [], []
    for s in sources:
        c = done.get(("compile", s.name, ""))
        if c is None or not c["cubin"] or not os.path.exists(c["cubin"]):
            cubin, cmd, seconds, message = compile_source(s, os.path.join(a.work, "cubins", s.ident), a.timeout)
            kernels, why = list_kernels(cubin) if cubin else ([], "")
            c = {"kind": "compile", "source": s.name, "cubin": cubin, "command": shlex.join(cmd),
                 "seconds": round(seconds, 2), "message": message or why, "kernels": kernels}
            record(c)
        compiles.append(c)
        print(f"{s.name}: {len(c['kernels'])} kernels" if c["cubin"] else f"{s.name}: not compiled: {c['message'][:160]}",
              file=sys.stderr)
        for i, kernel in enumerate(c["kernels"]):
            r = done.get(("tune", s.name, kernel))
            if r is None:
                prepared = os.path.join(a.work, "prepared", s.ident, f"k{i:02d}")
                r = {"kind": "tune", **tune_kernel(s, c["cubin"], kernel, prepared, a)}
                if not failed(r) and not a.keep_all:
                    subprocess.run(["rm", "-rf", prepared])
                    if not os.listdir(os.path.dirname(prepared)):
                        os.rmdir(os.path.dirname(prepared))
                record(r)
            rows.append(r)
            print(f"  {kernel[:60]}: {r['status']} {r['code']} {r['candidates']} cands {r['seconds']:.1f} s", file=sys.stderr)

    print_report(compiles, rows, skipped)
    if a.markdown:
        write_markdown(a.markdown, a, sources, compiles, rows, skipped, time.time() - start)
    return 1 if any(failed(r) for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
