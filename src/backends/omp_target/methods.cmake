# The OpenMP target backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(omp-target-each NEEDS OMP_TARGET SOURCES omp_target_each.c omp_target_each_real.c)
heat2d_method(omp-target-resident NEEDS OMP_TARGET SOURCES omp_target_resident.c omp_target_resident_real.c)
