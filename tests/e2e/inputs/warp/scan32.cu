// A warp-level inclusive scan done by the first warp alone: each step
// reads a lower lane's slot into a register, then adds it to its own,
// with no __syncwarp between the read and the other lane's write.
__global__ void warp_scan(float *out, const float *in) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    for (unsigned d = 1; d < 32; d *= 2) {
      float v = t >= d ? s[t - d] : 0.0f;
      s[t] += v;
    }
  }
  __syncthreads();
  out[t] = s[t % 32] + s[31];
}
