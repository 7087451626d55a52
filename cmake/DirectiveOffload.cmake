# Directive models (OpenACC now, OpenMP `target` next) with GCC: whether a
# model's test program compiles, links and runs, on the host or offloaded
# to NVIDIA GPUs through nvptx, and how a model is used on the host alone.
#
# The rule, enforced here: GCC's nvptx offload link (mkoffload) refuses a
# program whose offloaded code was compiled with both -fopenacc and
# -fopenmp, in one object or across objects ("either '-fopenacc' or
# '-fopenmp' must be set"). So
#   - a build offloads one directive model at most: heat2d_directive_offload
#     refuses a second model, naming the one that offloads;
#   - a model used on the host beside another's offload (OpenMP threads:
#     the omp method, the host bandwidth probe) is compiled with offloading
#     disabled and links only its runtime (heat2d_directive_host_only), never
#     OpenMP::OpenMP_C, whose -fopenmp would reach the compile of every
#     source that links it, the offloaded OpenACC sources included.
# Objects of host-only OpenMP beside OpenACC offload link fine.

# heat2d_directive_probe(PREFIX SOURCE FILE FLAGS FLAG... [LINK_FLAGS FLAG...]):
# compiles, links and runs FILE with FLAGS (to the compile as one line of
# definitions, to the link as given) and LINK_FLAGS (the link alone), afresh
# each configure (a compiler installed since is seen). Sets PREFIX_OK (ON
# when it ran and exited 0), PREFIX_BUILT, PREFIX_EXIT, PREFIX_OUTPUT (what
# it printed, stripped) and PREFIX_ERROR (a failed build's first error).
function(heat2d_directive_probe prefix)
  cmake_parse_arguments(P "" "SOURCE" "FLAGS;LINK_FLAGS" ${ARGN})
  string(REPLACE ";" " " defs "${P_FLAGS}")
  string(MAKE_C_IDENTIFIER "HEAT2D_DIRECTIVE_${prefix}" id)
  try_run(${id}_RUN ${id}_BUILT ${CMAKE_BINARY_DIR}/directive_probes/${id} ${P_SOURCE}
          COMPILE_DEFINITIONS ${defs}
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

# heat2d_directive_host(PREFIX MODEL NAME FLAG FLAG SOURCE FILE): whether
# the C compiler builds and runs the model's test program for the host (a
# compiler can accept the flag and still fail to link such a program, as a
# GCC without its lto-wrapper does). PREFIX_OK; PREFIX_WHY when not.
function(heat2d_directive_host prefix)
  cmake_parse_arguments(H "" "MODEL;FLAG;SOURCE" "" ${ARGN})
  heat2d_directive_probe(probe SOURCE ${H_SOURCE} FLAGS ${H_FLAG} -foffload=disable)
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

# heat2d_directive_oldest_arch(OUT): the oldest GPU the build targets, as a
# CUDA architecture number, which decides the nvptx ISA: the CUDA
# architectures when CUDA is built, else this machine's GPU, else Turing
# (the oldest that CUDA 13 supports).
function(heat2d_directive_oldest_arch out)
  set(oldest 75)
  set(targets ${HEAT2D_GPU_ARCHS})
  if(HEAT2D_WITH_CUDA)
    set(targets "")
    foreach(arch ${CMAKE_CUDA_ARCHITECTURES})
      if(arch MATCHES "^([0-9]+)")
        list(APPEND targets ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  if(targets)
    list(SORT targets COMPARE NATURAL)
    list(GET targets 0 oldest)
  endif()
  set(${out} ${oldest} PARENT_SCOPE)
endfunction()

# heat2d_directive_offload(PREFIX MODEL NAME FLAG FLAG SOURCE FILE): whether
# GCC's nvptx offload compiler compiles, links and runs the model's test
# program (on a GPU, or on the host where there is none), with the newest
# -misa of this GCC that the oldest targeted GPU can run. Sets PREFIX_OK;
# PREFIX_FLAGS, the offload flags (compile and link; the link also needs
# -no-pie: GCC 12's offload table is not position-independent); PREFIX_WHY,
# what was found ("-misa=sm_80, the test kernel ran on the host") or why
# not. Refused without a try while another model offloads (the rule above);
# on success MODEL becomes the build's offloading model.
function(heat2d_directive_offload prefix)
  cmake_parse_arguments(D "" "MODEL;FLAG;SOURCE" "" ${ARGN})
  set(${prefix}_OK OFF PARENT_SCOPE)
  get_property(offloading GLOBAL PROPERTY HEAT2D_OFFLOAD_MODEL)
  if(offloading AND NOT offloading STREQUAL D_MODEL)
    set(${prefix}_WHY
        "${offloading} offloads already, and GCC does not link a program that offloads both"
        PARENT_SCOPE)
    return()
  endif()
  heat2d_directive_oldest_arch(oldest)
  # GCC's -misa values, newest first; CUDA 13's ptxas takes sm_75 and later.
  set(why "")
  foreach(isa 89 80 75)
    if(isa GREATER oldest)
      continue()
    endif()
    set(flags ${D_FLAG} -foffload=nvptx-none
              "-foffload-options=nvptx-none=-misa=sm_${isa} -O3 -ffp-contract=off")
    heat2d_directive_probe(probe SOURCE ${D_SOURCE} FLAGS ${flags} LINK_FLAGS -no-pie)
    if(probe_OK)
      set_property(GLOBAL PROPERTY HEAT2D_OFFLOAD_MODEL ${D_MODEL})
      set(${prefix}_OK ON PARENT_SCOPE)
      set(${prefix}_FLAGS "${flags}" PARENT_SCOPE)
      set(${prefix}_WHY "-misa=sm_${isa}, the test kernel ran on the ${probe_OUTPUT}" PARENT_SCOPE)
      return()
    endif()
    # The compiler's first error says why (no nvptx-none offload compiler,
    # or ptxas refusing the ISA).
    if(probe_BUILT)
      set(why "the test kernel failed (exit ${probe_EXIT})")
    else()
      set(why "${probe_ERROR}")
    endif()
  endforeach()
  set(${prefix}_WHY "${why}" PARENT_SCOPE)
endfunction()

# heat2d_directive_host_only(TARGET FLAGS FLAG... LIBRARIES LIB...): TARGET's
# sources use the model (FLAGS, e.g. OpenMP_C_FLAGS) on the host alone:
# with GCC, offloading disabled, so that an installed offload compiler
# compiles nothing of them for a GPU; and TARGET links the model's runtime
# (LIBRARIES) alone, so that no flag of the model reaches the sources that
# link TARGET (the rule above).
function(heat2d_directive_host_only target)
  cmake_parse_arguments(H "" "" "FLAGS;LIBRARIES" ${ARGN})
  set(host_only "")
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    set(host_only -foffload=disable)
  endif()
  target_compile_options(${target} PRIVATE ${H_FLAGS} ${host_only})
  target_link_libraries(${target} PUBLIC ${H_LIBRARIES})
endfunction()
