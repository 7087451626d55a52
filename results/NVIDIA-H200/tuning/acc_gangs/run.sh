#!/bin/bash
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64
H=$PWD/build-gpu/bin/heat2d
key() { grep "^$1=" | head -1 | cut -d= -f2 | tr -d ' '; }
for p in f64 f32; do for n in 8192:1000 2048:500; do nx=${n%:*}; st=${n#*:}
  for g in cuda columns 0 1056 2112 4224 16896; do
    for r in 1 2; do
      if [ $g = cuda ]; then o=$($H run --method cuda-resident --nx $nx --ny $nx --steps $st --precision $p)
      elif [ $g = columns ]; then o=$(HEAT2D_ACC_SCHEDULE=columns $H run --method acc-resident --nx $nx --ny $nx --steps $st --precision $p)
      else o=$(HEAT2D_ACC_SCHEDULE=columns-gangs HEAT2D_ACC_GANGS=$g $H run --method acc-resident --nx $nx --ny $nx --steps $st --precision $p); fi
      l=$(key GPU_LOOP_S <<<"$o"); echo "$p $nx $g $r $(awk -v n=$nx -v s=$st -v l=$l 'BEGIN{printf "%.1f", n*n*s/l/1e9}') $(grep -c CHECK=PASS <<<"$o")"
    done; done; done; done
# --initial on the GPU: S steps, then T more from the saved field, equal S+T
W=$(mktemp -d)
for m in cpu cuda-resident cuda-graph acc-resident; do for p in f64 f32; do
  $H run --method $m --nx 1001 --ny 703 --steps 30 --precision $p --save $W/whole.dat >/dev/null
  $H run --method $m --nx 1001 --ny 703 --steps 13 --precision $p --save $W/first.dat >/dev/null
  o=$($H run --method $m --initial $W/first.dat --steps 17 --precision $p --save $W/rest.dat)
  echo "initial $m $p $(grep DEVICE= <<<"$o" | head -1) $($H compare $W/whole.dat $W/rest.dat --atol 0 --rtol 0 | tail -1)"
done; done
rm -rf $W
