// Per-block accumulation in global memory without atomics: every thread of
// a block adds its value to out[blockIdx.x] with a plain read-modify-write.
// The load and the store are one statement. Expected: a race of that line
// with itself (read/write and write/write); blocks use different elements,
// so no inter-block race.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: uniform 12
// AUCS-EXPECT: race 12 12

__global__ void block_sum_plain(float *out, const float *in) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[blockIdx.x] += in[i];
}
// Static (aucs detect --static, same launch): out[blockIdx.x] += races with
// itself; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 12 12
