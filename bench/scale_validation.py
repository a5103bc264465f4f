#!/usr/bin/env python3
"""SCALE's own list of third-party CUDA projects, built and validated for AMD gfx1100 through
gpuport, the way SCALE validates itself.

Spectral Compute publishes, in spectral-compute/scale-validation, one folder per project: numbered
scripts that clone it at a pinned version (versions.txt), patch it, build it with the project's
own build (CMake, Makefiles) and run its check. Their test.sh runs those scripts with a CUDA
toolkit folder whose bin/nvcc is the compiler under test. This harness runs the same scripts in
the same order with the folder `gpuport nvcc --toolkit` writes (bin/nvcc is gpuport nvcc:
CUDA translated to HIP, compiled by clang-19 for gfx1100; include/ holds CUDA's headers as
HIP's; lib64/ links the emulator's HIP runtime), so the programs the checks run execute on
gpuport's gfx1100 emulator: every "validated" here is an emulated result.

With --route project the cloned tree is first translated whole by `gpuport translate --project`
(sources and CMake build, the original kept beside it) and the same recipe then builds the
translation; nvcc, where a recipe still calls it, is the toolkit's.

Where a machine has no network, the clone step is replaced by a `git archive` of the pinned
version from a local mirror (--mirrors DIR, laid out DIR/OWNER+NAME/repo as the fetch tool
leaves them); submodules are then absent and the row says so. Scripts named *perf* or
*benchmark* measure speed, not correctness, and are not run (emulation is slow by design).

usage: scale_validation.py GPUPORT RECIPES WORK [--route toolkit|project] [--mirrors DIR] [--clone]
                           [--only NAME ...] [--timeout S] [--json FILE] [--hip-version V]
RECIPES: a checkout of spectral-compute/scale-validation (its test.sh, util/, versions.txt), or
its bare repository (a mirror), whose newest tree is unpacked into WORK/recipes.
Prints a markdown table: project, version, source, build, validate, seconds, first error, class.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

# SCALE's table (README of scale-validation at 04f5cd7, "v1.7.1"): the 44 projects it reports,
# by folder name, and whether SCALE validated each on gfx1100 there.
SCALE_TABLE = [
    ("alien", True), ("AMGX", False), ("arrayfire", False), ("bitnet", True), ("caffe", True),
    ("ctranslate2", False), ("cuml", False), ("cuSZ", True), ("cutlass", True), ("CV-CUDA", False),
    ("cycles", True), ("faiss", False), ("FastEddy", True), ("ffmpeg", True), ("FLAMEGPU2", False),
    ("ggml", True), ("gomc", False), ("gpu_jpeg2k", False), ("GPUJPEG", True), ("gromacs", False),
    ("hashcat", True), ("hashinator", False), ("HeCBench", False), ("hypre", False), ("jitify", False),
    ("llama.cpp", True), ("llm.c", False), ("MAGMA", False), ("nvflip", True), ("opencv", False),
    ("openmpi", True), ("PhysX", False), ("pytorch", False), ("quda", False), ("risc0", False),
    ("rodinia_suite", True), ("stdgpu", False), ("TCLB", True), ("thrust", False), ("timemachine", False),
    ("UppASD", True), ("vllm", False), ("whispercpp", True), ("xgboost", False),
]

CLONE_CALL = re.compile(r"do_clone(?:_hash)?\s+(\S+)\s+(\S+)\s+\"?\$\(get_version\s+(\S+?)\)\"?")

current_group = None  # the process group of the script running now, killed on a signal


def on_signal(signum, _frame):
    if current_group is not None:
        try:
            os.killpg(current_group, signal.SIGKILL)
        except ProcessLookupError:
            pass
    sys.exit(128 + signum)


def run_script(argv, cwd, env, timeout, log_path):
    """Runs one step in its own process group; on timeout the whole group is killed."""
    global current_group
    with open(log_path, "ab") as log:
        p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        current_group = p.pid
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return "timeout"
        finally:
            current_group = None


def first_error(log):
    lines = log.splitlines()
    for pattern in (r"\berror\b(?!s? generated)", r"\bError\b", r"No such file|not found|FAILED|Failed"):
        for line in lines:
            if re.search(pattern, line) and "warning:" not in line and "-Werror" not in line:
                return line.strip()[:200]
    lines = [l for l in lines if l.strip()]
    return lines[-1].strip()[:200] if lines else ""


def classify(error):
    """The first error's class, as issue 28 names them, plus what this machine lacks."""
    e = error.lower()
    if "timed out" in e:
        return "time"
    if "download" in e or "could not resolve host" in e or ("installing" in e and "failed" in e) or "error 128" in e \
            or "gitclone" in e:
        return "network (offline)"
    if "does not exist" in e and ("image" in e or "input" in e or "file" in e):
        return "missing input"
    if "modulenotfounderror" in e or "cannot find -l" in e or "error while loading shared libraries" in e \
            or ("no such file" in e and re.search(r"\.(h|hpp|cuh)\b", e)) or "could not find" in e:
        return "missing dependency"
    if "gpuport nvcc" in e and "not supported" in e:
        return "nvcc option"
    if "[unsupported-" in e or "[inline-ptx]" in e:
        return "translation"
    if "cmake" in e:
        return "cmake"
    if "error:" in e or "error " in e:
        return "compile"
    return "other"


