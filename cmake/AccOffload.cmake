# heat2d_acc_offload(OLDEST_ARCH OK_OUT FLAGS_OUT WHY_OUT): whether GCC's nvptx
# offload compiler compiles, links and runs a test kernel (on a GPU, or on
# the host where there is none), with the newest -misa of this GCC that the
# oldest targeted GPU (a CUDA architecture number, e.g. 75) can run. FLAGS_OUT
# gets the offload flags, WHY_OUT what was found.
function(heat2d_acc_offload oldest ok_out flags_out why_out)
  set(${ok_out} OFF PARENT_SCOPE)
  # GCC's -misa values, newest first; CUDA 13's ptxas takes sm_75 and later.
  foreach(isa 89 80 75)
    if(isa GREATER oldest)
      continue()
    endif()
    set(flags -fopenacc -foffload=nvptx-none
              "-foffload-options=nvptx-none=-misa=sm_${isa} -O3 -ffp-contract=off")
    string(REPLACE ";" " " defs "${flags}")
    # try_run caches its results; a fresh test each configure sees a
    # compiler installed since.
    try_run(HEAT2D_ACC_RUN HEAT2D_ACC_BUILT ${CMAKE_BINARY_DIR}/acc_offload_test/sm_${isa}
            ${PROJECT_SOURCE_DIR}/cmake/acc_offload_test.c
            COMPILE_DEFINITIONS ${defs}
            LINK_OPTIONS ${flags} -no-pie
            COMPILE_OUTPUT_VARIABLE compile_out RUN_OUTPUT_VARIABLE run_out)
    set(run_rc "${HEAT2D_ACC_RUN}")
    set(built "${HEAT2D_ACC_BUILT}")
    unset(HEAT2D_ACC_RUN CACHE)
    unset(HEAT2D_ACC_BUILT CACHE)
    if(built AND run_rc EQUAL 0)
      string(STRIP "${run_out}" where)
      set(${ok_out} ON PARENT_SCOPE)
      set(${flags_out} "${flags}" PARENT_SCOPE)
      set(${why_out} "-misa=sm_${isa}, the test kernel ran on the ${where}" PARENT_SCOPE)
      return()
    endif()
    if(NOT built)
      # The compiler's first error says why (no nvptx-none offload
      # compiler, or ptxas refusing the ISA).
      heat2d_compiler_why("${compile_out}" last)
    else()
      set(last "the test kernel failed (exit ${run_rc})")
    endif()
  endforeach()
  set(${why_out} "${last}" PARENT_SCOPE)
endfunction()
