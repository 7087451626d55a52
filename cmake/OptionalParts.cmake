# The optional parts of the build (OpenMP, OpenACC, OpenMP target, NetCDF,
# CUDA, CUPTI, MPI), each AUTO, ON or OFF, each decided one way
# (heat2d_part: its option's mode, then its heat2d_try_* macro). AUTO tries
# what the part needs at build time and leaves it out, in one configure line
# naming what failed and the one thing that would fix it, when it cannot
# work; ON makes a failure fatal. What was left out is
# recorded (heat2d info's LEFT_OUT= lines), so that a benchmark says which
# methods this build lacks and why.

# heat2d_part_mode(VAR): the cache value of VAR as AUTO, ON or OFF (CMake's
# other spellings of true and false accepted).
function(heat2d_part_mode var)
  string(TOUPPER "${${var}}" value)
  if(value STREQUAL "AUTO")
    set(mode AUTO)
  elseif(value)
    set(mode ON)
  else()
    set(mode OFF)
  endif()
  set(${var}_MODE ${mode} PARENT_SCOPE)
endfunction()

# heat2d_part_missing(OPTION PART METHODS WHY FIX): a part that cannot work.
# With OPTION=ON configure stops; with AUTO it says so in one line and
# records it.
function(heat2d_part_missing option part methods why fix)
  heat2d_part_mode(${option})
  if(${option}_MODE STREQUAL "ON")
    message(FATAL_ERROR "${option}=ON, but ${part} cannot be built: ${why}. Fix: ${fix}")
  endif()
  # The record is a CMake list: a semicolon in a compiler's words would cut
  # an entry in two.
  string(REPLACE ";" "," why "${why}")
  message(STATUS "heat2d: ${part} left out (${methods}): ${why}. Fix: ${fix}")
  set_property(GLOBAL APPEND PROPERTY HEAT2D_LEFT_OUT "${part} (${methods}): ${why}. Fix: ${fix}")
endfunction()

# heat2d_part_off(PART METHODS OPTION): a part switched off by its option.
function(heat2d_part_off part methods option)
  set_property(GLOBAL APPEND PROPERTY HEAT2D_LEFT_OUT "${part} (${methods}): ${option}=OFF")
endfunction()

# heat2d_part(OPTION PART METHODS TRY): the one way an optional part is
# decided. HEAT2D_WITH_<X> (OPTION is HEAT2D_<X>) is OFF unless the part is
# built. With OPTION=OFF the part is recorded as switched off; else the
# macro TRY runs, and sets part_OK, and when it is false part_WHY and
# part_FIX: the part is then left out (heat2d_part_missing; fatal with ON).
macro(heat2d_part option part methods try)
  string(REGEX REPLACE "^HEAT2D_" "HEAT2D_WITH_" _with "${option}")
  heat2d_part_mode(${option})
  set(${_with} OFF)
  if(${option}_MODE STREQUAL "OFF")
    heat2d_part_off("${part}" "${methods}" ${option})
  else()
    set(part_OK OFF)
    set(part_WHY "")
    set(part_FIX "")
    cmake_language(CALL ${try})
    if(part_OK)
      set(${_with} ON)
    else()
      heat2d_part_missing(${option} "${part}" "${methods}" "${part_WHY}" "${part_FIX}")
    endif()
  endif()
endmacro()

