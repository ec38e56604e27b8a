// out[i + 1] overlaps the next thread's out[i] for every n > 1, the natural
// n = 128 included: a race (and, at the block boundary, an inter-block
// race) that stays an error after the natural replay.
// AUCS-EXPECT: uniform 9
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: race 11 12
// AUCS-EXPECT: inter-block-race 11 12
__global__ void shift(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = i;
    out[i + 1] = 0;
  }
}
