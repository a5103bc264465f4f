#!/usr/bin/env python3
"""How `gpuport sass --divergence` scales with function size, on long branch chains.

Generates nvdisasm-style SASS listings of one function made of a repeated pattern, at several
sizes, and times the analysis (wall time and peak memory, one run each, /usr/bin/time):

  skip   `if (tid > k) x += 1;` without barriers: @P0 BRA over one IADD3 (Pascal-style shape);
         at the end each use of x is reached by every earlier update (reaching-definition sets
         grow with the chain)
  bssy   the same as nvcc builds it for Volta and later: BSSY/BSYNC around each skip
  exit   `if (tid > k) return;` repeated: guarded EXITs, each region reaching to the end
  loop   a chain of small loops, each with a lane-dependent trip count (divergent exits)

Usage: bench/divergence_scaling.py [--gpuport BIN] [--baseline BIN] [--sizes 10000,50000,...]
       [--shapes skip,bssy,exit,loop] [--timeout S]
--baseline times a second gpuport (e.g. an older build) on the same listings, for a ratio.
"""
import argparse, os, subprocess, sys, tempfile

here = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def listing(shape, n):
    out = ['\t.headerflags\t@"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"', '\t.section\t.text.chain,"ax",@progbits',
           '        .global         chain', '        .type           chain,@function', 'chain:', '.text.chain:']
    addr = [0]

    def ins(text):
        out.append(f"        /*{addr[0]:04x}*/                   {text} ;")
        addr[0] += 16

    per = {"skip": 3, "bssy": 6, "exit": 3, "loop": 4}[shape]
    ins("S2R R0, SR_TID.X")
    for b in range(max(1, (n - 3) // per)):
        if shape == "skip":
            ins(f"ISETP.GT.AND P0, PT, R0, {b % 31}, PT")
            ins(f"@P0 BRA `(.L_x_{b})")
            ins("IADD3 R2, R2, 0x1, RZ")
            out.append(f".L_x_{b}:")
        elif shape == "bssy":
            ins(f"BSSY B0, `(.L_x_{2 * b + 1})")
            ins(f"ISETP.GT.AND P0, PT, R0, {b % 31}, PT")
            ins(f"@P0 BRA `(.L_x_{2 * b})")
            ins("IADD3 R2, R2, 0x1, RZ")
            out.append(f".L_x_{2 * b}:")
            ins("BSYNC B0")
            out.append(f".L_x_{2 * b + 1}:")
            ins("IADD3 R3, R2, R3, RZ")
        elif shape == "exit":
            ins(f"ISETP.GT.AND P0, PT, R0, {b % 31}, PT")
            ins("@P0 EXIT")
            ins("IADD3 R2, R2, 0x1, RZ")
        else:
            out.append(f".L_x_{b}:")
            ins("IADD3 R2, R2, 0x1, RZ")
            ins("ISETP.GT.AND P0, PT, R2, R0, PT")
            ins(f"@!P0 BRA `(.L_x_{b})")
            ins("IADD3 R3, R2, R3, RZ")
    ins("STG.E [R4.64], R3")
    ins("EXIT")
    return "\n".join(out) + "\n", addr[0] // 16


def timed(binary, path, timeout):
    cmd = ["/usr/bin/time", "-f", "%e %M", binary, "sass", "--divergence", path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None
    if p.returncode != 0:
        sys.exit(f"divergence_scaling: {' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
    seconds, kb = p.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kb) / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpuport", default=os.path.join(here, "build", "bin", "gpuport"))
    ap.add_argument("--baseline")
    ap.add_argument("--sizes", default="10000,25000,50000,100000,200000")
    ap.add_argument("--shapes", default="skip,bssy,exit,loop")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    print("| shape | instructions | gpuport s | MiB | M instr/s |" + (" baseline s | baseline MiB |" if a.baseline else ""))
    print("|---|---:|---:|---:|---:|" + ("---:|---:|" if a.baseline else ""))
    with tempfile.TemporaryDirectory() as tmp:
        for shape in a.shapes.split(","):
            for n in sizes:
                text, count = listing(shape, n)
                path = os.path.join(tmp, f"{shape}{n}.sass")
                with open(path, "w") as f:
                    f.write(text)
                s, mib = timed(a.gpuport, path, a.timeout)
                row = f"| {shape} | {count} | {s:.2f} | {mib:.0f} | {count / max(s, 1e-3) / 1e6:.2f} |"
                if a.baseline:
                    bs, bmib = timed(a.baseline, path, a.timeout)
                    row += f" {bs:.2f} | {bmib:.0f} |" if bs is not None else f" > {a.timeout:.0f} | - |"
                print(row, flush=True)


if __name__ == "__main__":
    main()
