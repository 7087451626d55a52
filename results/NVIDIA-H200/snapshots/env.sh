# Sourced by the call scripts: the carried build and NetCDF's libraries.
R=$PWD/build-rev
mkdir -p /tmp/nc /tmp/ncl && tar xJf $R/ncdeps.tar.xz -C /tmp/nc && cp /tmp/nc/ncdeps/* /tmp/ncl/
export LD_LIBRARY_PATH=$R/run/lib:/tmp/ncl:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export HEAT2D_PLOT_SCRIPT=$R/src/tools/plot_bench.py
export HEAT2D_RUN_OPTIONS=$R/run/share/heat2d/run_options.json
export PATH=$PATH:/usr/local/cuda/bin:/opt/torch/.venv/bin
export ACC_DEVICE_TYPE=nvidia
H=$R/run/bin/heat2d; W=$OUT/w; mkdir -p $W
t0=$(date +%s)
