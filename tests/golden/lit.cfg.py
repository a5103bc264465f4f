# lit configuration for gpuport's golden tests. Each test file carries its own RUN: lines;
# %gpuport is the built tool, FileCheck/not/count come from llvm-19-tools.
import os
import sys
import shutil
import lit.formats

config.name = "gpuport-golden"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cuh", ".cpp", ".h", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "lit_jit_compare.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.gpuport_bin), "tests", "golden-out")

# `lit --param jit=compare` (the golden_jit_compare test): every `%gpuport run` under --jit compare,
# through a wrapper; tests without one are UNSUPPORTED there (the golden test runs them), as are
# those that choose --jit themselves (`UNSUPPORTED: jit-compare`). Outputs go to a folder of
# their own, so that both can run at once.
if lit_config.params.get("jit") == "compare":
    config.available_features.add("jit-compare")
    config.test_exec_root += "-jit-compare"
    config.substitutions.append(("%gpuport", "sh " + os.path.join(os.path.dirname(__file__), "jit-compare-gpuport.sh") + " " +
                                 os.path.join(config.gpuport_bin, "gpuport")))

    sys.path.insert(0, os.path.dirname(__file__))
    import lit_jit_compare
    config.test_format = lit_jit_compare.RunsOnly(execute_external=False)
else:
    config.substitutions.append(("%gpuport", os.path.join(config.gpuport_bin, "gpuport")))
# The emulator's HIP runtime library for HIP 5.2 (libamdhip64.so.5 of `gpuport run`).
config.substitutions.append(("%hipruntime", os.path.join(os.path.dirname(config.gpuport_bin), "emu-runtime", "libamdhip64.so.5")))
config.substitutions.append(("%devicelibs", config.device_lib_dir))
config.substitutions.append(("%srcroot", config.source_root))
config.substitutions.append(("%python", sys.executable))
config.environment["PATH"] = os.pathsep.join([config.llvm_bin, config.environment.get("PATH", "/usr/bin:/bin")])
config.environment["GPUPORT_ROCM_DEVICE_LIB_PATH"] = config.device_lib_dir

# Compile checks need both vendors' compilers; tests that use them say REQUIRES: hip-compilers.
if shutil.which("clang++-19") and os.path.exists("/usr/include/hip/hip_runtime.h") and \
        os.path.exists("/usr/bin/nvcc") and shutil.which("clang-14") and \
        os.path.exists(os.path.join(config.device_lib_dir, "oclc_isa_version_1100.bc")):
    config.available_features.add("hip-compilers")
# CMake's HIP language on Debian 12: CMake 3.21 or later, and hipcc (Debian's hip-config.cmake
# checks that /usr/bin/hipcc exists).
if shutil.which("cmake") and os.path.exists("/usr/bin/hipcc") and \
        os.path.exists("/usr/lib/x86_64-linux-gnu/cmake/hip-lang/hip-lang-config.cmake"):
    config.available_features.add("cmake-hip")
# nvcc's own option lists (`nvcc --help`), to compare gpuport nvcc's table with.
if os.access("/usr/lib/nvidia-cuda-toolkit/bin/nvcc", os.X_OK):
    config.available_features.add("nvcc11")
if os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
    config.available_features.add("nvcc13")
# CMake's CUDA language with CUDA 13's nvcc (which takes Debian's gcc 12 as its host compiler).
if shutil.which("cmake") and os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
    config.available_features.add("cmake-cuda13")

# HIP executables for gfx1100 (gpuport amdgpu, the emulator's tests): clang-19's HIP driver with
# Debian's HIP 5.2 runtime and the device-library folder, and clang-offload-bundler-19.
if shutil.which("clang-19") and shutil.which("clang-offload-bundler-19") and \
        os.path.exists("/usr/include/hip/hip_runtime.h") and \
        os.path.exists("/usr/lib/x86_64-linux-gnu/libamdhip64.so") and \
        os.path.exists(os.path.join(config.device_lib_dir, "oclc_isa_version_1100.bc")):
    config.available_features.add("hip-gfx1100")
    config.substitutions.append(("%hipcc", "clang-19 -x hip --offload-arch=gfx1100 --rocm-path=/usr "
                                 "--rocm-device-lib-path=" + config.device_lib_dir))
    config.substitutions.append(("%hiplink", "-lamdhip64 -lstdc++ -lm"))

