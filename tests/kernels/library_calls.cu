// Library calls, as a kernel compiled without the CUDA SDK declares them:
// the interpreter runs them on the host (detector/interp/libcalls.def). Every
// block is uniform: the calls' arguments do not depend on the thread
// except hypotf's, whose result only goes to memory.
// AUCS-EXPECT: uniform 15 16 17 18 19 20 21
extern "C" __device__ float roundf(float);
extern "C" __device__ float hypotf(float, float);
extern "C" __device__ unsigned __nv_umul24(unsigned, unsigned);
extern "C" __device__ int __nv_ffs(int);

__global__ void rotate(float *out, const float *in, float scale,
                       unsigned stride) {
  __shared__ float tile[256];
  unsigned t = threadIdx.x;
  int bias = (int)roundf(scale);
  tile[t] = hypotf(in[t], 1.0f);
  __syncthreads();
  unsigned k = __nv_umul24(stride, 2u);
  out[t] = tile[(t + k) % blockDim.x] + (float)__nv_ffs(bias);
  tile[t] = 0.0f;
  out[blockDim.x + t] = tile[t];
}
// Detection: k = umul24(1, 2) = 2, so thread t reads tile[t + 2] (line 19)
// in the interval where thread t + 2 clears it (line 20). The barrier on
// line 17 orders line 16's writes before line 19's reads.
// AUCS-LAUNCH: --grid 1 --block 64 --arg scale=2.6 --arg stride=1
// AUCS-EXPECT: race 19 20
