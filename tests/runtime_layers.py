#!/usr/bin/env python3
"""The emulator's HIP runtime is a core with the HIP API as thin files over it, and calls point one
way, down the layers core <- hip <- hip6:
- src/emu/runtime/core/ defines no HIP entry point and calls none;
- a file of src/emu/runtime/hip/ (the API both ABIs share) calls the core, and of the entry points
  only its own (an alias such as hipMallocHost calling hipHostMalloc), never another file's;
- a file of src/emu/runtime/hip6/ (what HIP 6's ABI adds) calls the core, its own entry points,
  and those of hip/ (a per-thread form calling the entry point it stands for), never another
  hip6/ file's.

Entry points are the functions the runtime exports: every name in data/emu/hip-*-exports.tsv
(C++ overloads demangled to their names). A call is the name followed by "(" outside comments and
string literals; a definition is the name at the start of a line's declarator (a line that does
not begin with white space). Prints each call that points the wrong way with its file and line,
and exits 1 when there is one.

usage: runtime_layers.py [REPO]
"""
import pathlib
import re
import sys

repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
runtime = repo / "src/emu/runtime"


def exported_names():
    names = set()
    for table in sorted((repo / "data/emu").glob("hip-*-exports.tsv")):
        for line in table.read_text().splitlines():
            if not line or line.startswith("#"):
                continue
            symbol = line.split("\t")[0]
            if symbol.startswith("_Z"):
                # _Z<len><name>... or _ZN<len><ns><len><name>E...: the last name of the prefix.
                at, last = 2 + (symbol[2] == "N"), None
                while at < len(symbol) and symbol[at].isdigit():
                    m = re.match(r"\d+", symbol[at:])
                    n = int(m.group())
                    at += len(m.group())
                    last = symbol[at:at + n]
                    at += n
                if last:
                    names.add(last)
            else:
                names.add(symbol)
    return {n for n in names if n.startswith(("hip", "__hip"))}


def code_lines(path):
    """The file's lines with comments and string literals blanked (line numbers kept)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    return text.split("\n")


def main():
    names = exported_names()
    if len(names) < 300:
        print(f"runtime_layers: only {len(names)} entry point names in data/emu/hip-*-exports.tsv")
        return 1
    call = re.compile(r"(?<![\w.>:])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\s*\(")
    files = sorted(runtime.rglob("*.cc")) + sorted(runtime.rglob("*.h"))
    defined_in = {}  # entry point -> files that define it
    uses = []  # (file, line number, name, is definition)
    for path in files:
        for number, line in enumerate(code_lines(path), 1):
            for m in call.finditer(line):
                definition = not line[:1].isspace() and not line.lstrip().startswith("return") and \
                    re.match(r"^[\w:<>*&\s,]*\b" + re.escape(m.group(1)) + r"\s*\($", line[:m.end()]) is not None
                uses.append((path, number, m.group(1), definition))
                if definition:
                    defined_in.setdefault(m.group(1), set()).add(path)
    rank = {"core": 0, "hip": 1, "hip6": 2}  # a layer calls the entry points of the layers below it
    problems = []
    for path, number, name, definition in uses:
        layer = path.relative_to(runtime).parts[0]
        where = f"{path.relative_to(repo)}:{number}"
        if layer == "core":
            what = "defines" if definition else "calls"
            problems.append(f"{where}: the core {what} the entry point {name} (core/ calls no HIP entry point)")
            continue
        if definition or path in defined_in.get(name, {path}):
            continue
        below = [p for p in defined_in[name] if rank.get(p.relative_to(runtime).parts[0], 9) < rank.get(layer, 0)]
        if not below:
            others = ", ".join(str(p.relative_to(repo)) for p in sorted(defined_in[name]))
            problems.append(f"{where}: calls the entry point {name} of {others} (an entry point calls the core, or the layer below)")
    # What the core is made of lives in core/: an entry-point file adds nothing to the core's
    # namespace but file-local helpers (an anonymous namespace).
    for path in files:
        layer = path.relative_to(runtime).parts[0]
        if layer == "core" or path.suffix != ".cc":
            continue
        stack = []  # namespaces open at this line (closed by "}  // namespace ...", this project's style)
        raw = path.read_text(encoding="utf-8").split("\n")
        for number, line in enumerate(code_lines(path), 1):
            where = f"{path.relative_to(repo)}:{number}"
            if re.match(r"^namespace [\w:]+ \{", line) or line.startswith("namespace {"):
                stack.append(line.split()[1])
            elif stack and re.match(r"^\}\s*// namespace", raw[number - 1]):
                stack.pop()
            elif line[:1].strip() and stack and stack[-1] == "gpuport::emu::hip" and not line.startswith(("#", "using")):
                problems.append(f"{where}: adds to the core's namespace outside an anonymous namespace (core/ holds what the core is)")
            elif re.match(r"^[\w:<>*&\s]*\bgpuport::emu::hip::\w+\s*\(", line):
                problems.append(f"{where}: defines a core function (core/ holds what the core is)")
    for p in problems:
        print(p)
    definitions = sum(len(v) for v in defined_in.values())
    print(f"runtime_layers: {len(files)} files, {definitions} entry point definitions, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
