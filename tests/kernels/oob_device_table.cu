// Out-of-bounds read of a fixed-size __device__ table: a lookup table of 16
// coefficients indexed with the thread index instead of tid % 16. Threads 16
// and up read past its end. Expected: an out-of-bounds read.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: uniform 12
// AUCS-EXPECT: out-of-bounds 12

__device__ float coeff[16];

__global__ void apply_coeff(float *out, const float *in) {
  unsigned tid = threadIdx.x;
  out[tid] = coeff[tid] * in[tid];
}
// Static (aucs detect --static, same launch): out and in are distinct
// buffers and neither points into the __device__ table.
// AUCS-EXPECT-STATIC: proof race-free
