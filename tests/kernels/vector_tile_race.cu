// Vector stores racing with their neighbours' reads: each thread writes
// its 16-byte slot of a shared tile and, with no barrier, reads one lane of
// the next thread's slot (line 22: the third lane, byte 8 of the slot; line
// 30: an int2 through clang's vector type, lane 1). A vector store is one
// access of its full width, so the read of any of its lanes conflicts.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 20 29
// AUCS-EXPECT: race 20 22
// AUCS-EXPECT: race 29 30
// AUCS-EXPECT-STATIC: confirmed 20 22
// AUCS-EXPECT-STATIC: confirmed 29 30

typedef int vint2 __attribute__((ext_vector_type(2)));

__global__ void lane_race(float *out, const float4 *in) {
  __shared__ float4 tile[64];
  unsigned t = threadIdx.x;
  float4 v = in[t];
  v.x += 1.0f;
  tile[t] = v;
  unsigned next = (t + 1) % 64;
  out[t] = tile[next].z;
}

__global__ void pair_race(int *out, const vint2 *in) {
  __shared__ vint2 pairs[64];
  unsigned t = threadIdx.x;
  vint2 p = in[t] + 1;
  pairs[t] = p.yx;
  out[t] = pairs[(t + 1) % 64].y;
}
