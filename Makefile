# heat2d: thin wrappers over CMake and CTest.
#   make bench          build, check, and benchmark every method this machine can run
#   make test           build and run the test suite
#   make test-sanitize  the test suite again, built with AddressSanitizer and UBSan
#   make fuzz           build the libFuzzer targets with clang, run each FUZZ_SECONDS
#   make format-check   fail on any C, CUDA or header file that clang-format would change
#   make install PREFIX=DIR   heat2d and its plot script into DIR/bin, DIR/share
#                       (default ~/.local: ~/.local/bin is on a login shell's PATH)
#   make original ORIGINAL=DIR  the article's three Fortran programs from its sources in DIR
#                       (gfortran; offloaded to the GPU where GCC's offload compiler can)
#   make bench ORIGINAL=DIR     the same, and those three in the bench's table
BUILD    ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 20
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all setup build test test-sanitize fuzz format-check bench original install clean

# Tools a machine keeps outside a new user's PATH (CUDA's, /opt's) are found
# too, after the user's own: tools/tool_path.sh.
export PATH := $(shell tools/tool_path.sh)

all: build

# make bench's set-up installs what the bench needs; the tests' adds what
# only they use (gfortran, valgrind, docker-compose, GCC's offload compiler
# that test_matrix builds with, ...): tools/setup.sh says which.
setup:
	@tools/setup.sh $(SETUP_FOR)
test test-sanitize: SETUP_FOR = test

# Builds read nothing from stdin: with stdin open, the ptxas that GCC's nvptx
# assembler runs to verify its output waits on it.
build: setup
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) </dev/null
	cmake --build $(BUILD) -j $(JOBS) </dev/null

# tools/run_tests.sh: CTest's line as each test ends, the reasons of what was
# skipped, and a closing count.
test: build
	@$(RUN_ENV) tools/run_tests.sh $(BUILD) $(JOBS)

# CUDA, OpenACC offload and OpenMP target stay off: none's device code is
# instrumented (and the nvptx image cannot link the sanitizers' runtime),
# and without a GPU those methods cannot run anyway.
test-sanitize: setup
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Release -DHEAT2D_SANITIZE=ON -DHEAT2D_CUDA=OFF -DHEAT2D_OPENACC_OFFLOAD=OFF -DHEAT2D_OMP_TARGET=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	@tools/run_tests.sh $(ASAN_BUILD) $(JOBS)

# clang has no OpenACC and this build needs no OpenMP or MPI: the fuzz
# targets exercise the library's parsers, its NetCDF reader (NetCDF ON) and
# the bench's trials.csv reader.
fuzz:
	@tools/setup.sh fuzz
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang -DHEAT2D_FUZZ=ON \
	  -DHEAT2D_OPENACC=OFF -DHEAT2D_OMP=OFF -DHEAT2D_OMP_TARGET=OFF -DHEAT2D_CUDA=OFF -DHEAT2D_MPI=OFF \
	  -DHEAT2D_NETCDF=ON \
	  -DBUILD_TESTING=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_field fuzz_real fuzz_args fuzz_series fuzz_csv \
	  fuzz_netcdf
	tools/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

format-check:
	@tools/setup.sh format
	tools/check_format.sh

# An OpenACC or OpenMP target offload build keeps GCC's OpenMP/OpenACC
# runtime and its nvptx plugin in $(BUILD)/lib, so that the programs use the
# runtime they were built with.
RUN_ENV = LD_LIBRARY_PATH=$(abspath $(BUILD))/lib$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}

# The article's own programs, built from the user's copy of its sources
# (heat2d ships none): checked and benchmarked beside heat2d's methods as
# f-cpu, f-acc-each and f-acc-persistent.
ORIGINAL_OUT = $(BUILD)/original
ORIGINAL_PROGRAMS = $(if $(ORIGINAL),--program f-cpu=$(ORIGINAL_OUT)/reference_cpu \
  --program f-acc-each=$(ORIGINAL_OUT)/acc_each_step \
  --program f-acc-persistent=$(ORIGINAL_OUT)/acc_persistent)
original:
	@test -n "$(ORIGINAL)" || { echo "make original: ORIGINAL=DIR names the folder of the article's Fortran sources" >&2; exit 2; }
	tools/build_original.sh "$(ORIGINAL)" "$(ORIGINAL_OUT)" "$(BUILD)"

# With an NVIDIA GPU, the check runs every GPU method on it too.
bench: build $(if $(ORIGINAL),original)
	$(RUN_ENV) $(BUILD)/bin/heat2d check $$(nvidia-smi -L >/dev/null 2>&1 && echo --gpu)
	$(if $(ORIGINAL),$(RUN_ENV) $(BUILD)/bin/heat2d check $(ORIGINAL_PROGRAMS))
	$(RUN_ENV) $(BUILD)/bin/heat2d bench $(BENCH_FLAGS) $(ORIGINAL_PROGRAMS)

PREFIX ?= $(HOME)/.local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
