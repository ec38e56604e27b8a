// Read/write race on shared memory: a neighbour exchange with the barrier
// between the store and the neighbour's load forgotten. Thread t reads
// s[t + 1], which thread t + 1 writes in the same barrier interval. Expected:
// a race between the store and the load; nothing else (the last thread reads
// the spare element, which nobody writes).
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 14 15
// AUCS-EXPECT: race 14 15

__global__ void neighbour_diff(float *out, const float *in) {
  __shared__ float s[65];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = in[i];
  out[i] = s[tid + 1] - s[tid];
}
// Static (aucs detect --static, same launch): the store and the neighbour
// load race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 14 15
