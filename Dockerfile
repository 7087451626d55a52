# heat2d on a machine whose GPU is set up through Docker: NVIDIA's CUDA 13
# development image, what heat2d needs installed by tools/setup.sh (the one
# install path; "offload" installs GCC's nvptx offload compiler, as on a
# GPU host, although no GPU is visible while the image builds), and heat2d
# built with OpenACC offloaded and installed, as a check of the toolchain.
# compose.yaml runs it on the checkout, with one GPU reserved:
#   docker compose run --rm heat2d make bench
FROM nvidia/cuda:13.0.0-devel-ubuntu24.04

COPY . /src/heat2d
RUN /src/heat2d/tools/setup.sh offload \
 && cmake -S /src/heat2d -B /src/build -DCMAKE_BUILD_TYPE=Release -DHEAT2D_OPENACC_OFFLOAD=ON \
 && cmake --build /src/build -j "$(nproc)" \
 && cmake --install /src/build \
 && rm -rf /src/build /var/lib/apt/lists/*

WORKDIR /work/heat2d
CMD ["make", "bench"]
