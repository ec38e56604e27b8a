#!/usr/bin/env bash
# The mutation test: corrupted copies of corpus kernels must never crash,
# abort, hang or make aucs write a module that fails the verifier.
#
#   mutants.sh [--report] AUCS MUTATE OPT WORKDIR SEED COUNT KERNEL.cu...
#
# Each kernel becomes three inputs: bitcode with debug info (aucs compile
# always adds -g), the same without (opt -strip-debug), and textual IR.
# tests/mutate makes COUNT deterministic mutants of each (truncations, byte
# flips, chunk copies, line edits; see mutate.c). Every mutant goes through
# `aucs facts`; every 4th also through `detect` and every 8th through
# `fix -o`, both on small budgets. Every run must exit 0, 1 or 2 within
# $MUTANT_TIMEOUT seconds (default 60), and a module fix writes must pass
# `opt -passes=verify`. Prints a table by class; exits 1 on any failure
# (--report: always 0, for measuring a baseline).
set -u
report=0
[ "${1:-}" = --report ] && { report=1; shift; }
aucs=$1 mutate=$2 opt=$3 work=$4 seed=$5 count=$6
shift 6
limit=${MUTANT_TIMEOUT:-60}
budget=(--step-budget 100000 --population 1 --generations 1
  --static-budget 500 --smt-timeout 200 --replays 2)

rm -rf "$work" && mkdir -p "$work/in" "$work/m" || exit 1
for k in "$@"; do
  name=$(basename "$k" .cu)
  "$aucs" compile --no-cuda-sdk "$k" -o "$work/in/$name.bc" &&
    "$opt" -strip-debug "$work/in/$name.bc" -o "$work/in/$name-nodbg.bc" &&
    "$aucs" compile --no-cuda-sdk "$k" -o "$work/in/$name.ll" ||
    { echo "mutants: cannot compile $k" >&2; exit 1; }
done
for f in "$work"/in/*; do
  "$mutate" "$seed" "$count" "$f" "$work/m" || exit 1
done

declare -A total bad inputs bad_inputs kinds
failures=0 runs=0 input_failed=0
# outcome RC: "ok", or what went wrong.
outcome() {
  case $1 in
  0 | 1 | 2) echo ok ;;
  3) echo internal-error ;;
  124 | 137) echo hang ;;
  *) if [ "$1" -gt 128 ]; then echo "signal-$(($1 - 128))"; else echo "exit-$1"; fi ;;
  esac
}
# check CLASS FILE WHAT CMD...: run CMD, count its outcome.
check() {
  local cls=$1 file=$2 what=$3 rc out
  shift 3
  timeout -k 5 "$limit" "$@" >/dev/null 2>"$work/stderr"
  rc=$?
  runs=$((runs + 1))
  out=$(outcome "$rc")
  total[$cls]=$((${total[$cls]:-0} + 1))
  if [ "$out" != ok ]; then
    bad[$cls]=$((${bad[$cls]:-0} + 1))
    kinds[$out]=$((${kinds[$out]:-0} + 1))
    failures=$((failures + 1))
    input_failed=1
    echo "FAIL ($out) $what $file: $(head -c 300 "$work/stderr" | head -n 2)" >&2
  fi
  return "$rc"
}

i=0
for m in "$work"/m/*; do
  base=$(basename "$m")
  ext=${base##*.}
  cls=$(echo "$base" | cut -d. -f2)
  case $base in *-nodbg.*) form=bc ;; *) form=$ext-dbg ;; esac
  cls="$form/$cls"
  i=$((i + 1))
  input_failed=0
  check "$cls" "$m" facts "$aucs" facts "$m"
  [ $((i % 4)) -eq 0 ] && check "$cls" "$m" detect "$aucs" detect "${budget[@]}" "$m"
  if [ $((i % 8)) -eq 0 ]; then
    rm -f "$work/out.bc"
    check "$cls" "$m" fix "$aucs" fix "${budget[@]}" --max-rounds 2 "$m" -o "$work/out.bc"
    if [ -f "$work/out.bc" ] && ! "$opt" -passes=verify -disable-output \
      "$work/out.bc" 2>"$work/stderr"; then
      failures=$((failures + 1))
      bad[$cls]=$((${bad[$cls]:-0} + 1))
      kinds[unverified-output]=$((${kinds[unverified-output]:-0} + 1))
      input_failed=1
      echo "FAIL (unverified output) fix $m: $(head -n 2 "$work/stderr")" >&2
    fi
  fi
  inputs[$cls]=$((${inputs[$cls]:-0} + 1))
  bad_inputs[$cls]=$((${bad_inputs[$cls]:-0} + input_failed))
done

printf '%-16s %6s %6s %6s %6s\n' class inputs failed runs failed
for c in $(printf '%s\n' "${!total[@]}" | sort); do
  printf '%-16s %6d %6d %6d %6d\n' "$c" "${inputs[$c]}" "${bad_inputs[$c]}" \
    "${total[$c]}" "${bad[$c]:-0}"
done
for k in "${!kinds[@]}"; do echo "failed runs by outcome: $k ${kinds[$k]}"; done
echo "mutants: $i inputs, $runs runs, $failures failures"
[ "$failures" -eq 0 ] || [ "$report" -eq 1 ]
