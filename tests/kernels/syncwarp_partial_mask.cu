// __syncwarp(mask) orders only the lanes named in mask. Every lane of the
// warp writes its slot; lanes 0..15 then sync among themselves and read
// the next lane's slot. Lane 15 reads slot 16, written by lane 16, which is
// outside the mask: nothing orders that pair. Expected: a race between the
// store and the load.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: uniform 14
// AUCS-EXPECT: divergent 17
// AUCS-EXPECT: race 14 17

__global__ void half_warp_rotate(float *out, const float *in) {
  __shared__ float s[32];
  unsigned lane = threadIdx.x % 32;
  s[lane] = in[threadIdx.x];
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    out[lane] = s[lane + 1];
  }
}
