#!/usr/bin/env python3
"""Run HIPIFY's own lit test suite (tests/unit_tests of ROCm/HIPIFY) against `gpuport translate`.

Does what HIPIFY's tests/run_test.sh does for hipify-clang, with gpuport in its place: for each
test file that HIPIFY's tests/lit.cfg runs at the given CUDA version (its exclusion rules, with
no cuDNN and the toolkit's own CUB), translate the file with the options of its RUN line (under
the same names; --hipify-style added unless --no-hipify-style, and --hip-version 6.2 as
hipify-clang targets the newest HIP), replace every `//` comment of the
output by `// ` (run_test.sh's `sed -Ee 's|//.+|// |g'`), and FileCheck the test file's CHECK
lines against that. A test passes when the translation exits 0 or 1 (1: findings at error
level, which hipify-clang prints as warnings) and FileCheck passes.

The clang arguments after %clang_args that change the source (-D, -U, -I) are passed on; the
others (-ferror-limit, -Xclang ...) are clang's alone and dropped. Tests beside a
compile_commands.json.in get `-p FOLDER` with the file written as run_test.sh writes it.

Usage: bench/hipify_suite.py HIPIFY_CHECKOUT [--gpuport BIN] [--filecheck BIN] [--cuda 11.8]
       [-j N] [--failures FILE] [--only SUBSTRING] [--no-hipify-style] [--drop-options] [--hip-version V]
--drop-options runs every test without its RUN line's options and clang arguments (how gpuport
was measured before it knew HIPIFY's option names).
Prints one line per failing test (first failing CHECK), then `passed N/M`.
"""
import argparse, concurrent.futures, os, re, shlex, shutil, subprocess, sys, tempfile

here = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SUFFIXES = (".cu", ".cuh", ".cpp", ".c", ".hpp", ".h")


def excluded(cuda_major, cuda_minor):
    """The files tests/lit.cfg excludes for this CUDA version, LLVM >= 19, no cuDNN root; CUB is
    the toolkit's own (CUDA 11 and later ship it, so the CUB tests run)."""
    ex = {"cmdparser.hpp", "spatial_batch_norm_op.h", "common_cudnn.h", "inc.h",
          # no CUDA_DNN_ROOT_DIR
          "cudnn_convolution_forward.cu", "cudnn_softmax.cu", "cudnn2miopen.cu", "cudnn2miopen_before_9000.cu"}
    if cuda_major < 11 or (cuda_major == 12 and cuda_minor >= 6):
        ex |= {"cub_01.cu", "cub_02.cu", "cub_03.cu"}
    v = (cuda_major, cuda_minor)
    if not (v == (10, 1) or v == (10, 2)):
        ex.add("cublaslt2hipblaslt_10010_10020.cu")
    if v < (10, 1) or cuda_major >= 12:
        ex.add("cusparse2rocsparse_10010_12000.cu")
    if v <= (11, 1) or cuda_major >= 12:
        ex.add("cusparse2rocsparse_11010_12000.cu")
    if v <= (11, 3) or cuda_major >= 12:
        ex |= {"cusparse2rocsparse_11030_12000.cu", "cusparse2hipsparse_11030_12000.cu"}
    if cuda_major > 10:
        ex |= {"cudnn_convolution_forward.cu", "cuSPARSE_01.cu", "cuSPARSE_02.cu", "cuSPARSE_12.cu"}
    if v < (11, 1):
        ex.add("runtime_functions_11010.cu")
    if cuda_major >= 11:
        ex.add("cusparse2rocsparse_before_11000.cu")
    if cuda_major < 12:
        ex |= {"headers_test_06_12000.cu", "headers_test_07_12000.cu", "headers_test_08_12000.cu",
               "headers_test_09_12000.cu", "runtime_functions_12000.cu", "cusparse2rocsparse_12000.cu",
               "cusparse2hipsparse_12000.cu"}
    if cuda_major >= 12:
        ex |= {"headers_test_06.cu", "headers_test_07.cu", "headers_test_08.cu", "headers_test_09.cu",
               "tex2dKernel.cpp", "cuSPARSE_11.cu", "cublas_0_based_indexing.cu",
               "cublas_0_based_indexing_rocblas.cu", "cusparse2rocsparse_9020_12000.cu",
               "cusparse2rocsparse_before_12000.cu"}
    return ex


def run_line(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"RUN:\s*%run_test\s+hipify\s+\"%s\"\s+\"%t\"\s+%hipify_args\s+(.*)$", line)
            if m:
                return m.group(1)
    return None


