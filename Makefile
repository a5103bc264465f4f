# The two entry points a new user needs (see README.md). Both install what is missing first.
JOBS ?= $(shell nproc)
BUILD := build
GPUPORT := $(BUILD)/bin/gpuport

.PHONY: demo test build bootstrap bench clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

# Translates the bundled CUDA projects (examples/) into build/demo/ and prints the reports, for
# HIP 6.4 (the default target): particles' units are compile-checked for AMD gfx1100 (and, for
# HIP 5.2, whose NVIDIA platform headers Debian packages, for NVIDIA too); heat, a CMake project,
# is translated with its build (--project), built with CMake's HIP language against HIP 6.4, and
# both its programs run on gpuport's gfx1100 emulator.
demo: build
	@rm -rf $(BUILD)/demo
	$(GPUPORT) translate examples/particles -o $(BUILD)/demo/particles --check -j $(JOBS)
	$(GPUPORT) translate examples/particles -o $(BUILD)/demo/particles-hip52 --hip-version 5.2 --check -j $(JOBS)
	$(GPUPORT) translate --project examples/heat -o $(BUILD)/demo/heat -j $(JOBS)
	cmake -S $(BUILD)/demo/heat -B $(BUILD)/demo/heat-build -DCMAKE_HIP_ARCHITECTURES=gfx1100 >$(BUILD)/demo/heat-configure.log
	cmake --build $(BUILD)/demo/heat-build -j $(JOBS)
	$(GPUPORT) run $(BUILD)/demo/heat-build/heat_reference
	$(GPUPORT) run $(BUILD)/demo/heat-build/heat
	@echo "translated projects: $(BUILD)/demo/particles (and particles-hip52), $(BUILD)/demo/heat (built in $(BUILD)/demo/heat-build, run emulated)"

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@bench/translate_throughput.sh

clean:
	rm -rf $(BUILD) build-debug build-asan