def versions(recipes):
    out = {}
    for line in (recipes / "versions.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2:
            out[parts[0]] = parts[1]
    return out


def unpack_tree(repo, commit, dest):
    """Writes the tree of `commit` into dest, blob by blob; a mirror may lack its largest blobs
    (git archive then fails whole): those are skipped and returned."""
    listing = subprocess.run(["git", "--git-dir", str(repo), "ls-tree", "-r", "-z", commit], capture_output=True, check=True)
    entries = []
    for item in listing.stdout.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, path.decode("utf-8", "surrogateescape")))
    dest.mkdir(parents=True, exist_ok=True)
    missing = []
    batch = subprocess.Popen(["git", "--git-dir", str(repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    for mode, sha, path in entries:
        batch.stdin.write(sha + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing.append(path)
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)  # the newline after the object
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == b"120000":
            target.symlink_to(data.decode("utf-8", "surrogateescape"))
        else:
            target.write_bytes(data)
            if mode == b"100755":
                target.chmod(0o755)
    batch.stdin.close()
    batch.wait()
    return missing


def extract_from_mirror(mirrors, url, version, dest):
    """git archive of `version` from the local mirror of `url` into dest; returns a note or None on failure."""
    m = re.match(r"https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$", url)
    if not m:
        return None, f"no mirror for {url} (not on GitHub)"
    repo = pathlib.Path(mirrors) / f"{m.group(1)}+{m.group(2)}" / "repo"
    if not repo.is_dir():
        return None, f"no local mirror of {m.group(1)}/{m.group(2)}"
    for rev in (version, f"origin/{version}", f"refs/tags/{version}"):
        r = subprocess.run(["git", "--git-dir", str(repo), "rev-parse", "--verify", "-q", rev + "^{commit}"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            commit = r.stdout.strip()
            break
    else:
        return None, f"pinned version {version} is not in the mirror"
    missing = unpack_tree(repo, commit, dest)
    note = f"mirror {commit[:10]}"
    if missing:
        note += f", {len(missing)} large files absent from the mirror"
    gm = subprocess.run(["git", "--git-dir", str(repo), "show", f"{commit}:.gitmodules"], capture_output=True, text=True)
    if gm.returncode == 0 and gm.stdout.strip():
        note += ", submodules absent"
    return commit, note


# Changes made for emulation, each said in the row: the check is the recipe's, only repeated less.
# Rodinia's run.sh files run each benchmark 30 times to average its GPU time; once is enough to
# compare its output with the reference.
EMULATION_CHANGES = {
    "rodinia_suite": [("rodinia_suite/cuda/*/run.sh", r"iter<=30", "iter<=1", "each benchmark run once, not 30 times")],
}


# What a recipe must leave behind where its script's exit status does not say: BitNet's
# 01-build.sh ends with `cd ..`, so it exits 0 whether or not nvcc built the library.
PRODUCTS = {
    "bitnet": ["bitnet/gpu/bitnet_kernels/libbitnet.so"],
}


# Variables a project's check needs on this machine, each with why; said in the row. ggml's
# tests start 4 threads that busy-wait for each other: on fewer cores they stall (llama.cpp
# b2000's test-grad0 did not finish in 8 minutes on 2 cores, and takes 8 s with 2 threads).
MACHINE_ENVIRONMENT = {
    "llama.cpp": [("GGML_N_THREADS", str(min(4, os.cpu_count() or 1)), "ggml's test threads limited to the cores")],
}


# Inputs a check reads that the mirror lacks (it leaves out a repository's largest files), made
# here and said in the row. nvflip's check runs FLIP on the CPU and on the GPU over
# images/reference.png and images/test.png and compares the two error maps (ImageMagick's MSE
# under 0.01); the mirror lacks test.png, so a copy of reference.png with Gaussian noise (fixed
# seed) and a slight blur stands in for the rendering under test.
SUBSTITUTE_INPUTS = {
    "nvflip": [("nvflip/images/test.png",
                ["convert", "nvflip/images/reference.png", "-seed", "28", "-attenuate", "0.5", "+noise", "Gaussian",
                 "-blur", "0x0.8", "PNG24:nvflip/images/test.png"],
                "images/test.png absent from the mirror: made from reference.png with noise and blur")],
}


def make_substitute_inputs(name, work, log_path):
    said = []
    for path, command, why in SUBSTITUTE_INPUTS.get(name, []):
        if (work / path).exists():
            continue
        with open(log_path, "ab") as log:
            rc = subprocess.run(command, cwd=work, stdout=log, stderr=subprocess.STDOUT).returncode
        said.append(why if rc == 0 else f"{path} absent from the mirror and could not be made ({command[0]} failed)")
    return said


def apply_emulation_changes(name, work):
    said = []
    for pattern, old, new, why in EMULATION_CHANGES.get(name, []):
        changed = 0
        for path in work.glob(pattern):
            text = path.read_text(errors="surrogateescape")
            if old in text:
                path.write_text(text.replace(old, new), errors="surrogateescape")
                changed += 1
        if changed:
            said.append(why)
    return said


def run_project(name, a, recipes, vers, toolkit, env):
    folder = recipes / name
    work = pathlib.Path(a.work) / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    log_path = work / "gpuport-validation.log"
    row = {"project": name, "version": vers.get(name, ""), "source": "", "translate": "-", "build": "not reached",
           "validate": "not reached", "seconds": 0, "first_error": "", "class": ""}
    t0 = time.time()
    scripts = sorted(p for p in folder.iterdir() if p.suffix == ".sh")
    clone = [s for s in scripts if s.name.startswith("00-")]
    steps = [s for s in scripts if not s.name.startswith("00-") and not re.search(r"perf|benchmark", s.name)]

    # The source.
    if a.clone:
        rc = run_script([str(s) for s in clone][:1], work, env, a.timeout, log_path) if clone else 0
        row["source"] = "cloned" if rc == 0 else "clone failed"
        if rc != 0:
            row["first_error"] = first_error(log_path.read_text(errors="replace"))
            row["class"] = "source"
            return row
    else:
        text = clone[0].read_text() if clone else ""
        calls = CLONE_CALL.findall(text)
        if not calls:
            row["source"] = "download (offline: not run)"
            row["class"] = "source"
            return row
        notes = []
        for dest, url, key in calls:
            version = vers.get(key, "")
            commit, note = extract_from_mirror(a.mirrors, url, version, work / dest)
            notes.append(note)
            if commit is None:
                row["source"] = note
                row["class"] = "source"
                return row
        row["source"] = "; ".join(notes)

    reductions = apply_emulation_changes(name, work)
    if reductions:
        row["source"] += "; for emulation: " + ", ".join(reductions)
    substitutes = make_substitute_inputs(name, work, log_path)
    if substitutes:
        row["source"] += "; input made here: " + ", ".join(substitutes)
    env = dict(env)
    for variable, value, why in MACHINE_ENVIRONMENT.get(name, []):
        if os.cpu_count() and os.cpu_count() < 4:
            env[variable] = value
            row["source"] += f"; for this machine: {why} ({variable}={value})"

    if a.route == "project":
        # gpuport's own route: each cloned tree translated whole (sources and CMake build) in
        # its place, the original kept beside it as NAME.cuda; then the same recipe.
        for tree in [p for p in work.iterdir() if p.is_dir()]:
            original = tree.with_name(tree.name + ".cuda")
            tree.rename(original)
            with open(log_path, "a") as log:
                log.write(f"--------------- gpuport translate --project {tree.name} ---------------\n")
            rc = run_script([a.gpuport, "translate", "--hip-version", a.hip_version, "--project", str(original), "-o", str(tree)],
                            work, env, a.timeout, log_path)
            if not tree.is_dir():
                row["build"] = "translate failed"
                row["first_error"] = first_error(log_path.read_text(errors="replace"))
                row["class"] = "translate"
                row["seconds"] = round(time.time() - t0)
                return row
            row["translate"] = "ok" if rc == 0 else "with errors (files kept unchanged)"

    # Patch, build, check: the first step that fails ends the project, as in SCALE's test.sh.
    for step in steps:
        stage = "validate" if re.search(r"test|example|run", step.name) else "build"
        before = log_path.stat().st_size if log_path.exists() else 0
        with open(log_path, "a") as log:
            log.write(f"--------------- {step.name} ---------------\n")
        rc = run_script([str(step)], work, env, a.timeout, log_path)
        text = log_path.read_text(errors="replace")[before:]
        if rc != 0:
            row[stage] = "timed out" if rc == "timeout" else f"failed ({step.name})"
            if stage == "validate" and row["build"] == "not reached":
                row["build"] = "ok"
            row["first_error"] = f"timed out after {a.timeout} s" if rc == "timeout" else first_error(text)
            row["class"] = "time" if rc == "timeout" else classify(row["first_error"])
            break
        if stage == "build":
            row["build"] = "ok"
        else:
            row["build"] = "ok"
            row["validate"] = "ok (emulated)"
    else:
        missing = [p for p in PRODUCTS.get(name, []) if not (work / p).exists()]
        if missing:
            row["build"] = "failed (no " + ", ".join(missing) + ")"
            text = log_path.read_text(errors="replace") if log_path.exists() else ""
            row["first_error"] = first_error(text) or f"{missing[0]} was not built"
            row["class"] = classify(row["first_error"])
        elif row["validate"] == "not reached" and row["build"] == "ok":
            row["validate"] = "no check in the recipe"
    row["seconds"] = round(time.time() - t0)
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("gpuport")
    p.add_argument("recipes")
    p.add_argument("work")
    p.add_argument("--mirrors", default="/work/.mirror")
    p.add_argument("--clone", action="store_true", help="run the recipes' clone scripts (needs the network)")
    p.add_argument("--only", nargs="*", help="these projects (folder names) instead of SCALE's 44")
    p.add_argument("--timeout", type=int, default=1800, help="seconds per script")
    p.add_argument("--hip-version", default="6.4")
    p.add_argument("--json", help="also write the rows here")
    p.add_argument("--route", choices=["toolkit", "project"], default="toolkit",
                   help="toolkit: SCALE's route, the project's build with gpuport nvcc as its nvcc; project: "
                        "`gpuport translate --project` first, then the same recipe")
    a = p.parse_args()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    recipes = pathlib.Path(a.recipes).resolve()
    work = pathlib.Path(a.work).resolve()
    a.work = str(work)
    work.mkdir(parents=True, exist_ok=True)
    if not (recipes / "versions.txt").exists() and (recipes / "HEAD").exists():
        # A bare repository (a mirror): its newest tree, unpacked once.
        tree = work / "recipes"
        if tree.exists():
            shutil.rmtree(tree)
        tree.mkdir()
        archive = subprocess.Popen(["git", "--git-dir", str(recipes), "archive", "HEAD"], stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(tree)], stdin=archive.stdout, check=True)
        archive.wait()
        recipes = tree
    vers = versions(recipes)
    toolkit = work / "toolkit"
    subprocess.run([a.gpuport, "nvcc", "--hip-version", a.hip_version, "--toolkit", str(toolkit)], check=True,
                   capture_output=True)
    # test.sh's environment for a CUDA toolkit folder that is not SCALE's: the folder's
    # bin/gpuportenv (what scaleenv is to SCALE: CUDA_HOME and friends, its nvcc first on PATH, the
    # emulator's HIP runtime found by the programs the checks run, and the link options that let
    # programs linking ROCm 6.4's libraries start directly).
    sourced = subprocess.run(["sh", "-c", '. "$0" && env -0', str(toolkit / "bin" / "gpuportenv")], check=True,
                             capture_output=True).stdout
    env = dict(item.split("=", 1) for item in sourced.decode().split("\0") if "=" in item)
    env.update({
        "CUDAARCHS": "86",  # CMake needs an NVIDIA number; gpuport nvcc builds gfx1100 whatever it is
        "MAKEFLAGS": "-O -k", "TEST_GPU_ARCH": "gfx1100",
    })
    names = a.only if a.only else [n for n, _ in SCALE_TABLE]
    scale = dict(SCALE_TABLE)
    rows = []
    for name in names:
        if not (recipes / name).is_dir():
            print(f"no recipe folder {name}", file=sys.stderr)
            continue
        row = run_project(name, a, recipes, vers, toolkit, env)
        row["scale_gfx1100"] = scale.get(name)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(rows, indent=1) + "\n")
    cols = ["project", "version", "source", "translate", "build", "validate", "seconds", "first_error", "class"]
    print("| " + " | ".join(cols + ["SCALE 1.7.1"]) + " |")
    print("|" + " --- |" * (len(cols) + 1))
    for r in rows:
        cells = [str(r[c]).replace("|", "\\|") for c in cols]
        cells.append({True: "validated", False: "not", None: "-"}[r["scale_gfx1100"]])
        print("| " + " | ".join(cells) + " |")
    ok = sum(1 for r in rows if r["validate"].startswith("ok"))
    print(f"\n{ok} of {len(rows)} validated (emulated); SCALE 1.7.1: "
          f"{sum(1 for r in rows if r['scale_gfx1100'])} of these on gfx1100")


if __name__ == "__main__":
    main()
