# Which GPUs to build for.

# heat2d_visible_gpus(OUT): the compute capabilities of the GPUs that
# nvidia-smi lists on this machine, as CUDA architecture numbers (9.0 -> 90),
# each once; empty when there is no driver or no GPU.
function(heat2d_visible_gpus out)
  set(archs "")
  find_program(HEAT2D_NVIDIA_SMI nvidia-smi)
  if(HEAT2D_NVIDIA_SMI)
    execute_process(COMMAND ${HEAT2D_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET TIMEOUT 20)
    if(rc EQUAL 0)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${caps}")
      foreach(cap ${caps})
        string(REPLACE "." "" arch "${cap}")
        list(APPEND archs ${arch})
      endforeach()
      list(REMOVE_DUPLICATES archs)
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

# heat2d_jit_cuda_archs(OUT): for a build where no GPU is visible, the
# cheapest code that still runs on any GPU later: PTX alone for the oldest
# architecture from Turing (75) that this nvcc compiles for, which the
# driver of any newer GPU JIT-compiles when it loads (once; its cache keeps
# it). No SASS: each SASS target is a full device compile of its own.
function(heat2d_jit_cuda_archs out)
  set(oldest 75)
  set(nvcc "${CMAKE_CUDA_COMPILER}")
  if(NOT nvcc)
    find_program(nvcc nvcc)
  endif()
  if(nvcc)
    execute_process(COMMAND ${nvcc} --list-gpu-arch OUTPUT_VARIABLE codes
                    RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0)
      string(REGEX MATCHALL "compute_[0-9]+" codes "${codes}")
      set(supported "")
      foreach(code ${codes})
        string(REPLACE "compute_" "" arch "${code}")
        if(arch GREATER_EQUAL 75)
          list(APPEND supported ${arch})
        endif()
      endforeach()
      if(supported)
        list(SORT supported COMPARE NATURAL)
        list(GET supported 0 oldest)
      endif()
    endif()
  endif()
  set(${out} "${oldest}-virtual" PARENT_SCOPE)
endfunction()

# heat2d_cuda_code_lists(ARCHS SASS_OUT PTX_OUT): the architectures that
# ARCHS (CMAKE_CUDA_ARCHITECTURES' notation) carries as SASS and as PTX, as
# comma-separated numbers; both "unknown" for native, all or all-major.
function(heat2d_cuda_code_lists archs sass_out ptx_out)
  set(sass "")
  set(ptx "")
  foreach(entry ${archs})
    if(entry MATCHES "^([0-9]+)a?-real$")
      list(APPEND sass ${CMAKE_MATCH_1})
    elseif(entry MATCHES "^([0-9]+)a?-virtual$")
      list(APPEND ptx ${CMAKE_MATCH_1})
    elseif(entry MATCHES "^([0-9]+)a?$")
      list(APPEND sass ${CMAKE_MATCH_1})
      list(APPEND ptx ${CMAKE_MATCH_1})
    else()
      set(${sass_out} "unknown" PARENT_SCOPE)
      set(${ptx_out} "unknown" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  string(REPLACE ";" "," sass "${sass}")
  string(REPLACE ";" "," ptx "${ptx}")
  set(${sass_out} "${sass}" PARENT_SCOPE)
  set(${ptx_out} "${ptx}" PARENT_SCOPE)
endfunction()
