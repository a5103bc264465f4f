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

# Translates the bundled CUDA project (examples/) into build/demo/, prints the report, and
# compile-checks every translated unit for AMD gfx1100 and for HIP's NVIDIA platform.
demo: build
	@rm -rf $(BUILD)/demo
	$(GPUPORT) translate examples -o $(BUILD)/demo --check -j $(JOBS)
	@echo "translated project: $(BUILD)/demo"

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@bench/translate_throughput.sh

clean:
	rm -rf $(BUILD) build-debug build-asan
