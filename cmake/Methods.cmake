# The methods, each declared once: a backend's methods.cmake names each of
# its methods, the optional parts it needs and its source files, in the
# order `heat2d methods` lists them. From those declarations come the
# registry's table (the generated heat2d_method_table.h), the methods each
# left-out part names (configure's line, heat2d info's LEFT_OUT=), the
# sources each backend builds, and the list the tests read (methods.txt in
# the build folder). A method NAME is the const heat2d_method
# heat2d_method_NAME (with '-' as '_') that its sources define.

# heat2d_backend(FOLDER [NEEDS PART] TEXT WORDS...): declares the backend in
# src/backends/FOLDER, whose methods.cmake is read and whose target
# heat2d_backend_FOLDER is built when PART is (HEAT2D_WITH_<PART>; none:
# always), and which configure's line of backends names by WORDS, expanded
# when it is built (string(CONFIGURE)).
set(HEAT2D_BACKEND_FOLDERS "")
function(heat2d_backend folder)
  cmake_parse_arguments(B "" "NEEDS" "TEXT" ${ARGN})
  set(HEAT2D_BACKEND_FOLDERS ${HEAT2D_BACKEND_FOLDERS} ${folder} PARENT_SCOPE)
  set_property(GLOBAL PROPERTY HEAT2D_BACKEND_${folder}_NEEDS "${B_NEEDS}")
  set_property(GLOBAL PROPERTY HEAT2D_BACKEND_${folder}_TEXT "${B_TEXT}")
endfunction()

# The backends, the one list of them, in the order of their methods.
heat2d_backend(cpu TEXT "cpu")
heat2d_backend(omp NEEDS OMP TEXT "omp")
heat2d_backend(openacc NEEDS OPENACC TEXT [[openacc(${HEAT2D_ACC_MODE})]])
heat2d_backend(omp_target NEEDS OMP_TARGET TEXT "omp-target(nvptx offload)")
heat2d_backend(cuda NEEDS CUDA TEXT [[transfer trace: ${HEAT2D_TRACE}]]
                                    [[cuda(${HEAT2D_CUDA_ARCHS_TEXT}: ${HEAT2D_CUDA_ARCH_CHOICE})]])
heat2d_backend(mpi NEEDS MPI TEXT [[mpi(MPI ${MPI_C_VERSION})]])

# heat2d_method(NAME [NEEDS PART...] SOURCES FILE...): declares method
# NAME, built when every PART is (HEAT2D_WITH_<PART>: OMP, OPENACC,
# OMP_TARGET, CUDA, MPI, TEST_DOUBLES) from FILEs (relative to the declaring
# folder).
function(heat2d_method name)
  cmake_parse_arguments(M "" "" "NEEDS;SOURCES" ${ARGN})
  if(NOT M_SOURCES OR M_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "heat2d_method(${name}): give SOURCES, and NEEDS only parts")
  endif()
  get_property(declared GLOBAL PROPERTY HEAT2D_METHODS)
  if(name IN_LIST declared)
    message(FATAL_ERROR "heat2d_method(${name}): declared twice")
  endif()
  set(sources "")
  foreach(file ${M_SOURCES})
    get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_LIST_DIR}")
    list(APPEND sources "${file}")
  endforeach()
  get_filename_component(backend "${CMAKE_CURRENT_LIST_DIR}" NAME)
  set_property(GLOBAL APPEND PROPERTY HEAT2D_METHODS ${name})
  set_property(GLOBAL PROPERTY HEAT2D_METHOD_${name}_NEEDS "${M_NEEDS}")
  set_property(GLOBAL PROPERTY HEAT2D_METHOD_${name}_SOURCES "${sources}")
  set_property(GLOBAL PROPERTY HEAT2D_METHOD_${name}_BACKEND "${backend}")
endfunction()

foreach(backend ${HEAT2D_BACKEND_FOLDERS})
  include(${PROJECT_SOURCE_DIR}/src/backends/${backend}/methods.cmake)
