# The OpenMP target backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(omp-target-each NEEDS OMP_TARGET SOURCES omp_target_each.c)
heat2d_method(omp-target-resident NEEDS OMP_TARGET SOURCES omp_target_resident.c)
