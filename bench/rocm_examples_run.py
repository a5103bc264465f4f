#!/usr/bin/env python3
"""Builds AMD's rocm-examples (HIP-Basic and the other example folders given) for gfx1100 with
clang-19, against HIP 5.2 (Debian 12) or HIP 6.4 (build/rocm-6.4, scripts/fetch-rocm-6.4), and
runs each under `gpuport run`, as a user who holds only this machine would. Each example checks
its own result (exit status); the table says, per example, whether it built, ran and passed, with
the first error line where it did not.

An example is built from its folder's .hip/.cpp sources (what its Makefile compiles) with
Common/ on the include path; the few whose build does more are built as their Makefiles say
(module_api: module.hip as a code object it loads; static_device_library: -fgpu-rdc; hipify:
main.cu translated by `gpuport translate`, where the Makefile runs hipify-perl).

Usage: bench/rocm_examples_run.py EXAMPLES_ROOT --hip 6.4 [--folders HIP-Basic Applications]
                                   [--only NAME ...] [--timeout S] [--out DIR]
EXAMPLES_ROOT holds the example folders and Common/ (e.g. `git archive HEAD HIP-Basic
Applications Common` of ROCm/rocm-examples).
"""
import argparse
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
LIBRARIES = ["hiprand", "rocrand", "hipblas", "rocblas", "hipsparse", "rocsparse", "hipfft", "rocfft", "hipsolver",
             "rocsolver"]


def compiler(hip):
    base = ["clang-19", "-x", "hip", "--offload-arch=gfx1100", "-O2", "-std=c++17",
            "--rocm-device-lib-path=" + str(BUILD / "rocm-device-libs"), "-w"]
    if hip == "5.2":
        return base + ["--rocm-path=/usr"], ["-lamdhip64", "-lstdc++", "-lm"]
    r = BUILD / "rocm-6.4" / "usr"
    return (base + ["@" + str(BUILD / "rocm-6.4" / "clang-hip.rsp")],
            ["-L" + str(r / "lib" / "x86_64-linux-gnu"), "-Wl,--unresolved-symbols=ignore-in-shared-libs",
             "-lamdhip64", "-lstdc++", "-lm"])


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()[:160]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:160] if lines else ""


def build(example, root, out, hip):
    cc, link = compiler(hip)
    sources = sorted(p for p in example.iterdir() if p.suffix in (".hip", ".cpp"))
    steps = []
    exe = out / example.name
    includes = ["-I" + str(root / "Common"), "-I" + str(example)]
    if example.name == "module_api":
        steps.append(cc + ["--cuda-device-only", "--no-gpu-bundle-output", "-c", str(example / "module.hip"),
                           "-o", str(out / "module.co")] + includes)
        sources = [example / "main.hip"]
    if (example / "library").is_dir():
        includes.append("-I" + str(example / "library"))
        sources += sorted(p for p in (example / "library").iterdir() if p.suffix in (".hip", ".cpp"))
        if example.name == "static_device_library":
            cc = cc + ["-fgpu-rdc"]
            link = ["-fgpu-rdc", "--hip-link"] + link
    if example.name == "hipify":
        # The example's build runs hipify-perl on main.cu; gpuport translate takes its place.
        hip = out / "main.hip"
        r = subprocess.run([str(BUILD / "bin" / "gpuport"), "translate", str(example / "main.cu"), "-q"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None, "gpuport translate: " + first_error(r.stderr)
        if hip.is_dir():
            import shutil
            shutil.rmtree(hip)
        hip.write_text(r.stdout)
        sources = [hip]
    if not sources:
        return None, "no .hip or .cpp sources"
    # The ROCm libraries the sources include, linked as their Makefiles link them; for HIP 6.4 from
    # sid (scripts/fetch-rocm-6.4-libs), for HIP 5.2 from Debian 12 where it has them.
    text = "".join(p.read_text(errors="replace") for p in sources)
    libraries = [name for name in LIBRARIES if f"<{name}/" in text or f"<{name}.h" in text]
    if libraries and hip == "6.4":
        link = ["-L" + str(BUILD / "rocm-6.4-libs" / "usr" / "lib" / "x86_64-linux-gnu")] + link
    link = ["-l" + name for name in libraries] + link
    steps.append(cc + includes + [str(s) for s in sources] + ["-o", str(exe)] + link)
    for cmd in steps:
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=out)
        if r.returncode != 0:
            return None, first_error(r.stderr + r.stdout)
    return exe, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=pathlib.Path)
    ap.add_argument("--hip", choices=["5.2", "6.4"], default="6.4")
    ap.add_argument("--folders", nargs="*", default=["HIP-Basic", "Applications"])
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path("/tmp/gpuport-rocm-examples"))
    a = ap.parse_args()
    # An example is a folder with a main.* (Libraries/rocBLAS/level_1/axpy); HIP-Basic's others
    # (hipify: main.cu) count too.
    def examples_under(folder):
        found = []
        for p in sorted(folder.iterdir()):
            if not p.is_dir():
                continue
            if any(q.stem == "main" for q in p.iterdir()):
                found.append(p)
            else:
                found += examples_under(p)
        return found
    examples = [p for f in a.folders for p in examples_under(a.root / f)]
    if a.only:
        examples = [p for p in examples if p.name in a.only]
    rows, passed, built = [], 0, 0
    for ex in examples:
        label = str(ex.relative_to(a.root))
        out = a.out / a.hip / label
        out.mkdir(parents=True, exist_ok=True)
        exe, why = build(ex, a.root, out, a.hip)
        if not exe:
            rows.append((label, "build failed", why, 0.0))
            continue
        built += 1
        start = time.time()
        try:
            r = subprocess.run([str(BUILD / "bin" / "gpuport"), "run", "--", str(exe)], capture_output=True, text=True,
                               cwd=out, timeout=a.timeout)
            seconds = time.time() - start
            if r.returncode == 0:
                passed += 1
                rows.append((label, "pass", "", seconds))
            else:
                rows.append((label, f"exit {r.returncode}", first_error(r.stderr + r.stdout), seconds))
        except subprocess.TimeoutExpired:
            rows.append((label, "timeout", f"over {a.timeout:.0f} s", time.time() - start))
    print(f"# rocm-examples ({', '.join(a.folders)}) on gpuport run, built against HIP {a.hip} (gfx1100, emulated)")
    print("| example | result | seconds | first error |")
    print("|---|---|---|---|")
    for name, result, why, seconds in rows:
        print(f"| {name} | {result} | {seconds:.1f} | {why.replace('|', '/')} |")
    print(f"\n{passed} of {len(rows)} pass; {built} built")
    return 0


if __name__ == "__main__":
    sys.exit(main())
