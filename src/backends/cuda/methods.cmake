# The CUDA backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(cuda-each NEEDS CUDA SOURCES cuda_each.c)
heat2d_method(cuda-resident NEEDS CUDA SOURCES cuda_resident.c)
heat2d_method(cuda-graph NEEDS CUDA SOURCES cuda_graph.c)
heat2d_method(cuda-tb NEEDS CUDA SOURCES cuda_tb.c)
heat2d_method(cuda-overlap NEEDS CUDA SOURCES cuda_overlap.c)
