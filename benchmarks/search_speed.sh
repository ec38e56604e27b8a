#!/usr/bin/env bash
# Side by side: runs and wall time of `aucs detect --stats` on every
# tests/kernels/*.cu at -O0 and -O2, for two aucs binaries (OLD NEW), each
# repeated R times (median), old and new interleaved so that the machine's
# load falls on both alike. Prints one line per file and level:
#   file level t_old t_new runs_old runs_new
#   benchmarks/search_speed.sh OLD NEW [R]        every file
#   SHARD=i/n benchmarks/search_speed.sh OLD NEW R  files i, i+n, ...
#   benchmarks/search_speed.sh --summary FILE...  totals and the median
#                                                 t_new/t_old of such lines
set -uo pipefail
if [ "${1:-}" = "--summary" ]; then
  shift
  cat "$@" | awk '$3 > 0 { to += $3; tn += $4; ro += $5; rn += $6; n++ }
    END { printf "%d file-levels: t_old %.1f s, t_new %.1f s (%.2fx); runs %d -> %d\n",
      n, to, tn, to / tn, ro, rn }'
  cat "$@" | awk '$3 > 0 { print $4 / $3 }' | sort -g |
    awk '{ v[NR] = $1 } END { printf "median t_new/t_old %.3f\n",
      (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
  exit 0
fi
old=$1 new=$2 reps=${3:-3}
shard=${SHARD:-0/1}
si=${shard%/*} sn=${shard#*/}
root=$(cd "$(dirname "$0")/.." && pwd)
one() { # bin level file -> "seconds runs"
  local t0 t1 out runs
  t0=$(date +%s.%N)
  out=$("$1" detect --stats "$2" "$3" 2>&1 >/dev/null)
  t1=$(date +%s.%N)
  runs=$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9]*\) runs,.*/\1/p' |
    awk '{ s += $1 } END { print s + 0 }')
  echo "$(echo "$t1 - $t0" | bc) $runs"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
i=0
for f in "$root"/tests/kernels/*.cu; do
  i=$((i + 1))
  [ $((i % sn)) -eq "$si" ] || continue
  for lvl in -O0 -O2; do
    to=() tn=()
    for ((k = 0; k < reps; k++)); do
      read -r a ro < <(one "$old" "$lvl" "$f")
      read -r b rn < <(one "$new" "$lvl" "$f")
      to+=("$a") tn+=("$b")
    done
    mo=$(printf '%s\n' "${to[@]}" | median)
    mn=$(printf '%s\n' "${tn[@]}" | median)
    printf '%-36s %-3s %8.2f %8.2f %6s %6s\n' "$(basename "$f")" "$lvl" \
      "$mo" "$mn" "$ro" "$rn"
  done
done
