// Tree reduction without the barrier inside the loop: in step s, thread t
// reads sdata[t + s], which thread t + s wrote in the previous step, in the
// same barrier interval. The load and the store are on one line. Expected:
// a race of that line with itself; the barrier after the load of the input
// orders it before the loop and is needed.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 14 15
// AUCS-EXPECT: divergent 18 21
// AUCS-EXPECT: race 18 18

__global__ void reduce_nosync(float *out, const float *in) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
  }
  if (tid == 0)
    out[0] = sdata[0];
}
// Static (aucs detect --static, same launch): the update line races with
// itself; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 18 18
