#!/usr/bin/env python3
"""How far gpuport is from passing HIPIFY's API-table tests, in CHECK lines: for each test,
translated as bench/hipify_suite.py translates it (--hipify-style, --amap where its RUN line
has it), the number of CHECK/CHECK-NEXT lines whose text (spaces collapsed) does not occur in the
output's code. A test fails on its first such line; this counts all of them, so a table layer
that adds names shows even when no test flips.

Usage: hipify_missing_checks.py HIPIFY_CHECKOUT [--hip-version V ...] [--gpuport PATH]"""
import argparse
import os
import re
import subprocess

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = ["synthetic/libraries/cublas2hipblas.cu", "synthetic/libraries/cublas2hipblas_v2.cu",
         "synthetic/libraries/curand2hiprand.cu", "synthetic/libraries/cusparse2hipsparse.cu",
         "synthetic/libraries/cusolver2hipsolver.cu", "synthetic/libraries/cublaslt2hipblaslt.cu",
         "synthetic/driver_enums.cu", "synthetic/driver_functions.cu", "synthetic/runtime_functions.cu",
         "synthetic/runtime_structs.cu"]


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


def missing(gpuport, path, version):
    with open(path, errors="replace") as f:
        lines = f.readlines()
    args = ["--amap"] if lines and "--amap" in lines[0] else []
    out = subprocess.run([gpuport, "translate", "-q", "--hipify-style", "--hip-version", version] + args + [path],
                         capture_output=True, text=True, errors="replace").stdout
    code = norm("\n".join(l for l in out.splitlines() if "// CHECK" not in l))
    count = 0
    for line in lines:
        m = re.match(r"\s*// CHECK(-NEXT)?: (.*)", line)
        if m and norm(m.group(2)) not in code:
            count += 1
    return count


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hipify")
    p.add_argument("--hip-version", action="append", default=None)
    p.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
    a = p.parse_args()
    versions = a.hip_version or ["6.2", "6.4"]
    print("| test | " + " | ".join("HIP " + v for v in versions) + " |")
    print("| --- |" + " --- |" * len(versions))
    totals = [0] * len(versions)
    for t in TESTS:
        path = os.path.join(a.hipify, "tests", "unit_tests", t)
        counts = [missing(a.gpuport, path, v) for v in versions]
        totals = [x + y for x, y in zip(totals, counts)]
        print("| %s | %s |" % (os.path.basename(t), " | ".join(str(c) for c in counts)))
    print("| all | %s |" % " | ".join(str(c) for c in totals))


if __name__ == "__main__":
    main()
