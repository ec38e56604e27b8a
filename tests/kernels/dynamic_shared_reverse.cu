// Race-free: reversing each block's part of an array through dynamic shared
// memory (extern __shared__, sized at launch). Every thread stores its
// element, all wait, every thread loads the mirrored one. Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 128
// AUCS-EXPECT: uniform 13 14 15
// AUCS-EXPECT: clean

extern __shared__ int s_dyn[];

__global__ void reverse_dynamic(int *out, const int *in) {
  unsigned tid = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  s_dyn[tid] = in[base + tid];
  __syncthreads();
  out[base + tid] = s_dyn[blockDim.x - 1 - tid];
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers; the dynamic tile's pairs are proven.
// AUCS-EXPECT-STATIC: proof race-free
