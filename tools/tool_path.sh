#!/bin/sh
# Prints PATH with the places where a machine keeps tools outside a new
# user's PATH appended (each that exists and is not there yet): CUDA's
# ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda) and software under /opt (a
# site's bin/ or a Python environment's .venv/bin). A cluster node or a GPU
# image often keeps nvcc, cmake and a python with matplotlib there, on
# root's PATH and not on the PATH a login gives. The user's own come first.
path=$PATH
for dir in ${CUDA_HOME:+"$CUDA_HOME/bin"} ${CUDA_PATH:+"$CUDA_PATH/bin"} /usr/local/cuda/bin \
  /opt/*/bin /opt/*/.venv/bin; do
  [ -d "$dir" ] || continue
  case ":$path:" in *":$dir:"*) continue ;; esac
  path=$path:$dir
done
printf '%s\n' "$path"
