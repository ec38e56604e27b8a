#!/usr/bin/env bash
# Side by side: runs and wall time of `aucs detect --stats` on every
# tests/kernels/*.cu at -O0 and -O2, for two aucs binaries (OLD NEW), each
# repeated R times (median). Prints one line per file and level, then the
# totals and the median new/old time ratio. Extra arguments after the two
# binaries are passed to both (e.g. -j 1).
#   benchmarks/search_speed.sh OLD NEW [R] [-- ARGS...]
set -uo pipefail
old=$1 new=$2 reps=${3:-3}
shift 3 2>/dev/null || shift $#
[ "${1:-}" = "--" ] && shift
extra=("$@")
root=$(cd "$(dirname "$0")/.." && pwd)
one() { # bin level file -> "seconds runs"
  local t0 t1 out runs
  t0=$(date +%s.%N)
  out=$("$1" detect --stats "$2" "${extra[@]}" "$3" 2>&1 >/dev/null)
  t1=$(date +%s.%N)
  runs=$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9]*\) runs,.*/\1/p' |
    awk '{ s += $1 } END { print s + 0 }')
  echo "$(echo "$t1 - $t0" | bc) $runs"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-36s %-3s %8s %8s %6s %6s\n' file lvl t_old t_new r_old r_new
for f in "$root"/tests/kernels/*.cu; do
  for lvl in -O0 -O2; do
    to=() tn=()
    for ((i = 0; i < reps; i++)); do
      read -r a ro < <(one "$old" "$lvl" "$f")
      read -r b rn < <(one "$new" "$lvl" "$f")
      to+=("$a") tn+=("$b")
    done
    mo=$(printf '%s\n' "${to[@]}" | median)
    mn=$(printf '%s\n' "${tn[@]}" | median)
    printf '%-36s %-3s %8.2f %8.2f %6s %6s\n' "$(basename "$f")" "$lvl" \
      "$mo" "$mn" "$ro" "$rn"
  done
done | tee /tmp/search_speed.$$ 
awk 'NR > 0 { to += $3; tn += $4; ro += $5; rn += $6; print $4 / $3 }
  END { printf "TOTAL t_old %.1f s t_new %.1f s runs_old %d runs_new %d\n",
        to, tn, ro, rn > "/dev/stderr" }' /tmp/search_speed.$$ | sort -g |
  awk '{ v[NR] = $1 } END { printf "median t_new/t_old %.3f over %d\n",
        (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, NR }'
rm -f /tmp/search_speed.$$
