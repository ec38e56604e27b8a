// __device__ helpers. A helper that reads threadIdx returns a varying value
// even with no arguments; a helper given uniform arguments returns a uniform
// one; a helper given a varying argument branches divergently inside. At -O0
// the helpers stay calls (their bodies are not in the kernel); at -O2 they
// are inlined and their lines appear in the kernel.
// AUCS-EXPECT-O2: divergent 19
// AUCS-EXPECT: divergent 26
// AUCS-EXPECT: uniform 28 30
// AUCS-EXPECT-O0: uniform 29

__device__ unsigned lane_of(void) { return threadIdx.x % 32; }

__device__ int clamp_int(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

__device__ void store_if_leader(int *p, unsigned lane, int v) {
  if (lane == 0)
    p[0] = v;
}

__global__ void helpers(int *out, int n) {
  unsigned lane = lane_of();
  int m = clamp_int(n, 1, 64);
  if (lane == 3)
    out[threadIdx.x] = 1;
  if (m > 8)
    out[blockDim.x + threadIdx.x] = m;
  store_if_leader(out + 2 * blockDim.x + threadIdx.x / 32, lane, n);
  __syncthreads();
}
// Detection, one block: each store has its own region, so nothing races,
// and the barrier at the end orders nothing.
// AUCS-LAUNCH: --grid 1 --block 64 --arg n=16
// AUCS-EXPECT: redundant-barrier 30
// Static (aucs detect --static, same launch): affine regions of one pointer.
// At -O0 the helpers are calls whose results the checker follows into
// their bodies (lane_of's tid % 32); at -O2 they are inlined. Proven at
// both levels.
// AUCS-EXPECT-STATIC: proof race-free
