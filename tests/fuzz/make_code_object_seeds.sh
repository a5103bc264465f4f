#!/usr/bin/env bash
# Seeds for code_object_fuzz: the golden tests' HIP sources built for gfx1100 (wave32 and
# wave64) as executables, objects, offload bundles and bare code objects, a code object linked
# from two assembled objects, and a host executable with a RUNPATH.
#   tests/fuzz/make_code_object_seeds.sh SEEDS_DIR [DEVICE_LIB_DIR]
set -euo pipefail
out=${1:?usage: make_code_object_seeds.sh SEEDS_DIR [DEVICE_LIB_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
libs=${2:-$root/build/rocm-device-libs}
mkdir -p "$out"
hip=(clang-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr --rocm-device-lib-path="$libs" -O1)
for src in "$root"/tests/golden/amdgpu/Inputs/tiny.hip "$root"/tests/golden/amdgpu/Inputs/kernels.hip \
           "$root"/tests/golden/run/Inputs/module_kernels.hip "$root"/tests/golden/run/Inputs/hostile.hip; do
  name=$(basename "$src" .hip)
  for wave in 32 64; do
    flags=()
    [ "$wave" = 64 ] && flags=(-mwavefrontsize64)
    "${hip[@]}" "${flags[@]}" -I"$(dirname "$src")" --cuda-device-only --no-gpu-bundle-output -c "$src" -o "$out/$name.w$wave.co"
    "${hip[@]}" "${flags[@]}" -I"$(dirname "$src")" --cuda-device-only -c "$src" -o "$out/$name.w$wave.bundle"
  done
  "${hip[@]}" -I"$(dirname "$src")" -c "$src" -o "$out/$name.o"
done
# A code object linked from two assembled objects (one metadata note each, as rocBLAS's Tensile
# libraries are), and a host executable with a RUNPATH that links a library of its own.
inputs="$root/tests/golden/run/Inputs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for part in linked_a linked_b; do
  "${hip[@]}" --cuda-device-only -S "$inputs/$part.hip" -o "$work/$part.s"
  llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1100 -filetype=obj "$work/$part.s" -o "$work/$part.o"
done
ld.lld-19 -shared "$work/linked_a.o" "$work/linked_b.o" -o "$out/linked.co"
"${hip[@]}" -fPIC -shared "$inputs/kernels_in_library.hip" -o "$work/libtwice.so" -lamdhip64
clang++-19 "$inputs/uses_library.cpp" -o "$out/uses_library.exe" -L"$work" -ltwice -Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'
ls "$out" | wc -l
