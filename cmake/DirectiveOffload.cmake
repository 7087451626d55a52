# Directive models (OpenACC, OpenMP `target`): whether a model's test
# program compiles, links and runs, on the host or offloaded to NVIDIA GPUs
# (GCC's nvptx offload compiler, or Clang's OpenMP offload), and how a
# model is used on the host alone.
#
# The rule, enforced here: GCC's nvptx offload link (mkoffload) refuses a
# link whose offloaded code was compiled with both -fopenacc and -fopenmp,
# in one object or across objects ("either '-fopenacc' or '-fopenmp' must
# be set"). GCC 12 streams the offload code of every compute region even
# under -foffload=disable, so a region built for the host counts too (and a
# link that says -foffload=disable, as a host build's does, turns the other
# model's offload off). The rule is a link's, not a process's: each shared
# object carries its own device image and registers it with the one
# runtime (libgomp). So
#   - a program's own objects hold the compute regions (OpenACC's, or
#     OpenMP `target` regions) of one directive model at most, offloaded or
#     not: OpenACC's; the OpenMP target methods are a shared library;
#   - a program's link offloads one directive model at most:
#     heat2d_directive_offload refuses a second model, naming the one that
#     offloads, unless the second is asked for with OWN_LINK: a shared
#     library of its own (the OpenMP target methods'), whose offload link
#     is separate;
#   - a model used on the host beside another's offload (OpenMP threads
#     without target regions: the omp method, the host bandwidth probe) is
#     compiled with offloading disabled and links only its runtime
#     (heat2d_directive_host_only), never OpenMP::OpenMP_C, whose -fopenmp
#     would reach the compile of every source that links it, the offloaded
#     OpenACC sources included.
# Objects of host-only OpenMP without target regions link fine beside
# either model's offload. Clang has no such rule (and no OpenACC).

# heat2d_directive_probe(PREFIX SOURCE FILE FLAGS FLAG... [LINK_FLAGS FLAG...]):
# compiles, links and runs FILE with FLAGS (to the compile and the link)
# and LINK_FLAGS (the link alone), afresh each configure (a compiler
# installed since is seen). Sets PREFIX_OK (ON when it ran and exited 0),
# PREFIX_BUILT, PREFIX_EXIT, PREFIX_OUTPUT (what it printed, stripped) and
# PREFIX_ERROR (a failed build's first error).
function(heat2d_directive_probe prefix)
  cmake_parse_arguments(P "" "SOURCE" "FLAGS;LINK_FLAGS" ${ARGN})
  # try_run splits a compile flag at its spaces, and an -foffload-options=
  # flag holds some: it goes to the link alone, where GCC's offload
  # compiler runs (the compile only streams the regions).
  set(compile_flags ${P_FLAGS})
  list(FILTER compile_flags EXCLUDE REGEX "^-foffload-options=")
  string(MAKE_C_IDENTIFIER "HEAT2D_DIRECTIVE_${prefix}" id)
  try_run(${id}_RUN ${id}_BUILT ${CMAKE_BINARY_DIR}/directive_probes/${id} ${P_SOURCE}
          COMPILE_DEFINITIONS ${compile_flags}
          LINK_OPTIONS ${P_FLAGS} ${P_LINK_FLAGS}
          COMPILE_OUTPUT_VARIABLE compile_out RUN_OUTPUT_VARIABLE run_out)
  set(built "${${id}_BUILT}")
  set(run_rc "${${id}_RUN}")
  unset(${id}_RUN CACHE)
  unset(${id}_BUILT CACHE)
  set(ok OFF)
  if(built AND run_rc EQUAL 0)
    set(ok ON)
  endif()
  string(STRIP "${run_out}" run_out)
  set(error "")
  if(NOT built)
    heat2d_compiler_why("${compile_out}" error)
  endif()
  set(${prefix}_OK ${ok} PARENT_SCOPE)
  set(${prefix}_BUILT ${built} PARENT_SCOPE)
  set(${prefix}_EXIT "${run_rc}" PARENT_SCOPE)
  set(${prefix}_OUTPUT "${run_out}" PARENT_SCOPE)
  set(${prefix}_ERROR "${error}" PARENT_SCOPE)
endfunction()

