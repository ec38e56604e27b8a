// bfloat16 through the SDK's cuda_bf16.h: __ldg of a __nv_bfloat16 is
// ld.global.nc.b16, __bfloat162float the mov.b32 {0, h} that puts the 16
// bits above 16 zero bits, __float2bfloat16 rounds to nearest even (in C on
// sm_70, in cvt.rn.bf16.f32 on sm_80 and later). The neighbour's slot is
// found through a bf16 round trip: t + 1 <= 64 is exact in bf16's 8-bit
// significand, so each thread reads slot t + 1. shift_racy has no barrier
// between the writes and the reads: a race between lines 26 and 27.
// shift_synced has one (line 37): race-free. At -O2 the C rounding of
// __float2bfloat16 is inlined: its branches on the thread's value make
// blocks of lines 23, 25, 27, 34 and 36 divergent there.
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 22 24 26 33 35 37 38
// AUCS-EXPECT-O0: uniform 23 25 27 34 36
// AUCS-EXPECT: race 26 27
// AUCS-EXPECT-STATIC: confirmed 26 27
#include <cuda_bf16.h>

__global__ void shift_racy(__nv_bfloat16 *out, const __nv_bfloat16 *in) {
  __shared__ __nv_bfloat16 tile[64];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  __nv_bfloat16 x = __ldg(&in[g]);
  float next = __bfloat162float(__float2bfloat16((float)(t + 1)));
  unsigned n = (unsigned)next % 64;
  __nv_bfloat16 y = __hadd(x, __float2bfloat16(0.25f));
  tile[t] = y;
  out[g] = __hmul(tile[n], __float2bfloat16_rn(2.0f));
}

__global__ void shift_synced(__nv_bfloat16 *out, const __nv_bfloat16 *in) {
  __shared__ __nv_bfloat16 tile[64];
  unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  __nv_bfloat16 x = __ldg(&in[g]);
  float next = __bfloat162float(__float2bfloat16((float)(t + 1)));
  unsigned n = (unsigned)next % 64;
  tile[t] = __hadd(x, __float2bfloat16(0.25f));
  __syncthreads();
  __nv_bfloat16 z = tile[n];
  out[g] = __hmul(z, __float2bfloat16_rn(2.0f));
}
