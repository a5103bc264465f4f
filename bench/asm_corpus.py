#!/usr/bin/env python3
"""The CASS measure on our corpus, by execution (a measurement for docs/RESULTS.md, not a test):
for every program of bench/corpus, the CUDA original is compiled by nvcc 11.8 for each NVIDIA
architecture asked for, all its kernels are translated by `gpuport asm` to gfx1100, the code
object is linked with the HIP host code of the program's source translation (`gpuport
translate`), and the program runs under `gpuport run` (emulated gfx1100, the emulation-sized
workload) and is counted PASS when it prints its own RESULT ... PASS line.

With --text, the input of `gpuport asm` is CASS's: the `cuobjdump --dump-sass` text of the
program's cubin (CUDA 11.8's cuobjdump), without the cubin and its metadata. With --text --source,
gpuport asm also reads the program's HIP translation (the host code it is linked with) for what
only declarations say: the __constant__ variables and the sizes of structs passed by value.

Usage: bench/asm_corpus.py [--gpuport build/bin/gpuport] [--work DIR] [--arch 80,90] [-j 2]
                           [--text [--source]] [--counts] [--filter TEXT] [--json FILE]

With --counts, each program is also built natively (clang-19 for gfx1100 from the source
translation) and, per kernel, the translation's gfx1100 instruction count is compared with the
native one: static (instructions in the kernel's code, llvm-objdump-19) and dynamic (instructions
the emulator executed for it, gpuport run --stats).
Prints one line per program and arch, then a table per domain and the reasons of the failures
(for a translation failure: the unsupported instructions, counted by opcode)."""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
p.add_argument("--work", default="/tmp/gpuport-asm-corpus")
p.add_argument("--arch", default="80,90")
p.add_argument("-j", type=int, default=2)
p.add_argument("--filter", default="")
p.add_argument("--json")
p.add_argument("--timeout", type=int, default=300, help="seconds for each emulated run")
p.add_argument("--asm-timeout", type=int, default=300, help="seconds for each gpuport asm")
p.add_argument("--text", action="store_true", help="translate cuobjdump -sass text alone (CASS's input)")
p.add_argument("--source", action="store_true",
               help="with --text: also give gpuport asm the program's HIP translation (--source: __constant__ variables, struct parameters)")
p.add_argument("--counts", action="store_true", help="compare instruction counts with clang's native gfx1100 build")
a = p.parse_args()
gpuport = os.path.abspath(a.gpuport)
archs = [int(x) for x in a.arch.split(",")]
libs = os.path.join(here, "build", "rocm-device-libs")
sources = sorted(s for s in glob.glob(os.path.join(here, "bench", "corpus", "*", "*.cu")) if a.filter in s)


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", **kw)


def static_counts(code_object):
    """Instructions per kernel symbol of an AMDGPU code object (s_code_end padding excluded)."""
    out = collections.Counter()
    d = run(["llvm-objdump-19", "-d", "--no-show-raw-insn", code_object])
    name = None
    for line in d.stdout.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            name = m.group(1)
        elif name and line.startswith("\t") and not line.strip().startswith("s_code_end"):
            out[name] += 1
    return out


def dynamic_counts(stats_text):
    """Instructions executed per kernel, from gpuport run --stats."""
    out = {}
    for line in stats_text.splitlines():
        cells = line.split("\t")
        if len(cells) == 6 and not line.startswith("#"):
            out[cells[0]] = int(cells[2])
    return out


def native(d, domain, name, unit):
    """clang-19's own gfx1100 build of the source translation: static and dynamic counts."""
    nd = os.path.join(d, "native")
    os.makedirs(nd, exist_ok=True)
    flags = ["-x", "hip", "--offload-arch=gfx1100", "--rocm-path=/usr", "--rocm-device-lib-path=" + libs, "-O3",
             "-Wno-unused-result"]
    co = os.path.join(nd, name + ".co")
    exe = os.path.join(nd, name)
    c = run(["clang-19"] + flags + ["--cuda-device-only", "--no-gpu-bundle-output", unit, "-o", co])
    e = run(["clang-19"] + flags + [unit, "-o", exe, "-lamdhip64", "-lstdc++", "-lm"])
    if c.returncode != 0 or e.returncode != 0:
        return None
    x = run([gpuport, "run", "-j", "1", "--stats", "--timeout", str(a.timeout), "--", exe],
            env=dict(os.environ, CORPUS_EMULATED="1"), cwd=nd, timeout=a.timeout + 30)
    return {"static": static_counts(co), "dynamic": dynamic_counts(x.stderr)}