endforeach()

# heat2d_methods_needing(PART OUT [SEPARATOR]): the declared methods that
# need PART, joined by SEPARATOR (", " unless given).
function(heat2d_methods_needing part out)
  set(separator ", ")
  if(ARGC GREATER 2)
    set(separator "${ARGV2}")
  endif()
  get_property(declared GLOBAL PROPERTY HEAT2D_METHODS)
  set(names "")
  foreach(m ${declared})
    get_property(needs GLOBAL PROPERTY HEAT2D_METHOD_${m}_NEEDS)
    if(part IN_LIST needs)
      list(APPEND names ${m})
    endif()
  endforeach()
  list(JOIN names "${separator}" text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# heat2d_method_built(NAME OUT): whether every part NAME needs is built.
function(heat2d_method_built name out)
  get_property(needs GLOBAL PROPERTY HEAT2D_METHOD_${name}_NEEDS)
  set(built ON)
  foreach(part ${needs})
    if(NOT HEAT2D_WITH_${part})
      set(built OFF)
    endif()
  endforeach()
  set(${out} ${built} PARENT_SCOPE)
endfunction()

# heat2d_backend_method_sources(BACKEND OUT): the sources of BACKEND's
# methods that this build holds, a NAME_real.c as its two precisions'
# (heat2d_real_sources, cmake/Precision.cmake).
function(heat2d_backend_method_sources backend out)
  get_property(declared GLOBAL PROPERTY HEAT2D_METHODS)
  set(sources "")
  foreach(m ${declared})
    get_property(of GLOBAL PROPERTY HEAT2D_METHOD_${m}_BACKEND)
    heat2d_method_built(${m} built)
    if(of STREQUAL backend AND built)
      get_property(files GLOBAL PROPERTY HEAT2D_METHOD_${m}_SOURCES)
      list(APPEND sources ${files})
    endif()
  endforeach()
  heat2d_real_sources(sources ${sources})
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# heat2d_write_method_table(DIR): DIR/heat2d_method_table.h, one
# HEAT2D_METHOD_ENTRY(VAR) a method of this build (the registry's table),
# and methods.txt in the build folder: every declared method, whether this
# build holds it, and the parts it needs. Once every part is decided.
function(heat2d_write_method_table dir)
  get_property(declared GLOBAL PROPERTY HEAT2D_METHODS)
  string(CONCAT table "/* Generated by cmake/Methods.cmake from the backends' methods.cmake: the\n"
                      " * methods of this build, in the order heat2d methods lists them. */\n")
  string(CONCAT list "# Generated by cmake/Methods.cmake: every declared method, in order; whether\n"
                     "# this build holds it (yes or no); the optional parts it needs.\n")
  foreach(m ${declared})
    heat2d_method_built(${m} built)
    get_property(needs GLOBAL PROPERTY HEAT2D_METHOD_${m}_NEEDS)
    string(REPLACE ";" " " needs "${needs}")
    if(built)
      string(REPLACE "-" "_" var "heat2d_method_${m}")
      string(APPEND table "HEAT2D_METHOD_ENTRY(${var})\n")
      string(STRIP "${m} yes ${needs}" line)
      string(APPEND list "${line}\n")
    else()
      string(STRIP "${m} no ${needs}" line)
      string(APPEND list "${line}\n")
    endif()
  endforeach()
  heat2d_write_if_changed(${dir}/heat2d_method_table.h "${table}")
  heat2d_write_if_changed(${CMAKE_BINARY_DIR}/methods.txt "${list}")
endfunction()

# heat2d_write_if_changed(FILE TEXT): FILE holds TEXT, rewritten only when
# it differs, so that a reconfigure rebuilds nothing that did not change.
function(heat2d_write_if_changed file text)
  if(EXISTS "${file}")
    file(READ "${file}" old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE "${file}" "${text}")
endfunction()
