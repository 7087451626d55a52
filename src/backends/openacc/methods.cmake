# The OpenACC backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(acc-each NEEDS OPENACC SOURCES acc_each.c acc_each_real.c)
heat2d_method(acc-resident NEEDS OPENACC SOURCES acc_resident.c acc_resident_real.c)
