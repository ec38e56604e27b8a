#!/usr/bin/env bash
# Seeds for fuzz_load: corpus kernels compiled by aucs, as bitcode (with
# debug info, as aucs compiles) and, for a few, as textual IR.
#   seeds.sh AUCS OUTDIR
# Reuses OUTDIR when it already holds seeds.
set -euo pipefail
aucs=$1 out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -d "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  exit 0
fi
mkdir -p "$out"
n=0
for k in "$root"/tests/kernels/*.cu; do
  name=$(basename "$k" .cu)
  # kernels needing the SDK's headers (textures, surfaces, libcu++) do not
  # compile here
  grep -q 'AUCS-REQUIRES: cuda-sdk\|AUCS-SDK:' "$k" && continue
  "$aucs" compile --no-cuda-sdk "$k" -o "$out/$name.bc"
  if [ $((n % 8)) -eq 0 ]; then
    "$aucs" compile --no-cuda-sdk -O2 "$k" -o "$out/$name-O2.ll"
  fi
  n=$((n + 1))
done
echo "seeds: $(ls "$out" | wc -l) files in $out"
