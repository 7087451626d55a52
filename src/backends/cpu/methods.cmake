# The cpu backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(cpu SOURCES cpu.c)
