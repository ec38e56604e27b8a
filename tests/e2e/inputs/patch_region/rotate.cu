// Each thread reads its right neighbour's slot in a helper, right after
// writing its own, with no barrier between the write and the read.
__device__ float rotate(float *s, float v) {
  unsigned t = threadIdx.x;
  s[t] = v;
  float w = s[(t + 1) % blockDim.x];
  return w;
}

__global__ void rotate_all(float *out, const float *in) {
  __shared__ float s[64];
  float v = in[threadIdx.x] * 2.0f;
  out[threadIdx.x] = rotate(s, v);
}
