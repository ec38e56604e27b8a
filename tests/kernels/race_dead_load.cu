// A race that -O2 deletes: a leftover debugging read of the neighbour's
// shared slot, before the barrier that should order it, whose value nobody
// uses. At -O0 (+sroa, simplifycfg) the load stays and races with the
// neighbour's store; at -O2 clang deletes the unused load, and the compiled
// kernel no longer races. The barrier orders the store before the mirrored
// load at both levels. Expected: the race at -O0 only; clean at -O2.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 15 18 19
// AUCS-EXPECT-O0: race 15 16
// AUCS-EXPECT-O2: clean

__global__ void mirror_with_peek(float *out, const float *in) {
  __shared__ float s[65];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  float peek = s[tid + 1];
  (void)peek;
  __syncthreads();
  out[tid] = s[63 - tid];
}
// Static (aucs detect --static, same launch): at -O0 the peek load races
// with the neighbour's store (the witness replays it); at -O2 the load is
// gone and in (read before the barrier) and out (written after it) are
// ordered: proved.
// AUCS-EXPECT-STATIC-O0: confirmed 15 16
// AUCS-EXPECT-STATIC-O2: proof race-free
