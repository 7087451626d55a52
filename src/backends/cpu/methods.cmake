# The cpu backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(cpu SOURCES cpu.c)
heat2d_method(cpu-double NEEDS TEST_DOUBLES SOURCES ${PROJECT_SOURCE_DIR}/tests/doubles/cpu_double.c)