# heat2d_left_out_lines(OUT): the record as the body of a C string literal,
# one LEFT_OUT= line per part.
function(heat2d_left_out_lines out)
  get_property(entries GLOBAL PROPERTY HEAT2D_LEFT_OUT)
  set(text "")
  foreach(entry IN LISTS entries)
    string(REPLACE "\\" "\\\\" entry "${entry}")
    string(REPLACE "\"" "\\\"" entry "${entry}")
    string(APPEND text "LEFT_OUT=${entry}\\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# heat2d_compiler_why(TEXT OUT): the line of a failed build's output that
# says why: the first fatal error, else the first error (the linker's own
# line, not collect2's summary after it).
function(heat2d_compiler_why text out)
  string(REGEX MATCHALL "[^\n]+" lines "${text}")
  set(why "did not compile")
  foreach(pattern "fatal error" "error")
    set(found ${lines})
    list(FILTER found INCLUDE REGEX "${pattern}")
    list(FILTER found EXCLUDE REGEX "^collect2:")
    list(LENGTH found n)
    if(n GREATER 0)
      list(GET found 0 why)
      string(STRIP "${why}" why)
      # GCC's list of the folders it searched says nothing a user needs.
      string(REGEX REPLACE " in /[^ ]+( \\(consider using [^)]*\\))?$" "" why "${why}")
      break()
    endif()
  endforeach()
  set(${out} "${why}" PARENT_SCOPE)
endfunction()

# How a directive model's test program is tried (on the host, offloaded),
# and the rule that keeps two models' offload apart.
include(${CMAKE_CURRENT_LIST_DIR}/DirectiveOffload.cmake)

# ---- OpenMP: the omp method and the host bandwidth probe's threads ----------
macro(heat2d_try_omp)
  find_package(OpenMP QUIET COMPONENTS C)
  set(part_OK ${OpenMP_C_FOUND})
  set(part_WHY "${CMAKE_C_COMPILER} does not build an OpenMP program")
  set(part_FIX "configure with CC=gcc, or install the compiler's OpenMP runtime (Debian: libgomp1)")
endmacro()
heat2d_part(HEAT2D_OMP "OpenMP" "${HEAT2D_OMP_METHODS}" heat2d_try_omp)

# ---- OpenACC: its methods, on the host or offloaded -------------------------
macro(heat2d_try_openacc)
  set(acc_test ${CMAKE_CURRENT_LIST_DIR}/acc_offload_test.c)
  find_package(OpenACC QUIET)
  if(NOT OpenACC_C_FOUND)
    set(part_WHY "${CMAKE_C_COMPILER} (${CMAKE_C_COMPILER_ID}) has no OpenACC")
  else()
    heat2d_directive_host(acc_host MODEL OpenACC FLAG -fopenacc SOURCE ${acc_test})
    set(part_OK ${acc_host_OK})
    set(part_WHY "${acc_host_WHY}")
  endif()
  if(NOT part_OK)
    heat2d_directive_other_gcc(part_FIX FLAG -fopenacc SOURCE ${acc_test})
  endif()
endmacro()
heat2d_part(HEAT2D_OPENACC "OpenACC" "${HEAT2D_OPENACC_METHODS}" heat2d_try_openacc)

# ---- OpenMP target: its methods, offloaded or left out ----------------------
# Decided once CUDA's architectures and this machine's GPU are known (they
# decide the ISA). The methods run on a GPU, or are skipped with a note
# where none is (OMP_TARGET_OFFLOAD=DISABLED puts them on the host, as asked
# for); a build that cannot offload leaves them out, never builds them for
# the host. They are a shared library of their own, with its own offload
# link (src/backends/omp_target), so that a GCC build offloads them beside
# OpenACC's methods (DirectiveOffload.cmake's rule is a link's).
macro(heat2d_omp_target_part)
  # Clang's offload takes ptxas from a CUDA folder of its own, apart from
  # nvcc's (DirectiveOffload.cmake, heat2d_clang_cuda_path says why).
  set(HEAT2D_OMP_TARGET_CUDA_PATH "" CACHE PATH
      "With Clang: the CUDA folder whose ptxas assembles the OpenMP target code (--cuda-path; default: the first found whose cubins libomptarget reads)")
  set(HEAT2D_OMP_TARGET_COMPILER_TEXT "none")
  set(HEAT2D_OMP_TARGET_RUNTIME_TEXT "none")
  set(HEAT2D_OMP_TARGET_PTXAS_TEXT "none")
  set(omp_target_test ${PROJECT_SOURCE_DIR}/cmake/omp_target_offload_test.c)
  heat2d_part(HEAT2D_OMP_TARGET "OpenMP target" "${HEAT2D_OMP_TARGET_METHODS}" heat2d_try_omp_target)
endmacro()

macro(heat2d_try_omp_target)
  # With GCC 12, a simd loop's private arrays (a lane's window of rows in
  # the column schedules) live in a .local array of each lane, which GCC
  # sizes at -msoft-stack-reserve-local (128 bytes unless told) in every
  # region that calls the runtime, whatever the arrays need: f64
  # columns2's window is 320 bytes, and compute-sanitizer saw its lanes
  # write past the array on the H200. The array sits on the thread's
  # stack, which libgomp leaves at CUDA's default of 1 KiB: a reserve of
  # 1024 overflowed it. 384 holds the window; test_omp_target_ptx checks.
  heat2d_directive_offload(omp_target MODEL "OpenMP target" FLAG -fopenmp
                           SOURCE ${omp_target_test} OWN_LINK
                           GCC_DEVICE_OPTIONS -msoft-stack-reserve-local=384)
  set(part_OK ${omp_target_OK})
  if(omp_target_OK)
    set(HEAT2D_OMP_TARGET_FLAGS ${omp_target_FLAGS})
    set(HEAT2D_OMP_TARGET_LINK_FLAGS ${omp_target_LINK_FLAGS})
    set(HEAT2D_OMP_TARGET_TEXT "nvptx offload")
    set(HEAT2D_OMP_TARGET_COMPILER_TEXT "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}")
    set(HEAT2D_OMP_TARGET_RUNTIME_TEXT "${omp_target_RUNTIME}")
    set(HEAT2D_OMP_TARGET_PTXAS_TEXT "${omp_target_PTXAS}")
    message(STATUS "heat2d: OpenMP target offloaded to NVIDIA GPUs (${omp_target_WHY})")
    if(omp_target_WARNING)
      message(STATUS "heat2d: OpenMP target: ${omp_target_WARNING}")
    endif()
  else()
    heat2d_omp_target_fix(part_FIX)
    set(part_WHY "${CMAKE_C_COMPILER} does not offload an OpenMP target program (${omp_target_WHY})")
  endif()
endmacro()

# heat2d_omp_target_fix(OUT): what makes OpenMP offload work where it did
# not: another GCC where this compiler cannot build a target program even
# for the host (a GCC without its lto-wrapper), else the offload packages.
function(heat2d_omp_target_fix out)
  string(REGEX MATCH "^[0-9]+" major "${CMAKE_C_COMPILER_VERSION}")
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(${out} "install libomp-${major}-dev (libomptarget and its nvptx device runtime) and the CUDA toolkit (ptxas), or configure with CC=gcc and GCC's nvptx offload compiler" PARENT_SCOPE)
    return()
  endif()
  heat2d_directive_host(host MODEL "OpenMP target" FLAG -fopenmp SOURCE ${omp_target_test})
  if(host_OK)
    set(${out} "install gcc-${major}-offload-nvptx libgomp-plugin-nvptx1 (tools/setup.sh offload does, as root)" PARENT_SCOPE)
  else()
    heat2d_directive_other_gcc(fix FLAG -fopenmp SOURCE ${omp_target_test})
    set(${out} "${fix}" PARENT_SCOPE)
  endif()
endfunction()

# ---- NetCDF: .nc fields and series (--save, --save-every, compare) ---------
# Found with pkg-config's netcdf.pc, else nc-config (a NetCDF built by hand
# often has only that). Sets HEAT2D_WITH_NETCDF and, when found, the
# imported target heat2d_netcdf and HEAT2D_NETCDF_VERSION.
macro(heat2d_netcdf_part)
  heat2d_part(HEAT2D_NETCDF "NetCDF" ".nc files" heat2d_try_netcdf)
endmacro()

macro(heat2d_try_netcdf)
  heat2d_find_netcdf()
  if(TARGET heat2d_netcdf)
    set(part_OK ON)
  endif()
  set(part_WHY "no NetCDF-C library found (neither pkg-config netcdf nor nc-config)")
  set(part_FIX "install it (Debian and Ubuntu: libnetcdf-dev)")
endmacro()

# ---- CUDA: found, or asked for -----------------------------------------------
macro(heat2d_cuda_part)
  heat2d_part(HEAT2D_CUDA "CUDA" "${HEAT2D_CUDA_METHODS}" heat2d_try_cuda)
endmacro()

macro(heat2d_try_cuda)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(part_OK ON)
  endif()
  set(part_WHY "no CUDA compiler that builds a test program (nvcc not found, or it refuses this host compiler)")
  set(part_FIX "install the CUDA toolkit and put nvcc on PATH (or set CUDACXX)")
endmacro()

# ---- CUPTI: the CUDA methods' measured transfers (src/probes) ----------------
macro(heat2d_try_cupti)
  if(TARGET CUDA::cupti)
    set(part_OK ON)
  endif()
  set(part_WHY "CUDA's CUPTI library was not found")
  set(part_FIX "install the CUDA toolkit's CUPTI (extras/CUPTI, or Debian's nvidia-cupti)")
endmacro()

# ---- MPI: its methods and the process hooks ------------------------------------
macro(heat2d_mpi_part)
  heat2d_part(HEAT2D_MPI "MPI" "${HEAT2D_MPI_METHODS}" heat2d_try_mpi)
endmacro()

macro(heat2d_try_mpi)
  find_package(MPI QUIET COMPONENTS C)
  set(part_OK ${MPI_C_FOUND})
  set(part_WHY "no MPI C library found")
  set(part_FIX "install one (Debian and Ubuntu: libopenmpi-dev openmpi-bin)")
endmacro()

function(heat2d_find_netcdf)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(HEAT2D_NC QUIET IMPORTED_TARGET GLOBAL netcdf)
    if(HEAT2D_NC_FOUND)
      add_library(heat2d_netcdf ALIAS PkgConfig::HEAT2D_NC)
      set(HEAT2D_NETCDF_VERSION "${HEAT2D_NC_VERSION}" CACHE INTERNAL "")
      return()
    endif()
  endif()
  find_program(HEAT2D_NC_CONFIG nc-config)
  if(NOT HEAT2D_NC_CONFIG)
    return()
  endif()
  execute_process(COMMAND ${HEAT2D_NC_CONFIG} --cflags OUTPUT_VARIABLE cflags
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${HEAT2D_NC_CONFIG} --libs OUTPUT_VARIABLE libs
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${HEAT2D_NC_CONFIG} --version OUTPUT_VARIABLE version
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT libs)
    return()
  endif()
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  separate_arguments(libs UNIX_COMMAND "${libs}")
  add_library(heat2d_netcdf INTERFACE IMPORTED GLOBAL)
  target_compile_options(heat2d_netcdf INTERFACE ${cflags})
  target_link_libraries(heat2d_netcdf INTERFACE ${libs})
  string(REGEX REPLACE "^netCDF " "" version "${version}")
  set(HEAT2D_NETCDF_VERSION "${version}" CACHE INTERNAL "")
endfunction()
