#!/usr/bin/env python3
"""Signal soak: runs gpuport commands and ends each at a random moment with a random ending
signal (SIGTERM, SIGINT, SIGHUP, SIGQUIT or SIGKILL), then counts what is left: processes
started under the command (found by a token in their environment, re-parented or not), and
temporary files and folders (in the run's TMPDIR and, as .*.gpuport-*, in the folders it
writes). Runs ended by SIGTERM/INT/HUP/QUIT must leave nothing. SIGKILL cannot be handled: what
such a run leaves on disk must be gone after the next run of the command, which the soak runs
uninterrupted at the end. `tune --prepare` must also leave its folder absent or complete.

    python3 bench/signal_soak.py --runs 100 --json soak.json        # run, asm and tune --prepare
    python3 bench/signal_soak.py --runs 20 --only run

Needs the build (build/bin/gpuport, build/emu-runtime) and, for asm and tune, CUDA 11.8's tools.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "golden", "hostile", "Inputs"))
import signal_check  # noqa: E402

GPUPORT = os.path.join(ROOT, "build", "bin", "gpuport")
SIGNAL_NAMES = ["TERM", "INT", "HUP", "QUIT", "KILL"]


def entries(folder):
    """What is directly in the run's TMPDIR: each private folder or file counts once."""
    return {os.path.join(folder, n) for n in os.listdir(folder)}


def temporaries_in(tree):
    return {p for p in entries(tree) if ".gpuport-" in os.path.basename(p) and os.path.basename(p).startswith(".")}


def build_hostile(work):
    exe = os.path.join(work, "hostile")
    subprocess.run(["clang-19", "-x", "hip", "--offload-arch=gfx1100", "--rocm-path=/usr",
                    "--rocm-device-lib-path=" + os.path.join(ROOT, "build", "rocm-device-libs"), "-O1",
                    os.path.join(ROOT, "tests", "golden", "run", "Inputs", "hostile.hip"), "-o", exe,
                    "-lamdhip64", "-lstdc++", "-lm"], check=True, capture_output=True)
    return exe


def commands(work):
    """name -> (argv, the folder it writes or None, the longest delay worth waiting, check)"""
    out = {}
    out["run"] = ([GPUPORT, "run", "-j", "1", "--", build_hostile(work), "spin"], None, 1.5, None)
    asm_out = os.path.join(work, "asm-out")
    out["asm"] = ([GPUPORT, "asm", os.path.join(ROOT, "tests", "golden", "asm", "Inputs", "vadd.cu"), "--arch", "sm_80",
                   "-o", asm_out], asm_out, None, None)
    tune_dir = os.path.join(work, "tune", "prepared")

    def tune_check():
        # Absent, or complete: every file tune.json lists is there.
        if not os.path.exists(tune_dir):
            return None
        try:
            manifest = json.load(open(os.path.join(tune_dir, "tune.json")))
            missing = [f for f in manifest["files"] if not os.path.exists(os.path.join(tune_dir, f))]
        except (OSError, ValueError, KeyError) as e:
            return f"half-made folder: {e}"
        shutil.rmtree(tune_dir)
        return f"files missing: {missing}" if missing else None
    out["tune --prepare"] = ([GPUPORT, "tune", os.path.join(ROOT, "tests", "sass", "listings", "sm_90", "reduce_shared.cubin"),
                              "--kernel", "reduce_shared", "--candidates", "2", "--steps", "800", "--prepare", tune_dir],
                             os.path.dirname(tune_dir), None, tune_check)
    os.makedirs(os.path.dirname(tune_dir), exist_ok=True)
    return out


def duration(argv):
    start = time.monotonic()
    subprocess.run(argv, capture_output=True)
    return time.monotonic() - start


def soak(name, argv, tree, max_delay, check, runs, rng):
    tmpdir = tempfile.mkdtemp(prefix="signal-soak-")
    if max_delay is None:
        max_delay = duration(argv) * 1.1
    stats = {"command": " ".join(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a for a in argv), "runs": runs,
             "signals": {s: 0 for s in SIGNAL_NAMES}, "ended_by_signal": 0, "ended_before_signal": 0, "processes_left": 0,
             "temporaries_left_by_handled_signals": 0, "temporaries_left_by_sigkill": 0, "problems": [],
             "max_delay_s": round(max_delay, 3)}
    for i in range(runs):
        sig_name = rng.choice(SIGNAL_NAMES)
        stats["signals"][sig_name] += 1
        before = entries(tmpdir) | (temporaries_in(tree) if tree else set())
        r = signal_check.run_once(argv, signal_check.SIGNALS[sig_name], delay=rng.uniform(0, max_delay), tree=None,
                                  keep_tmpdir=tmpdir)
        after = entries(tmpdir) | (temporaries_in(tree) if tree else set())
        new = after - before
        # Exit 0 after the signal was sent: the command had finished its work as the signal
        # came (a race between the harness's last look and the kill), not a lost signal.
        if r["ended_before_signal"] or r["status"] == 0:
            stats["ended_before_signal"] += 1
        elif r["status"] == -signal_check.SIGNALS[sig_name]:
            stats["ended_by_signal"] += 1
        else:
            stats["problems"].append(f"run {i}: SIG{sig_name}: status {r['status']}")
        stats["processes_left"] += len(r["processes"])
        if r["processes"]:
            stats["problems"].append(f"run {i}: SIG{sig_name}: processes left {r['processes']}")
        if sig_name == "KILL":
            stats["temporaries_left_by_sigkill"] += len(new)
        elif new:
            stats["temporaries_left_by_handled_signals"] += len(new)
            stats["problems"].append(f"run {i}: SIG{sig_name}: left {sorted(new)}")
        if check:
            why = check()
            if why:
                stats["problems"].append(f"run {i}: SIG{sig_name}: {why}")
    # One run to its end: it removes what runs killed outright left.
    env = dict(os.environ, TMPDIR=tmpdir)
    finished = subprocess.run(argv if name != "run" else argv[:-1] + ["once"], env=env, capture_output=True)
    if check:
        check()
    left = entries(tmpdir) | (temporaries_in(tree) if tree else set())
    stats["final_run_status"] = finished.returncode
    stats["temporaries_left_after_the_next_run"] = len(left)
    if left:
        stats["problems"].append(f"after the final run: {sorted(left)}")
    shutil.rmtree(tmpdir, ignore_errors=True)
    return stats


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--only", choices=["run", "asm", "tune --prepare"], action="append")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the figures here")
    a = parser.parse_args()
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="signal-soak-work-")
    results = []
    try:
        for name, (argv, tree, max_delay, check) in commands(work).items():
            if a.only and name not in a.only:
                continue
            start = time.monotonic()
            s = soak(name, argv, tree, max_delay, check, a.runs, rng)
            s["name"] = name
            s["seconds"] = round(time.monotonic() - start, 1)
            results.append(s)
            print(f"{name}: {s['runs']} runs ({', '.join(f'{k} {v}' for k, v in s['signals'].items())}), "
                  f"{s['ended_by_signal']} ended by the signal, {s['ended_before_signal']} ended before it; "
                  f"{s['processes_left']} processes left; {s['temporaries_left_by_handled_signals']} temporaries left by "
                  f"handled signals; {s['temporaries_left_by_sigkill']} left by SIGKILL, "
                  f"{s['temporaries_left_after_the_next_run']} after the next run; {s['seconds']} s", flush=True)
            for p in s["problems"][:20]:
                print("  problem:", p)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if any(s["problems"] for s in results) else 0


if __name__ == "__main__":
    sys.exit(main())
