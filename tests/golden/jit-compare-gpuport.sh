#!/bin/sh
# The golden suite under `lit --param jit=compare` (the golden_jit_compare test): %gpuport is
# this script, which runs the real gpuport (its first argument) with every `gpuport run` under
# --jit compare, so that each program a test runs checks the JIT against the interpreter.
real="$1"
shift
if [ "$1" = run ]; then
  shift
  exec "$real" run --jit compare "$@"
fi
exec "$real" "$@"
