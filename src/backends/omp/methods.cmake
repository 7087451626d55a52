# The OpenMP backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(omp NEEDS OMP SOURCES omp.c)
