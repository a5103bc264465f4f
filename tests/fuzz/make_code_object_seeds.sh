#!/usr/bin/env bash
# Seeds for code_object_fuzz: the golden tests' HIP sources built for gfx1100 (wave32 and
# wave64) as executables, objects, offload bundles and bare code objects.
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
ls "$out" | wc -l
