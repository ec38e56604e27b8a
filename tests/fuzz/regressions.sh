#!/usr/bin/env bash
# Inputs that once crashed, aborted or hung aucs (found by the mutation
# test, scripts/fuzz or by hand): `facts` and `detect` on each must exit 0,
# 1 or 2 within a minute.
#   regressions.sh AUCS DIR
set -u
aucs=$1 dir=$2
n=0 failures=0
for f in "$dir"/*; do
  for cmd in facts detect; do
    n=$((n + 1))
    opts=()
    [ "$cmd" = detect ] && opts=(--step-budget 100000 --population 1
      --generations 1 --static-budget 500)
    timeout -k 5 60 "$aucs" "$cmd" "${opts[@]}" "$f" >/dev/null 2>&1
    rc=$?
    if [ "$rc" -gt 2 ]; then
      failures=$((failures + 1))
      echo "FAIL: aucs $cmd $f exited $rc" >&2
    fi
  done
done
echo "regressions: $((n - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
