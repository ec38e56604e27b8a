// Half precision through the SDK's cuda_fp16.h, whose functions are inline
// PTX: __ldg of a __half is ld.global.nc.b16, __half2float cvt.f32.f16,
// __float2half cvt.rn.f16.f32, __hadd add.f16, __floats2half2_rn and
// __low2half / __high2half pack and unpack with mov.b32, __shfl_down_sync
// of a __half shfl.sync.down.b32. smooth_racy reads its neighbour's tile
// slot with no barrier after the writes: a race between lines 23 and 24.
// smooth_synced has the barrier (line 33): race-free.
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 20 21 22 23 24 31 32 33 34 35
// AUCS-EXPECT: race 23 24
// AUCS-EXPECT-STATIC: confirmed 23 24
#include <cuda_fp16.h>

__device__ __half scaled(__half h) { return __hmul(h, __float2half(0.5f)); }

__global__ void smooth_racy(__half *out, const __half *in) {
  __shared__ __half tile[64];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  __half x = __ldg(&in[g]);
  __half2 pair = __floats2half2_rn(__half2float(x), 1.0f);
  __half below = __shfl_down_sync(0xffffffffu, x, 1);
  tile[t] = __hadd(__low2half(pair), __high2half(pair));
  out[g] = __hadd(scaled(tile[(t + 1) % 64]), below);
}

__global__ void smooth_synced(__half *out, const __half *in) {
  __shared__ __half tile[64];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  __half x = __ldg(&in[g]);
  __half2 pair = __floats2half2_rn(__half2float(x), 1.0f);
  tile[t] = __hadd(__low2half(pair), __high2half(pair));
  __syncthreads();
  __half below = __shfl_down_sync(0xffffffffu, x, 1);
  out[g] = __hadd(scaled(tile[(t + 1) % 64]), below);
}