# heat2d_directive_host_flags(OUT): what keeps a directive model's code on
# the host: with GCC, -foffload=disable (an installed offload compiler is
# otherwise tried); nothing with other compilers.
function(heat2d_directive_host_flags out)
  set(flags "")
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    set(flags -foffload=disable)
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# heat2d_directive_host(PREFIX MODEL NAME FLAG FLAG SOURCE FILE): whether
# the C compiler builds and runs the model's test program for the host (a
# compiler can accept the flag and still fail to link such a program, as a
# GCC without its lto-wrapper does). PREFIX_OK; PREFIX_WHY when not.
function(heat2d_directive_host prefix)
  cmake_parse_arguments(H "" "MODEL;FLAG;SOURCE" "" ${ARGN})
  heat2d_directive_host_flags(host_only)
  heat2d_directive_probe(probe SOURCE ${H_SOURCE} FLAGS ${H_FLAG} ${host_only})
  set(${prefix}_OK ${probe_OK} PARENT_SCOPE)
  if(probe_OK)
    return()
  elseif(probe_BUILT)
    set(${prefix}_WHY "its ${H_MODEL} test program failed (exit ${probe_EXIT})" PARENT_SCOPE)
  else()
    set(${prefix}_WHY "${CMAKE_C_COMPILER} cannot build an ${H_MODEL} program (${probe_ERROR})"
        PARENT_SCOPE)
  endif()
endfunction()

# heat2d_directive_other_gcc(FIX_OUT FLAG FLAG SOURCE FILE): the fix to name
# when this C compiler cannot build the model's test program for the host:
# another GCC on this machine that can, else GCC in general.
function(heat2d_directive_other_gcc fix_out)
  cmake_parse_arguments(O "" "FLAG;SOURCE" "" ${ARGN})
  get_filename_component(current "${CMAKE_C_COMPILER}" REALPATH)
  set(test_dir ${CMAKE_BINARY_DIR}/directive_probes/other_gcc)
  file(MAKE_DIRECTORY ${test_dir})
  foreach(name gcc gcc-14 gcc-13 gcc-12)
    foreach(dir /usr/bin /usr/local/bin)
      set(candidate ${dir}/${name})
      if(NOT EXISTS ${candidate})
        continue()
      endif()
      get_filename_component(real "${candidate}" REALPATH)
      if(real STREQUAL current)
        continue()
      endif()
      execute_process(COMMAND ${candidate} ${O_FLAG} -foffload=disable ${O_SOURCE}
                              -o ${test_dir}/test
                      RESULT_VARIABLE built OUTPUT_QUIET ERROR_QUIET TIMEOUT 60)
      if(built EQUAL 0)
        execute_process(COMMAND ${test_dir}/test RESULT_VARIABLE ran OUTPUT_QUIET ERROR_QUIET
                        TIMEOUT 60)
        if(ran EQUAL 0)
          set(${fix_out} "configure with CC=${candidate}, which builds it" PARENT_SCOPE)
          return()
        endif()
      endif()
    endforeach()
  endforeach()
  set(${fix_out} "configure with CC=gcc (a GCC whose ${O_FLAG} programs link)" PARENT_SCOPE)
endfunction()

