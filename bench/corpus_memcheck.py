#!/usr/bin/env python3
"""Runs every gfx1100 build of the benchmark corpus that `gpuport verify bench/corpus --emulate`
left in its work folder (WORK/<domain>/<program>/translated-gfx1100[-wave64], executables) under
`gpuport run` with the checks asked for (--memcheck: out-of-bounds, use after free, leaks;
--initcheck: reads of LDS never written), and counts the builds with a finding or a failure.
A measurement for docs/RESULTS.md, not a test.

Usage: bench/corpus_memcheck.py GPUPORT WORK [-j N] [--check memcheck|initcheck ...]"""
import argparse
import os
import subprocess
import sys

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("gpuport")
p.add_argument("work")
p.add_argument("-j", type=int, default=2)
p.add_argument("--check", action="append", choices=["memcheck", "initcheck"], help="default: both")
a = p.parse_args()
a.gpuport = os.path.abspath(a.gpuport)
checks = ["--" + c for c in (a.check or ["memcheck", "initcheck"])]
total = clean = 0
for domain in sorted(os.listdir(a.work)):
    ddir = os.path.join(a.work, domain)
    if not os.path.isdir(ddir):
        continue
    for program in sorted(os.listdir(ddir)):
        for build, extra in (("translated-gfx1100", []), ("translated-gfx1100-wave64", ["--wave64"])):
            exe = os.path.join(ddir, program, build)
            if not os.access(exe, os.X_OK):
                continue
            total += 1
            env = dict(os.environ, CORPUS_EMULATED="1")
            r = subprocess.run([a.gpuport, "run"] + checks + ["-j", str(a.j)] + extra + ["--", exe], capture_output=True, text=True,
                               env=env, cwd=os.path.dirname(exe))
            findings = [l for l in r.stderr.splitlines() if l.startswith(("gpuport run: memcheck: ", "gpuport run: initcheck: "))
                        and not l.rstrip().endswith(("0 findings",))]
            verdict = "PASS" in r.stdout and r.returncode == 0 and not findings
            clean += verdict
            if not verdict:
                print("%s/%s %s: exit %d, %d finding(s)" % (domain, program, build, r.returncode, len(findings)))
                for line in findings[:3]:
                    print("   " + line)
print("corpus_memcheck (%s): %d of %d gfx1100 builds PASS with no finding" % (" ".join(checks), clean, total))
sys.exit(0 if clean == total else 1)
