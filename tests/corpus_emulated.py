#!/usr/bin/env python3
"""CI check of the benchmark corpus: `gpuport verify bench/corpus --emulate --no-run` must build
every program in all four steps, and run every gfx1100 build on the emulator with PASS in wave32
and in wave64, except the wave64 failures listed with their reason in
bench/corpus/wave64-known-failures.txt (which must still fail: a fixed one is to be removed).

With HIP_VERSION 6.4 the translations target HIP 6.4 and build against it: HIP-on-NVIDIA and the
wave64 build must then be skipped (HIP 6.4 has no NVIDIA platform headers here, and its
hip_runtime.h refuses wave64 on gfx11), everything else as above.

Programs that use CUDA's libraries (bench/corpus/libraries) are skipped, with the reason printed,
where this machine cannot build or run them, and only then: a HIP without that library to link
(verify's step message names --hip-version 6.4), no HIP-on-NVIDIA build of it, a ROCm library
without gfx1100 code (Debian 12's rocRAND and rocSPARSE 5.3), or one not unpacked
(scripts/fetch-rocm-6.4-libs).

Usage: corpus_emulated.py GPUPORT SOURCE_DIR WORK_DIR [HIP_VERSION (default 5.2)] [CACHE_DIR]"""
import json
import os
import subprocess
import sys

gpuport, source, work = sys.argv[1:4]
hip = sys.argv[4] if len(sys.argv) > 4 else "5.2"
cache = ["--cache", sys.argv[5]] if len(sys.argv) > 5 else []
hip5 = hip.startswith("5.")
report = os.path.join(work, "report.json")
r = subprocess.run([gpuport, "verify", os.path.join(source, "bench", "corpus"), "--emulate", "--no-run", "-q", "--work", work,
                    "--json", report, "--html", os.path.join(work, "report.html"), "--timeout", "600",
                    "--hip-version", hip] + cache,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(r.stdout[-4000:])
known = {}
with open(os.path.join(source, "bench", "corpus", "wave64-known-failures.txt")) as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            name, why = line.rstrip("\n").split("\t", 1)
            known[name] = why
data = json.load(open(report))
problems = []
skipped = []
# Why a library program cannot be built or run here (verify's messages, gpuport run's errors).
CANNOT_HERE = ("--hip-version 6.4", "built for HIP's NVIDIA platform", "has no gfx1100 code object", "fetch-rocm-6.4-libs")
for p in data["programs"]:
    name = p["name"]
    library = p["domain"] == "libraries"
    reasons = [s["message"] for s in p["steps"].values() if s["status"] == "skipped" and any(c in s["message"] for c in CANNOT_HERE)]
    run_tail = p["run"]["gfx1100_emulated"].get("output_tail", "")
    if p["run"]["gfx1100_emulated"]["outcome"] != "PASS" and any(c in run_tail for c in CANNOT_HERE):
        reasons.append(run_tail.strip().splitlines()[-1])
    if library and reasons:
        skipped.append("%s: SKIPPED: %s" % (name, "; ".join(sorted(set(r.splitlines()[0] for r in reasons)))))
        if p["steps"]["compile_amd"]["status"] == "skipped" or p["run"]["gfx1100_emulated"]["outcome"] != "PASS":
            continue
    for step, s in p["steps"].items():
        expected = "ok" if hip5 or step != "build_hip_nvidia" else "skipped"
        if s["status"] != expected and not (library and s["status"] == "skipped" and any(c in s["message"] for c in CANNOT_HERE)):
            problems.append("%s: %s %s" % (name, step, s["status"]))
    w32 = p["run"]["gfx1100_emulated"]["outcome"]
    w64 = p["run"]["gfx1100_wave64_emulated"]["outcome"]
    if w32 != "PASS":
        problems.append("%s: gfx1100 wave32 (emulated) %s" % (name, w32))
    if not hip5:
        if w64 != "not run":
            problems.append("%s: HIP %s built wave64 for gfx11, which its headers refuse" % (name, hip))
    elif name in known:
        if w64 == "PASS":
            problems.append("%s: now PASSes in wave64: remove it from wave64-known-failures.txt" % name)
    elif w64 != "PASS":
        problems.append("%s: gfx1100 wave64 (emulated) %s" % (name, w64))
if len(data["programs"]) < 75:
    problems.append("only %d programs" % len(data["programs"]))
for line in skipped:
    print("corpus_emulated: " + line)
for line in problems:
    print("corpus_emulated: " + line)
print("corpus_emulated: HIP %s, %d programs, %d skipped here, %d known wave64 failures, %d problems" %
      (hip, len(data["programs"]), len(skipped), len(known), len(problems)))
sys.exit(1 if problems else 0)
