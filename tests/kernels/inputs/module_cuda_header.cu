// Input for tests/test_module.c: uses every piece of include/cuda/aucs_cuda.h
// so the SDK-free build is checked to produce the expected NVVM IR.
extern __shared__ float dyn[];
__constant__ int cst[4];

__device__ int helper(int x) { return x + cst[0]; }

__global__ void everything(int *__restrict__ a, unsigned *u, float *f,
                           unsigned long long *q) {
  __shared__ int s[32];
  int t = threadIdx.x + blockIdx.x * blockDim.x + gridDim.x + warpSize;
  s[t % 32] = a[t];
  dyn[t] = 1.0f;
  __syncthreads();
  int c = __syncthreads_count(t > 3) + __syncthreads_and(t) +
          __syncthreads_or(t);
  __syncwarp();
  __threadfence();
  __threadfence_block();
  atomicAdd(a, 1);
  atomicAdd(u, 1u);
  atomicAdd(f, 1.0f);
  atomicAdd(q, 1ull);
  atomicSub(a, 1);
  atomicSub(u, 1u);
  atomicExch(a, 1);
  atomicExch(u, 1u);
  atomicExch(f, 2.0f);
  atomicMin(a, 1);
  atomicMin(u, 1u);
  atomicMax(a, 1);
  atomicMax(u, 1u);
  atomicCAS(a, 1, 2);
  atomicCAS(u, 1u, 2u);
  atomicCAS(q, 1ull, 2ull);
  atomicAnd(a, 1);
  atomicOr(u, 1u);
  atomicXor(a, 3);
  atomicInc(u, 10u);
  int v = __shfl_sync(0xffffffff, t, 0) + __shfl_up_sync(0xffffffff, t, 1) +
          __shfl_down_sync(0xffffffff, t, 1, 16) +
          __shfl_xor_sync(0xffffffff, t, 1);
  float fv = __shfl_sync(0xffffffff, 1.0f, 0);
  unsigned b = __ballot_sync(0xffffffff, t > 1) + __any_sync(0xffffffff, t) +
               __all_sync(0xffffffff, t) + __activemask();
  a[0] = helper(v + c + (int)b + min(t, 3) + max(t, 4u) + (int)min(fv, 2.0f));
}
