# heat2d: thin wrappers over CMake and CTest.
#   make bench   build, check, and benchmark every method this machine can run
#   make test    build and run the test suite
BUILD    ?= build
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all setup build test bench clean

all: build

setup:
	@tools/setup.sh

build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/bin/heat2d check
	$(BUILD)/bin/heat2d bench $(BENCH_FLAGS)

clean:
	rm -rf $(BUILD)