def one(source):
    domain = os.path.basename(os.path.dirname(source))
    name = os.path.splitext(os.path.basename(source))[0]
    d = os.path.join(a.work, domain, name)
    os.makedirs(d, exist_ok=True)
    results = []
    t = run([gpuport, "translate", source, "-o", os.path.join(d, "hip"), "-q"])
    unit = os.path.join(d, "hip", domain, name + ".cu")
    native_counts = None  # the native build's counts, made once per program
    for arch in archs:
        r = {"program": f"{domain}/{name}", "domain": domain, "arch": f"sm_{arch}", "outcome": "", "reason": "", "seconds": 0.0}
        start = time.time()
        if not os.path.exists(unit):
            r["outcome"], r["reason"] = "translate-failed", t.stderr.strip()[-300:]
            results.append(r)
            continue
        out = os.path.join(d, f"sm_{arch}")
        os.makedirs(out, exist_ok=True)
        asm_input = source
        if a.text:
            # The cubin as nvcc 11.8 makes it (gpuport runs nvcc with its toolchain environment),
            # then only its cuobjdump text goes on.
            temps = os.path.join(out, "cubin")
            c = run([gpuport, "sass", "--print", "--save-temps", temps, source, "--arch", f"sm_{arch}"])
            cubins = glob.glob(os.path.join(temps, "*.cubin"))
            if not cubins:
                r["outcome"], r["reason"] = "nvcc-failed", c.stderr.strip()[-300:]
                results.append(r)
                continue
            listing = run(["cuobjdump", "--dump-sass", cubins[0]])
            asm_input = os.path.join(out, name + ".sass")
            with open(asm_input, "w") as f:
                f.write(listing.stdout)
            r["sass_lines"] = sum(1 for l in listing.stdout.splitlines() if re.match(r"\s+/\*[0-9a-f]{4}\*/", l))
        try:
            argv = [gpuport, "asm", asm_input, "--arch", f"sm_{arch}", "--emit", "bundle,obj" if a.counts else "bundle", "-o", out,
                    "--report", "json"]
            if a.text and a.source:
                argv += ["--source", unit]
            s = run(argv, timeout=a.asm_timeout)
        except subprocess.TimeoutExpired:
            r["outcome"], r["reason"] = "asm-timeout", f"gpuport asm ran over {a.asm_timeout} s"
            results.append(r)
            continue
        r["asm_seconds"] = round(time.time() - start, 2)
        bundle = os.path.join(out, f"{name}.sm_{arch}.gfx1100.hipfb")
        if s.returncode != 0 or not os.path.exists(bundle):
            r["outcome"] = "asm-failed"
            r["findings"] = [line for line in s.stderr.splitlines() if "error:" in line]
            r["reason"] = r["findings"][0] if r["findings"] else s.stderr.strip()[-300:]
            results.append(r)
            continue
        exe = os.path.join(out, name)
        h = run(["clang-19", "-x", "hip", "--offload-arch=gfx1100", "--offload-host-only", "--rocm-path=/usr",
                 "--rocm-device-lib-path=" + libs, "-O2", "-Wno-unused-result", "-Xclang", "-fcuda-include-gpubinary",
                 "-Xclang", bundle, unit, "-o", exe, "-lamdhip64", "-lstdc++", "-lm"])
        if h.returncode != 0:
            r["outcome"], r["reason"] = "link-failed", h.stderr.strip()[-300:]
            results.append(r)
            continue
        env = dict(os.environ, CORPUS_EMULATED="1")
        try:
            x = run([gpuport, "run", "-j", "1", "--stats", "--timeout", str(a.timeout), "--", exe], env=env, cwd=out,
                    timeout=a.timeout + 30)
            line = next((l for l in x.stdout.splitlines() if l.startswith("RESULT")), "")
            if x.returncode == 0 and " PASS" in line:
                r["outcome"] = "PASS"
                if a.counts:
                    if native_counts is None:
                        native_counts = native(d, domain, name, unit) or {}
                    ours_static = static_counts(bundle[:-len(".hipfb")] + ".co")
                    ours_dynamic = dynamic_counts(x.stderr)
                    r["kernels"] = {k: {"static": ours_static.get(k), "native_static": native_counts.get("static", {}).get(k),
                                        "dynamic": ours_dynamic.get(k), "native_dynamic": native_counts.get("dynamic", {}).get(k)}
                                    for k in ours_static}
            else:
                r["outcome"] = "FAIL"
                r["reason"] = (line or (x.stderr.strip().splitlines() or ["exit %d" % x.returncode])[-1])[:300]
        except subprocess.TimeoutExpired:
            r["outcome"], r["reason"] = "FAIL", "timed out"
        r["seconds"] = round(time.time() - start, 2)
        if r["outcome"] == "FAIL":
            r["notes"] = [line for line in s.stderr.splitlines() if "note:" in line or "warning:" in line]
        results.append(r)
    return results


