// The partial-mask exchange of syncwarp_partial_mask.cu done right: lanes
// 0..16 sync (mask 0x1ffff), so the writer of every slot that lanes 0..15
// read (slots 1..16) is in the mask, and lanes 17..31, whose slots nobody
// reads, stay out. Expected: clean.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: uniform 13
// AUCS-EXPECT: divergent 18
// AUCS-EXPECT: clean

__global__ void half_warp_rotate_sync(float *out, const float *in) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  if (lane <= 16) {
    __syncwarp(0x0001ffffu);
    float v = 0;
    if (lane < 16)
      v = s[lane + 1];
    out[lane] = v;
  }
}
