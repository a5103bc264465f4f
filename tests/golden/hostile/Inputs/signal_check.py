#!/usr/bin/env python3
"""Ends a gpuport command with a signal and checks, from the process table and the file system,
that nothing it started is left running and no temporary file of its is left behind.

Every process the command starts inherits a token in its environment (GPUPORT_SIGNAL_CHECK), so
the process table tells its descendants even after they are re-parented to init. TMPDIR points
at a fresh folder, which must be empty afterwards; --tree names a folder the command writes in,
which must hold no `.*.gpuport-*` temporary file afterwards.

    signal_check.py --signal TERM --after-output spinning -- gpuport run -- ./prog spin
    signal_check.py --signal INT --after-child nvdisasm -- gpuport sass broken.cubin

Exit status 0 when the command ended by the signal (or as SIGKILL leaves it) with nothing left;
1 otherwise, saying what was left. bench/signal_soak.py repeats this at random moments.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

SIGNALS = {"INT": signal.SIGINT, "TERM": signal.SIGTERM, "HUP": signal.SIGHUP, "QUIT": signal.SIGQUIT, "KILL": signal.SIGKILL}


def processes_with(token):
    """(pid, name) of every live process whose environment holds the token."""
    needle = f"GPUPORT_SIGNAL_CHECK={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if needle not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            state = stat[stat.rfind(")") + 2]
            if state in "ZX":
                continue
            with open(f"/proc/{entry}/comm") as f:
                found.append((int(entry), f.read().strip()))
        except OSError:
            continue
    return found


def temporaries(tmpdir, tree):
    left = []
    for root, dirs, files in os.walk(tmpdir):
        left += [os.path.join(root, n) for n in dirs + files]
    if tree:
        for root, dirs, files in os.walk(tree):
            left += [os.path.join(root, n) for n in dirs + files if n.startswith(".") and ".gpuport-" in n]
    return left


def run_once(command, sig, after_output=None, after_child=None, delay=0.0, tree=None, timeout=60, keep_tmpdir=None):
    """Starts `command`, waits for the trigger, sends `sig`; returns a dict of what happened."""
    token = uuid.uuid4().hex
    tmpdir = keep_tmpdir or tempfile.mkdtemp(prefix="signal-check-")
    env = dict(os.environ, GPUPORT_SIGNAL_CHECK=token, TMPDIR=tmpdir)
    # A shell that starts a job in the background leaves SIGINT ignored; a user at a terminal
    # does not: the command gets the dispositions a foreground command has.
    def restore():
        for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_DFL)
    proc = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=restore)
    output = []
    seen = threading.Event()

    def read():
        for line in iter(proc.stdout.readline, b""):
            text = line.decode(errors="replace")
            output.append(text)
            if after_output and after_output in text:
                seen.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    start = time.monotonic()
    triggered = False
    while time.monotonic() - start < timeout and proc.poll() is None:
        if after_output and seen.is_set():
            triggered = True
        elif after_child and any(name == after_child for _, name in processes_with(token)):
            triggered = True
        elif not after_output and not after_child:
            triggered = True
        if triggered:
            break
        time.sleep(0.01)
    if triggered and delay > 0:
        time.sleep(delay)
    ended_before = proc.poll() is not None
    if not ended_before:
        proc.send_signal(sig)
    try:
        status = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        status = None
    reader.join(timeout=5)
    # What gpuport started must be gone within a few seconds (the kernel's SIGKILL of a direct
    # child after a SIGKILLed parent, init reaping the rest).
    left = processes_with(token)
    for _ in range(250):
        if not left:
            break
        time.sleep(0.02)
        left = processes_with(token)
    files = temporaries(tmpdir, tree)
    for pid, _ in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if status is None:
        proc.kill()
        proc.wait()
    if not keep_tmpdir:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return {"triggered": triggered, "ended_before_signal": ended_before, "status": status, "processes": left,
            "files": files, "output": "".join(output)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--signal", default="TERM", choices=sorted(SIGNALS))
    parser.add_argument("--after-output", help="send the signal once the command prints this")
    parser.add_argument("--after-child", help="send the signal once a process of this name runs under the command")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait after the trigger")
    parser.add_argument("--tree", help="a folder the command writes in: no .*.gpuport-* file may be left there")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    a = parser.parse_args()
    command = a.command[1:] if a.command and a.command[0] == "--" else a.command
    sig = SIGNALS[a.signal]
    r = run_once(command, sig, a.after_output, a.after_child, a.delay, a.tree, a.timeout)
    problems = []
    if not r["triggered"]:
        problems.append("the trigger never came (the command ended or timed out first)")
    if r["status"] is None:
        problems.append("the command did not end within 30 s of the signal")
    elif r["status"] != -sig:
        problems.append(f"the command ended with status {r['status']}, not by SIG{a.signal}")
    if r["processes"]:
        problems.append("processes left: " + ", ".join(f"{pid} ({name})" for pid, name in r["processes"]))
    if r["files"] and sig != signal.SIGKILL:
        problems.append("temporary files left: " + ", ".join(r["files"]))
    print(f"SIG{a.signal}: command ended by signal {-r['status'] if r['status'] is not None and r['status'] < 0 else 'none'}; "
          f"{len(r['processes'])} processes left; {len(r['files'])} temporary files left")
    for p in problems:
        print("problem:", p)
    if problems:
        print("--- the command's output ---")
        print(r["output"][-4000:])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