results = []
with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
    for rs in pool.map(one, sources):
        for r in rs:
            print(f"{r['program']:40} {r['arch']:6} {r['outcome']:15} {r['reason'][:150]}", flush=True)
            results.append(r)

print()
by_domain = collections.defaultdict(lambda: collections.Counter())
for r in results:
    by_domain[r["domain"]][(r["arch"], r["outcome"] == "PASS")] += 1
print(f"{'domain':24} " + " ".join(f"{'sm_%d' % x:>10}" for x in archs))
for domain in sorted(by_domain):
    c = by_domain[domain]
    print(f"{domain:24} " + " ".join(f"{c[('sm_%d' % x, True)]:>4}/{c[('sm_%d' % x, True)] + c[('sm_%d' % x, False)]:<5}" for x in archs))
for x in archs:
    mine = [r for r in results if r["arch"] == f"sm_{x}"]
    passed = sum(r["outcome"] == "PASS" for r in mine)
    print(f"sm_{x}: {passed}/{len(mine)} PASS ({100.0 * passed / max(1, len(mine)):.1f}%)")
opcodes = collections.Counter()
for r in results:
    for f in r.get("findings", []):
        m = re.search(r"no semantics for (\S+)", f)
        opcodes[m.group(1) if m else re.sub(r".*error: kernel \S+: ", "", f).split(" at byte offset")[0][:80]] += 1
if opcodes:
    print("\nunsupported (findings over all programs and archs):")
    for k, v in opcodes.most_common():
        print(f"  {v:5} {k}")
if a.counts:
    def quantiles(values):
        values = sorted(values)
        if not values:
            return "none"
        q = lambda f: values[min(len(values) - 1, int(f * len(values)))]
        return (f"n={len(values)} min {values[0]:.2f} p25 {q(0.25):.2f} median {q(0.5):.2f} p75 {q(0.75):.2f} "
                f"p90 {q(0.9):.2f} max {values[-1]:.2f}")
    print("\ninstruction count, translation / clang's native gfx1100 build, per kernel of the PASSing programs:")
    for x in archs:
        ks = [k for r in results if r["arch"] == f"sm_{x}" for k in r.get("kernels", {}).values()]
        st = [k["static"] / k["native_static"] for k in ks if k["static"] and k["native_static"]]
        dy = [k["dynamic"] / k["native_dynamic"] for k in ks if k["dynamic"] and k["native_dynamic"]]
        print(f"  sm_{x} static:  {quantiles(st)}")
        print(f"  sm_{x} dynamic: {quantiles(dy)}")
if a.json:
    with open(a.json, "w") as f:
        json.dump(results, f, indent=1)
