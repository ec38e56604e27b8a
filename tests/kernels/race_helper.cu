// A race whose accesses sit in __device__ helpers: the kernel stages its
// input through a helper that writes the shared buffer and reads it back
// through another helper with a stride of two, with no barrier between the
// calls. At -O0 the helpers stay calls, at -O2 they are inlined; either way
// the accesses carry the helpers' lines. Expected: a race between the
// helper's store and the other helper's load.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 24
// AUCS-EXPECT-O2: uniform 13 17
// AUCS-EXPECT: race 13 17

__device__ void put(float *s, unsigned i, float v) {
  s[i] = v;
}

__device__ float get(const float *s, unsigned i) {
  return s[i];
}

__global__ void staged(float *out, const float *in) {
  __shared__ float buf[128];
  unsigned tid = threadIdx.x;
  put(buf, tid, in[tid]);
  out[tid] = get(buf, 2 * tid) + 1.0f;
}
// Static (aucs detect --static, same launch): put's store and get's load
// race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 13 17
