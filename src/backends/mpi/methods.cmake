# The MPI backend's methods (cmake/Methods.cmake): name, parts, sources.
heat2d_method(mpi-cpu NEEDS MPI SOURCES mpi_cpu.c)
heat2d_method(mpi-cuda NEEDS MPI CUDA SOURCES mpi_cuda.c mpi_cuda_device.c mpi_cuda_state.c)