# heat2d_directive_targets(OUT): the GPUs the build targets, as CUDA
# architecture numbers, oldest first: the CUDA architectures when CUDA is
# built, else this machine's GPU; empty when neither names one.
function(heat2d_directive_targets out)
  set(targets ${HEAT2D_GPU_ARCHS})
  if(HEAT2D_WITH_CUDA)
    set(targets "")
    foreach(arch ${CMAKE_CUDA_ARCHITECTURES})
      if(arch MATCHES "^([0-9]+)")
        list(APPEND targets ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  list(SORT targets COMPARE NATURAL)
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# heat2d_directive_oldest_arch(OUT): the oldest GPU the build targets, as a
# CUDA architecture number, which decides the nvptx ISA: Turing (the oldest
# that CUDA 13 supports) where none is named.
function(heat2d_directive_oldest_arch out)
  heat2d_directive_targets(targets)
  set(oldest 75)
  if(targets)
    list(GET targets 0 oldest)
  endif()
  set(${out} ${oldest} PARENT_SCOPE)
endfunction()

# heat2d_directive_archs(OUT): the GPUs the build targets as the oldest
# architecture of each major version among them (code for X.0 runs on X.y,
# never on X+1); Turing, Ampere and Hopper where none is named.
function(heat2d_directive_archs out)
  heat2d_directive_targets(targets)
  if(NOT targets)
    set(targets 75 80 90)
  endif()
  set(archs "")
  set(majors "")
  foreach(arch ${targets})
    math(EXPR major "${arch} / 10")
    if(NOT major IN_LIST majors)
      list(APPEND majors ${major})
      list(APPEND archs ${arch})
    endif()
  endforeach()
  set(${out} ${archs} PARENT_SCOPE)
endfunction()

# heat2d_directive_offload(PREFIX MODEL NAME FLAG FLAG SOURCE FILE
# [OWN_LINK] [GCC_DEVICE_OPTIONS OPTION...]): whether the compiler offloads
# the model's test program to NVIDIA GPUs: compiles, links and runs it (on
# a GPU, or on the host where there is none). GCC_DEVICE_OPTIONS go to
# GCC's nvptx compiler (-foffload-options) after the ISA; Clang has none. Sets PREFIX_OK; PREFIX_FLAGS, the offload flags (compile
# and link); PREFIX_LINK_FLAGS, the link's own; PREFIX_RUNTIME and
# PREFIX_PTXAS, the offload runtime and the ptxas that made the device
# code (for heat2d info); PREFIX_WARNING, why a GPU may refuse that code
# (empty when nothing is known against it); PREFIX_WHY, what was found
# ("-misa=sm_80, the test kernel ran on the host") or why not. Without
# OWN_LINK the model's regions go into the programs' own link: refused
# without a try while another model offloads there (the rule above), and
# on success MODEL becomes the programs' offloading model. Every model that
# offloads is added to the global property HEAT2D_OFFLOADED_MODELS.
function(heat2d_directive_offload prefix)
  cmake_parse_arguments(D "OWN_LINK" "MODEL;FLAG;SOURCE" "GCC_DEVICE_OPTIONS" ${ARGN})
  set(${prefix}_OK OFF PARENT_SCOPE)
  get_property(offloading GLOBAL PROPERTY HEAT2D_OFFLOAD_MODEL)
  if(NOT D_OWN_LINK AND offloading AND NOT offloading STREQUAL D_MODEL)
    set(${prefix}_WHY
        "${offloading} offloads already, and GCC does not link a program that offloads both"
        PARENT_SCOPE)
    return()
  endif()
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    heat2d_directive_offload_clang(try ${D_FLAG} ${D_SOURCE})
  else()
    heat2d_directive_offload_gcc(try ${D_FLAG} ${D_SOURCE} "${D_GCC_DEVICE_OPTIONS}")
  endif()
  if(try_OK)
    if(NOT D_OWN_LINK)
      set_property(GLOBAL PROPERTY HEAT2D_OFFLOAD_MODEL ${D_MODEL})
    endif()
    set_property(GLOBAL APPEND PROPERTY HEAT2D_OFFLOADED_MODELS ${D_MODEL})
    set(${prefix}_OK ON PARENT_SCOPE)
    set(${prefix}_FLAGS "${try_FLAGS}" PARENT_SCOPE)
    set(${prefix}_LINK_FLAGS "${try_LINK_FLAGS}" PARENT_SCOPE)
    set(${prefix}_RUNTIME "${try_RUNTIME}" PARENT_SCOPE)
    set(${prefix}_PTXAS "${try_PTXAS}" PARENT_SCOPE)
    set(${prefix}_WARNING "${try_WARNING}" PARENT_SCOPE)
  endif()
  set(${prefix}_WHY "${try_WHY}" PARENT_SCOPE)
endfunction()

# GCC: its nvptx offload compiler, with the newest -misa of this GCC that
# the oldest targeted GPU can run (the driver JIT-compiles the PTX for
# newer ones); the link also needs -no-pie (GCC 12's offload table is not
# position-independent). DEVICE_OPTIONS: the caller's options for the
# nvptx compiler. PREFIX_OK, PREFIX_FLAGS, PREFIX_LINK_FLAGS, PREFIX_WHY as
# heat2d_directive_offload's.
function(heat2d_directive_offload_gcc prefix flag source device_options)
  heat2d_directive_oldest_arch(oldest)
  # GCC's -misa values, newest first; CUDA 13's ptxas takes sm_75 and later.
  set(why "")
  set(extra "")
  foreach(option ${device_options})
    string(APPEND extra " ${option}")
  endforeach()
  foreach(isa 89 80 75)
    if(isa GREATER oldest)
      continue()
    endif()
    set(flags ${flag} -foffload=nvptx-none
              "-foffload-options=nvptx-none=-misa=sm_${isa} -O3 -ffp-contract=off${extra}")
    heat2d_directive_probe(probe SOURCE ${source} FLAGS ${flags} LINK_FLAGS -no-pie)
    if(probe_OK)
      set(${prefix}_OK ON PARENT_SCOPE)
      set(${prefix}_FLAGS "${flags}" PARENT_SCOPE)
      set(${prefix}_LINK_FLAGS -no-pie PARENT_SCOPE)
      set(${prefix}_RUNTIME "libgomp ${CMAKE_C_COMPILER_VERSION} and its nvptx plugin" PARENT_SCOPE)
      set(${prefix}_PTXAS "none: PTX (-misa=sm_${isa}), which the driver compiles at load" PARENT_SCOPE)
      set(${prefix}_WARNING "" PARENT_SCOPE)
      set(${prefix}_WHY "-misa=sm_${isa}, the test kernel ran on the ${probe_OUTPUT}" PARENT_SCOPE)
      return()
    endif()
    # The compiler's first error says why (no nvptx-none offload compiler,
    # or ptxas refusing the ISA).
    heat2d_directive_probe_why(why)
  endforeach()
  set(${prefix}_OK OFF PARENT_SCOPE)
  set(${prefix}_WHY "${why}" PARENT_SCOPE)
endfunction()

# Clang (OpenMP only): a cubin for each targeted GPU family (no PTX is
# carried for the driver to JIT-compile), linked against the device
# runtime's bitcode where the compiler's packages put it (Debian:
# /usr/lib/llvm-N/lib, which Clang does not search by itself), with the
# ptxas of a CUDA folder whose cubins libomptarget reads
# (heat2d_clang_cuda_path), and libomptarget found at run time by the rpath.
# The kernels assume what holds for heat2d's regions: no parallel region
# inside another, and no region that changes the OpenMP settings (ICVs),
# so that Clang's device code keeps no per-thread state for either.
function(heat2d_directive_offload_clang prefix flag source)
  heat2d_directive_archs(archs)
  set(flags ${flag} -fopenmp-assume-no-thread-state -fopenmp-assume-no-nested-parallelism)
  foreach(arch ${archs})
    list(APPEND flags --offload-arch=sm_${arch})
  endforeach()
  list(GET archs 0 oldest)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libomptarget-nvptx-sm_${oldest}.bc
                  OUTPUT_VARIABLE bitcode OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(IS_ABSOLUTE "${bitcode}" AND EXISTS "${bitcode}")
    get_filename_component(bitcode_dir "${bitcode}" DIRECTORY)
    get_filename_component(bitcode_dir "${bitcode_dir}" REALPATH)
    list(APPEND flags --libomptarget-nvptx-bc-path=${bitcode_dir})
  endif()
  heat2d_clang_cuda_path(cuda "${flags}" ${oldest} ${source})
  if(cuda_PATH)
    list(APPEND flags --cuda-path=${cuda_PATH})
  endif()
  set(link_flags "")
  set(runtime_text "libomptarget (not found by ${CMAKE_C_COMPILER} -print-file-name)")
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libomptarget.so
                  OUTPUT_VARIABLE runtime OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(IS_ABSOLUTE "${runtime}" AND EXISTS "${runtime}")
    get_filename_component(runtime_dir "${runtime}" DIRECTORY)
    get_filename_component(runtime_dir "${runtime_dir}" REALPATH)
    set(link_flags "-Wl,-rpath,${runtime_dir}")
    set(runtime_text "libomptarget ${CMAKE_C_COMPILER_VERSION} (${runtime_dir})")
  endif()
  heat2d_directive_probe(probe SOURCE ${source} FLAGS ${flags} LINK_FLAGS ${link_flags})
  string(REPLACE ";" "," arch_text "${archs}")
  set(${prefix}_OK ${probe_OK} PARENT_SCOPE)
  set(${prefix}_FLAGS "${flags}" PARENT_SCOPE)
  set(${prefix}_LINK_FLAGS "${link_flags}" PARENT_SCOPE)
  set(${prefix}_RUNTIME "${runtime_text}" PARENT_SCOPE)
  set(${prefix}_PTXAS "${cuda_TEXT}" PARENT_SCOPE)
  set(${prefix}_WARNING "${cuda_WARNING}" PARENT_SCOPE)
  if(probe_OK)
    set(${prefix}_WHY "sm_${arch_text}, the test kernel ran on the ${probe_OUTPUT}" PARENT_SCOPE)
  else()
    heat2d_directive_probe_why(why)
    set(${prefix}_WHY "${why}" PARENT_SCOPE)
  endif()
endfunction()

# heat2d_clang_cuda_path(PREFIX FLAGS ARCH SOURCE): the CUDA folder whose
# ptxas Clang uses (--cuda-path), apart from nvcc's: libomptarget up to
# Clang 19 reads the GPU of a cubin from the low byte of its ELF header's
# flags, where CUDA 11 and 12's ptxas write it and CUDA 13's does not (it
# moved the number to the second byte; a GPU then refuses every image:
# "No images found compatible with the installed hardware"). So each
# candidate's ptxas assembles SOURCE's device code for sm_ARCH here, and the
# first whose cubin carries ARCH in that byte is taken:
# HEAT2D_OMP_TARGET_CUDA_PATH alone when set, else the toolkit of nvcc,
# /usr/local/cuda, the versioned /usr/local/cuda-* and /opt/cuda* folders,
# and Debian's and Ubuntu's nvidia-cuda-toolkit (/usr/lib/cuda). Sets
# PREFIX_PATH (empty: Clang's own search), PREFIX_TEXT (for heat2d info) and
# PREFIX_WARNING (why no candidate will do, with the fix; empty when one does).
function(heat2d_clang_cuda_path prefix flags arch source)
  set(candidates "")
  if(HEAT2D_OMP_TARGET_CUDA_PATH)
    foreach(part bin/ptxas nvvm/libdevice)
      if(NOT EXISTS "${HEAT2D_OMP_TARGET_CUDA_PATH}/${part}")
        message(FATAL_ERROR "HEAT2D_OMP_TARGET_CUDA_PATH=${HEAT2D_OMP_TARGET_CUDA_PATH} has no ${part}. Fix: name a CUDA folder (one with bin/ptxas, nvvm/libdevice and include/cuda.h)")
      endif()
    endforeach()
    list(APPEND candidates ${HEAT2D_OMP_TARGET_CUDA_PATH})
  else()
    if(CMAKE_CUDA_COMPILER)
      get_filename_component(cuda_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
      get_filename_component(cuda_root "${cuda_bin}" DIRECTORY)
      list(APPEND candidates ${cuda_root})
    endif()
    file(GLOB versioned LIST_DIRECTORIES true /usr/local/cuda-* /opt/cuda*)
    list(SORT versioned COMPARE NATURAL ORDER DESCENDING)
    list(APPEND candidates /usr/local/cuda ${versioned} /usr/lib/cuda)
  endif()
  set(tried "")
  set(dir ${CMAKE_BINARY_DIR}/directive_probes/cubin)
  file(MAKE_DIRECTORY ${dir})
  foreach(candidate ${candidates})
    # (A folder of wrapper scripts, such as /usr/local with bin/ptxas
    # only, is no CUDA folder: Clang needs its libdevice too.)
    if(NOT EXISTS "${candidate}/bin/ptxas" OR NOT EXISTS "${candidate}/nvvm/libdevice")
      continue()
    endif()
    get_filename_component(real "${candidate}" REALPATH)
    if(real IN_LIST tried)
      continue()
    endif()
    list(APPEND tried ${real})
    heat2d_cubin_arch_byte(byte "${flags};--cuda-path=${candidate}" ${arch} ${source} ${dir})
    execute_process(COMMAND ${candidate}/bin/ptxas --version OUTPUT_VARIABLE version ERROR_QUIET)
    string(REGEX MATCH "release [0-9.]+" version "${version}")
    string(REPLACE "release" "CUDA" version "${version}")
    set(text "${candidate}/bin/ptxas (${version})")
    if(byte EQUAL arch)
      set(${prefix}_PATH ${candidate} PARENT_SCOPE)
      set(${prefix}_TEXT "${text}" PARENT_SCOPE)
      set(${prefix}_WARNING "" PARENT_SCOPE)
      return()
    endif()
    if(NOT first_text)
      set(first_text "${text}")
      set(first_path ${candidate})
      set(first_byte "${byte}")
    endif()
  endforeach()
  set(${prefix}_PATH "${first_path}" PARENT_SCOPE)
  if(NOT first_text)
    set(${prefix}_TEXT "none found" PARENT_SCOPE)
    set(${prefix}_WARNING "" PARENT_SCOPE)
    return()
  endif()
  set(${prefix}_TEXT "${first_text}, whose cubins libomptarget ${CMAKE_C_COMPILER_VERSION} may refuse" PARENT_SCOPE)
  set(${prefix}_WARNING
      "the ptxas of ${first_text} writes cubins whose GPU field libomptarget ${CMAKE_C_COMPILER_VERSION} does not read (byte ${first_byte}, not ${arch}): a GPU will refuse its images. Fix: -DHEAT2D_OMP_TARGET_CUDA_PATH=DIR, a CUDA 11 or 12 folder (Debian 12: nvidia-cuda-toolkit, unpacked)"
      PARENT_SCOPE)
endfunction()

# heat2d_cubin_arch_byte(OUT FLAGS ARCH SOURCE DIR): the low byte of the ELF
# flags of SOURCE's cubin for sm_ARCH built with FLAGS (decimal), empty
# when it does not build.
function(heat2d_cubin_arch_byte out flags arch source dir)
  set(cubin ${dir}/test_sm_${arch}.cubin)
  file(REMOVE ${cubin})
  list(FILTER flags EXCLUDE REGEX "^--offload-arch=")
  execute_process(COMMAND ${CMAKE_C_COMPILER} ${flags} --offload-arch=sm_${arch}
                          --offload-device-only -c -Wno-pass-failed ${source} -o ${cubin}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
  set(byte "")
  if(rc EQUAL 0 AND EXISTS ${cubin})
    # ELF64: e_flags at offset 48.
    file(READ ${cubin} hex OFFSET 48 LIMIT 1 HEX)
    math(EXPR byte "0x${hex}")
  endif()
  set(${out} "${byte}" PARENT_SCOPE)
endfunction()

# heat2d_directive_probe_why(OUT): why the last heat2d_directive_probe
# (prefix probe) failed: the compiler's first error, or the test's exit.
macro(heat2d_directive_probe_why out)
  if(probe_BUILT)
    set(${out} "the test kernel failed (exit ${probe_EXIT})")
  else()
    set(${out} "${probe_ERROR}")
  endif()
endmacro()

# heat2d_directive_host_only(TARGET FLAGS FLAG... LIBRARIES LIB...): TARGET's
# sources use the model (FLAGS, e.g. OpenMP_C_FLAGS) on the host alone:
# with GCC, offloading disabled, so that an installed offload compiler
# compiles nothing of them for a GPU; and TARGET links the model's runtime
# (LIBRARIES) alone, so that no flag of the model reaches the sources that
# link TARGET (the rule above).
function(heat2d_directive_host_only target)
  cmake_parse_arguments(H "" "" "FLAGS;LIBRARIES" ${ARGN})
  heat2d_directive_host_flags(host_only)
  target_compile_options(${target} PRIVATE ${H_FLAGS} ${host_only})
  # A runtime in the compiler's own directories (GCC's libgomp) is linked by
  # its name, as -fopenmp links it. By its full path, CMake would warn on
  # every configure, for every program, that the copy in build/lib
  # (heat2d_directive_runtime) hides it, which is what the copy is for.
  set(libraries "")
  foreach(library ${H_LIBRARIES})
    get_filename_component(dir "${library}" DIRECTORY)
    if(IS_ABSOLUTE "${library}" AND dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
      get_filename_component(name "${library}" NAME_WE)
      string(REGEX REPLACE "^lib" "" library "${name}")
    endif()
    list(APPEND libraries ${library})
  endforeach()
  target_link_libraries(${target} PUBLIC ${libraries})
endfunction()

# heat2d_directive_runtime(MODEL): with GCC, its offload runtime (libgomp)
# and nvptx plugin copied next to the programs (build/lib), so that this
# build also runs on a GPU machine that has the NVIDIA driver but not GCC's
# offload runtime: point LD_LIBRARY_PATH at build/lib there. Without the
# plugin, libgomp would use the host. (Clang's libomptarget is found by the
# rpath that heat2d_directive_offload's link flags carry.)
function(heat2d_directive_runtime model)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libgomp.so.1
                  OUTPUT_VARIABLE gomp_library OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(gomp_dir "${gomp_library}" DIRECTORY)
  find_file(HEAT2D_GOMP_PLUGIN libgomp-plugin-nvptx.so.1
            HINTS ${gomp_dir} /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib)
  if(NOT HEAT2D_GOMP_PLUGIN)
    message(FATAL_ERROR "${model} offload needs libgomp-plugin-nvptx.so.1 (Debian: libgomp-plugin-nvptx1)")
  endif()
  file(COPY ${gomp_library} ${HEAT2D_GOMP_PLUGIN} DESTINATION ${CMAKE_BINARY_DIR}/lib
       FOLLOW_SYMLINK_CHAIN)
endfunction()
