"""Compares `gpuport amdgpu --json` with llvm-objdump's disassembly of the same code object.

Usage: compare_objdump.py LISTING.json OBJDUMP.txt. Each kernel's instruction texts must equal
llvm-objdump's lines for that symbol (trailing padding aside), in order."""
import json
import re
import sys

listing = json.load(open(sys.argv[1]))
objdump = {}
current = None
for line in open(sys.argv[2]):
    m = re.match(r"^(?:[0-9a-f]+ )?<(.+)>:$", line.strip())
    if m:
        current = objdump.setdefault(m.group(1), [])
        continue
    text = line.split("//")[0].strip()
    if current is not None and text:
        current.append(" ".join(text.split()))
failures = 0
for k in listing["kernels"]:
    ours = [" ".join(i["text"].split()) for i in k["instructions"]]
    theirs = objdump.get(k["name"], [])
    # llvm-objdump runs each symbol up to the next one: the alignment padding after the kernel's
    # own bytes (its symbol size) is s_nop 0 or s_code_end.
    if len(theirs) > len(ours) and all(t in ("s_code_end", "s_nop 0") for t in theirs[len(ours):]):
        theirs = theirs[:len(ours)]
    if ours != theirs:
        failures += 1
        n = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
        print("MISMATCH %s at instruction %d: gpuport %r, llvm-objdump %r (%d vs %d instructions)" % (
            k["name"], n, ours[n] if n < len(ours) else None, theirs[n] if n < len(theirs) else None, len(ours), len(theirs)))
    else:
        print("SAME %s %d instructions" % (k["name"], len(ours)))
sys.exit(1 if failures else 0)