# HIP 6.4 from Debian sid (scripts/fetch-rocm-6.4, run by scripts/bootstrap, into build/rocm-6.4):
# programs compiled against its headers alone (clang-hip.rsp: no Debian 12 HIP 5.2, no NVIDIA
# libcu++ beside them) and linked against its real libamdhip64.so.6, whose own dependencies need a newer glibc and are
# left unresolved; they run on the emulator's libamdhip64.so.6.
_rocm64 = os.path.join(config.hip64_root, "usr")
if "hip-gfx1100" in config.available_features and \
        os.path.exists(os.path.join(_rocm64, "include", "hip", "hip_bf16.h")) and \
        os.path.exists(os.path.join(_rocm64, "lib", "x86_64-linux-gnu", "libamdhip64.so.6")) and \
        os.path.exists(os.path.join(config.hip64_root, "clang-hip.rsp")) and \
        os.path.exists(os.path.join(os.path.dirname(config.gpuport_bin), "emu-runtime", "libamdhip64.so.6")):
    config.available_features.add("hip64")
    config.substitutions.append(("%hip64cc", "clang-19 -x hip --offload-arch=gfx1100 @" +
                                 os.path.join(config.hip64_root, "clang-hip.rsp") +
                                 " --rocm-device-lib-path=" + config.device_lib_dir))
    config.substitutions.append(("%hip64link", "-L" + os.path.join(_rocm64, "lib", "x86_64-linux-gnu") +
                                 " -Wl,--unresolved-symbols=ignore-in-shared-libs -lamdhip64 -lstdc++ -lm"))
# ROCm 6.4's libraries from sid (scripts/fetch-rocm-6.4-libs, which bootstrap runs for hipRAND):
# programs link them from there, and gpuport run starts them with sid's loader.
_rocm64_libs = os.path.join(config.source_root, "build", "rocm-6.4-libs", "usr", "lib", "x86_64-linux-gnu")
if "hip64" in config.available_features and os.path.exists(os.path.join(_rocm64_libs, "ld-linux-x86-64.so.2")):
    for _name, _soname in (("hiprand", "libhiprand.so.1"), ("rocblas", "librocblas.so.4"), ("hipblas", "libhipblas.so.2")):
        if os.path.exists(os.path.join(_rocm64_libs, _soname)):
            config.available_features.add("rocm64-" + _name)
config.substitutions.append(("%hip64libs", "-L" + _rocm64_libs))
config.substitutions.append(("%hip64runtime", os.path.join(os.path.dirname(config.gpuport_bin), "emu-runtime", "libamdhip64.so.6")))

# hipBLAS, hipCUB/rocPRIM, rocThrust, hipFFT ... from Debian 13 (scripts/fetch-rocm-headers, run by
# scripts/bootstrap), which translate --check compiles library translations against.
if os.path.isdir(os.path.join(config.source_root, "build", "rocm-headers", "amd-libs")):
    config.available_features.add("rocm-library-headers")

# gpuport sass --divergence --svg renders with Graphviz's dot.
if shutil.which("dot"):
    config.available_features.add("graphviz")

# SASS from .cu/.cubin (gpuport sass): CUDA 11.8's nvcc + nvdisasm (Debian puts nvdisasm in
# /usr/bin), and CUDA 13's nvcc + the nvdisasm from the nvidia-cuda-nvdisasm wheel.
def _first_executable(paths):
    return next((p for p in paths if p and os.access(p, os.X_OK)), None)

if _first_executable(["/usr/lib/nvidia-cuda-toolkit/bin/nvdisasm", "/usr/bin/nvdisasm"]) and \
        os.path.exists("/usr/lib/nvidia-cuda-toolkit/bin/nvcc") and shutil.which("clang-14"):
    config.available_features.add("cuda11-tools")
_cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "gpuport")
_nvdisasm13 = _first_executable([os.environ.get("GPUPORT_NVDISASM13"), "/usr/local/cuda/bin/nvdisasm",
                                 os.path.join(_cache, "nvdisasm13", "nvidia", "cu13", "bin", "nvdisasm")])
if _nvdisasm13 and os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
    config.available_features.add("cuda13-tools")
    config.environment["GPUPORT_NVDISASM13"] = _nvdisasm13
for _name in ("HOME", "XDG_CACHE_HOME", "GPUPORT_CUOBJDUMP13"):
    if os.environ.get(_name):
        config.environment[_name] = os.environ[_name]
