# lit configuration for gpuport's golden tests. Each test file carries its own RUN: lines;
# %gpuport is the built tool, FileCheck/not/count come from llvm-19-tools.
import os
import shutil
import lit.formats

config.name = "gpuport-golden"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cuh", ".cpp", ".h", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.gpuport_bin), "tests", "golden-out")

config.substitutions.append(("%gpuport", os.path.join(config.gpuport_bin, "gpuport")))
config.substitutions.append(("%devicelibs", config.device_lib_dir))
config.substitutions.append(("%srcroot", config.source_root))
config.environment["PATH"] = os.pathsep.join([config.llvm_bin, config.environment.get("PATH", "/usr/bin:/bin")])
config.environment["GPUPORT_ROCM_DEVICE_LIB_PATH"] = config.device_lib_dir

# Compile checks need both vendors' compilers; tests that use them say REQUIRES: hip-compilers.
if shutil.which("clang++-19") and os.path.exists("/usr/include/hip/hip_runtime.h") and \
        os.path.exists("/usr/bin/nvcc") and shutil.which("clang-14") and \
        os.path.exists(os.path.join(config.device_lib_dir, "oclc_isa_version_1100.bc")):
    config.available_features.add("hip-compilers")
