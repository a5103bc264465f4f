#!/usr/bin/env python3
"""CI check of the emulator's two tiers on the benchmark corpus: every gfx1100 build that
corpus_builds left in its work folder (WORK/<domain>/<program>/translated-gfx1100 and
translated-gfx1100-wave64) runs under `gpuport run --jit compare`, which runs each launch on the
JIT's compiled code and again, from the same memory, on the interpreter, and stops the program
(exit 70, "--jit compare: kernel K: the compiled code differs ...") at the first difference in
memory, fault or instruction counts.

A build fails this check when the tiers differ, or when it does not PASS its own check where
corpus_builds requires it to (wave64 builds listed in bench/corpus/wave64-known-failures.txt may
fail their check, not differ; a library program that cannot run here, for corpus_emulated.py's
reasons, is skipped with its reason). Launches that make hostcalls (device printf) run on the
interpreter only and are counted apart. Programs run two at a time (each compare is one host
thread).

Usage: corpus_tiers.py GPUPORT SOURCE_DIR WORK_DIR"""
import concurrent.futures
import os
import re
import subprocess
import sys

gpuport, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
if not os.path.isdir(work):
    print("corpus_tiers: %s missing: run corpus_builds first" % work)
    sys.exit(1)
known = set()
with open(os.path.join(source, "bench", "corpus", "wave64-known-failures.txt")) as f:
    for line in f:
        if line.strip() and not line.startswith("#"):
            known.add(line.split("\t", 1)[0])

builds = []
for domain in sorted(os.listdir(work)):
    ddir = os.path.join(work, domain)
    if not os.path.isdir(ddir):
        continue
    for program in sorted(os.listdir(ddir)):
        for build, extra in (("translated-gfx1100", []), ("translated-gfx1100-wave64", ["--wave64"])):
            exe = os.path.join(ddir, program, build)
            if os.access(exe, os.X_OK) and os.path.isfile(exe):
                builds.append((domain, program, build, extra, exe))


def run(entry):
    domain, program, build, extra, exe = entry
    env = dict(os.environ, CORPUS_EMULATED="1")
    r = subprocess.run([gpuport, "run", "--jit", "compare", "--stats"] + extra + ["--", exe], capture_output=True, text=True,
                       env=env, cwd=os.path.dirname(exe), timeout=1200)
    return entry, r, r.stderr


# Why a library program cannot run here (as corpus_emulated.py): gpuport run's errors.
CANNOT_HERE = ("has no gfx1100 code object", "fetch-rocm-6.4-libs")
problems = []
skipped = []
compared = interpreted_only = 0
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for (domain, program, build, extra, exe), r, stats in pool.map(run, builds):
        name = "%s/%s %s" % (domain, program, build)
        differs = [l for l in r.stderr.splitlines() if "--jit compare:" in l]
        for m in re.finditer(r"# jit compare: (\d+) launch\(es\) alike", stats):
            compared += int(m.group(1))
        for m in re.finditer(r"# jit compare: (\d+) launch\(es\) on the interpreter only", stats):
            interpreted_only += int(m.group(1))
        may_fail = build.endswith("wave64") and program in known
        tail = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
        if differs:
            problems.append("%s: %s" % (name, differs[0]))
        elif domain == "libraries" and r.returncode != 0 and any(c in r.stderr for c in CANNOT_HERE):
            skipped.append("%s: SKIPPED: %s" % (name, tail[:200]))
        elif not may_fail and (r.returncode != 0 or "PASS" not in r.stdout):
            problems.append("%s: exit %d without PASS: %s" % (name, r.returncode, tail))
for line in skipped + problems:
    print("corpus_tiers: " + line)
print("corpus_tiers: %d gfx1100 builds (%d skipped here), %d launches alike on both tiers, %d on the interpreter only, %d problems" %
      (len(builds), len(skipped), compared, interpreted_only, len(problems)))
sys.exit(1 if problems or not builds or compared == 0 else 0)
