// A tile of float4 values copied through shared memory and read back in
// another thread's slot after a barrier: race-free. `tile_copy` moves
// float4 structs (16-byte copies); `tile_vec` uses clang's vector type, so
// the IR holds <4 x float> loads and stores, lane arithmetic and a
// shuffle at both levels. Each 16-byte store covers one slot exactly, so
// no two threads touch a byte of one slot in one barrier interval.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 19 28
// AUCS-EXPECT: clean
// AUCS-EXPECT-STATIC: proof race-free

typedef float vec4 __attribute__((ext_vector_type(4)));

__global__ void tile_copy(float4 *out, const float4 *in) {
  __shared__ float4 tile[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  tile[t] = in[g];
  __syncthreads();
  float4 v = tile[63 - t];
  out[g] = make_float4(v.w, v.z, v.y, v.x);
}

__global__ void tile_vec(vec4 *out, const vec4 *in) {
  __shared__ vec4 tile[64];
  unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * 64 + t] * 2.0f;
  __syncthreads();
  vec4 v = tile[t ^ 1];
  out[blockIdx.x * 64 + t] = v.wzyx + v.x;
}
