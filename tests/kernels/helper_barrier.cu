// Race-free: __device__ helpers that hold the barriers and the shared
// accesses. load_tile stores a thread's element and waits; rotate reads a
// neighbour's element. The kernel calls both from every thread, so the
// barrier inside the helper is reached by the whole block and orders the
// tile stores before the neighbour reads. Expected: clean at both levels
// (helpers stay calls at -O0, are inlined at -O2).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 25
// AUCS-EXPECT-O2: uniform 13 14 18
// AUCS-EXPECT: clean

__device__ void load_tile(float *tile, const float *in, unsigned tid) {
  tile[tid] = in[tid];
  __syncthreads();
}

__device__ float rotate(const float *tile, unsigned tid, unsigned n) {
  return tile[(tid + 1) % n];
}

__global__ void rotate_tile(float *out, const float *in) {
  __shared__ float tile[64];
  unsigned tid = threadIdx.x;
  load_tile(tile, in, tid);
  out[tid] = rotate(tile, tid, blockDim.x);
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; at -O0 load_tile is a call of a helper that ends in a barrier,
// which orders its store before rotate's read. Proven at both levels.
// AUCS-EXPECT-STATIC: proof race-free
