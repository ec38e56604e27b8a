// Redundant barrier at the end of a kernel: a tile reversal whose first
// barrier is needed (threads read each other's elements), followed by a
// "just in case" barrier before returning, after which no thread touches
// memory. Expected: a redundant barrier for the second one only.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 12 13 14 15
// AUCS-EXPECT: redundant-barrier 15

__global__ void reverse_tail_sync(int *out, const int *in) {
  __shared__ int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  out[tid] = s[blockDim.x - 1 - tid];
  __syncthreads();
}
// Static (aucs detect --static, same launch): in is read before the first
// barrier, out written after it: proved for this launch.
// AUCS-EXPECT-STATIC: proof race-free
