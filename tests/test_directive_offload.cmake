# cmake/DirectiveOffload.cmake's decisions that need no compiler: a second
# directive model's offload is refused in the programs' own link while one
# offloads there (GCC does not link a program that offloads both), and
# taken in a link of its own (OWN_LINK: the OpenMP target methods' shared
# library); the oldest targeted GPU, and the GPU families Clang builds a
# cubin for.
# usage: cmake -DSOURCE_DIR=... -P test_directive_offload.cmake
cmake_minimum_required(VERSION 3.20) # the project's policies (IN_LIST)
include(${SOURCE_DIR}/cmake/DirectiveOffload.cmake)
set(failed 0)
set(passed 0)
macro(expect got want what)
  if("${got}" STREQUAL "${want}")
    math(EXPR passed "${passed} + 1")
  else()
    math(EXPR failed "${failed} + 1")
    message("FAIL: ${what}: got '${got}', want '${want}'")
  endif()
endmacro()

# The compiler's own try, stood in for: it offloads, and says it was tried.
function(heat2d_directive_offload_gcc prefix flag source)
  set(${prefix}_OK ON PARENT_SCOPE)
  set(${prefix}_FLAGS ${flag} -foffload=nvptx-none PARENT_SCOPE)
  set(${prefix}_WHY "tried ${flag}" PARENT_SCOPE)
endfunction()

set(CMAKE_C_COMPILER_ID GNU)
heat2d_directive_offload(acc MODEL OpenACC FLAG -fopenacc SOURCE none.c)
expect("${acc_OK}/${acc_WHY}" "ON/tried -fopenacc" "the programs' first model offloads")
get_property(model GLOBAL PROPERTY HEAT2D_OFFLOAD_MODEL)
expect("${model}" OpenACC "it becomes the programs' offloading model")
heat2d_directive_offload(omp MODEL OpenMP FLAG -fopenmp SOURCE none.c)
expect("${omp_OK}" OFF "OpenMP offload beside OpenACC's, in the programs' link")
expect("${omp_WHY}" "OpenACC offloads already, and GCC does not link a program that offloads both"
       "the refusal names the model that offloads")
heat2d_directive_offload(own MODEL "OpenMP target" FLAG -fopenmp SOURCE none.c OWN_LINK)
expect("${own_OK}/${own_WHY}/${own_FLAGS}" "ON/tried -fopenmp/-fopenmp;-foffload=nvptx-none"
       "OpenMP target beside OpenACC, in a link of its own")
get_property(model GLOBAL PROPERTY HEAT2D_OFFLOAD_MODEL)
expect("${model}" OpenACC "the programs' offloading model stays")
get_property(offloaded GLOBAL PROPERTY HEAT2D_OFFLOADED_MODELS)
expect("${offloaded}" "OpenACC;OpenMP target" "both models offload, each in its own link")

set(HEAT2D_WITH_CUDA ON)
set(CMAKE_CUDA_ARCHITECTURES 90 80-real 86)
heat2d_directive_oldest_arch(oldest)
expect("${oldest}" 80 "the oldest of the CUDA architectures")
heat2d_directive_archs(archs)
expect("${archs}" "80;90" "one architecture a family: 86 runs 80's code, 90 does not")
set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90)
heat2d_directive_archs(archs)
expect("${archs}" "75;80;90" "Turing, Ampere and Ada, Hopper")
set(HEAT2D_WITH_CUDA OFF)
set(HEAT2D_GPU_ARCHS 90)
heat2d_directive_oldest_arch(oldest)
expect("${oldest}" 90 "without CUDA, this machine's GPU")
set(HEAT2D_GPU_ARCHS "")
heat2d_directive_oldest_arch(oldest)
expect("${oldest}" 75 "no GPU and no CUDA: Turing")
heat2d_directive_archs(archs)
expect("${archs}" "75;80;90" "no GPU and no CUDA: Turing, Ampere, Hopper")

message("test_directive_offload: ${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "test_directive_offload failed")
endif()