def parse_options(rest):
    """(hipify options, clang arguments) of a RUN line's tail after %hipify_args."""
    words = shlex.split(rest)
    if "%clang_args" in words:
        at = words.index("%clang_args")
        head, clang = words[:at], words[at + 1:]
    else:
        head, clang = words, []
    if head and head[0].isdigit():
        head = head[1 : 1 + int(head[0])]
    passed = []
    i = 0
    while i < len(clang):
        a = clang[i]
        if a in ("-D", "-U", "-I") and i + 1 < len(clang):
            passed += [a, clang[i + 1]]
            i += 2
            continue
        if a.startswith(("-D", "-U", "-I")):
            passed.append(a)
        i += 1
    return head, passed


def strip_comments(text):
    return re.sub(r"//.+", "// ", text)


def run_one(test, args, workdir):
    rel = os.path.relpath(test, args.suite)
    rest = run_line(test)
    if rest is None:
        return rel, "unsupported", "no RUN line"
    options, clang = parse_options(rest)
    if args.drop_options:
        options, clang = [], []
    cmd = [args.gpuport, "translate", "-q", "--no-progress"]
    if not args.no_hipify_style:
        cmd.append("--hipify-style")
    if args.hip_version and not args.drop_options:
        cmd += ["--hip-version", args.hip_version]
    cmd += options + clang
    folder = os.path.dirname(test)
    json_in = os.path.join(folder, "compile_commands.json.in")
    tmp = tempfile.mkdtemp(dir=workdir)
    if os.path.exists(json_in) and not args.drop_options:
        # run_test.sh writes the database into the test folder; we write a copy of the folder.
        copy = os.path.join(tmp, "src")
        shutil.copytree(folder, copy)
        with open(json_in) as f:
            text = f.read().replace("<test dir>", copy).replace("<CUDA dir>", "/usr")
        with open(os.path.join(copy, "compile_commands.json"), "w") as f:
            f.write(text)
        test_in = os.path.join(copy, os.path.basename(test))
        cmd += ["-p", copy]
    else:
        test_in = test
    cmd.append(test_in)
    r = subprocess.run(cmd, capture_output=True, timeout=120)
    if r.returncode not in (0, 1):
        return rel, "fail", "gpuport exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace").strip().splitlines()[-1:] or "")
    out = strip_comments(r.stdout.decode("utf-8", errors="surrogateescape"))
    fc = subprocess.run([args.filecheck, test], input=out.encode("utf-8", errors="surrogateescape"), capture_output=True)
    shutil.rmtree(tmp, ignore_errors=True)
    if fc.returncode != 0:
        err = fc.stderr.decode(errors="replace").splitlines()
        first = next((l for l in err if "error:" in l), err[0] if err else "")
        detail = first.split("error:", 1)[-1].strip()
        # the CHECK line FileCheck names is the next line of its message
        idx = err.index(first) if first in err else -1
        check = err[idx + 1].strip() if 0 <= idx < len(err) - 1 else ""
        return rel, "fail", f"{detail} | {check}"
    return rel, "pass", ""


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hipify", help="a checkout of ROCm/HIPIFY")
    p.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
    p.add_argument("--filecheck", default="/usr/lib/llvm-19/bin/FileCheck")
    p.add_argument("--cuda", default="11.8", help="the CUDA version whose exclusions apply")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--failures", help="write the failing tests with their first failing check here")
    p.add_argument("--only", help="run only tests whose path contains this")
    p.add_argument("--no-hipify-style", action="store_true")
    p.add_argument("--hip-version", default="6.2",
                   help="gpuport's --hip-version (hipify-clang targets the newest HIP; '' for gpuport's default)")
    p.add_argument("--drop-options", action="store_true")
    args = p.parse_args()
    args.suite = os.path.join(args.hipify, "tests", "unit_tests")
    if not os.path.isdir(args.suite):
        sys.exit(f"hipify_suite: {args.suite}: no such folder (give a checkout of ROCm/HIPIFY)")
    major, minor = (int(x) for x in args.cuda.split(".")[:2])
    ex = excluded(major, minor)
    tests = []
    for root, dirs, files in os.walk(args.suite):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SUFFIXES) and name not in ex and not root.endswith("/include") and "/include/" not in root:
                full = os.path.join(root, name)
                if run_line(full) is not None:
                    tests.append(full)
    if args.only:
        tests = [t for t in tests if args.only in t]
    with tempfile.TemporaryDirectory(prefix="hipify-suite-") as work:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda t: run_one(t, args, work), tests))
    results.sort()
    failed = [r for r in results if r[1] != "pass"]
    lines = [f"FAIL {rel}: {why}" for rel, status, why in failed]
    for l in lines:
        print(l)
    if args.failures:
        with open(args.failures, "w") as f:
            f.write("\n".join(lines) + "\n")
    print(f"passed {len(results) - len(failed)}/{len(results)}")


if __name__ == "__main__":
    main()
