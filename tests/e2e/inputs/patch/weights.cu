// Each thread weighs its right neighbour's value by a weight of its own
// table: the table is the thread's, the neighbour's slot is not.
__global__ void weigh(float *out, const float *in) {
  __shared__ float s[64];
  float w[4] = {0.5f, 1.0f, 1.5f, 2.0f};
  int t = threadIdx.x;
  s[t] = in[t];
  out[t] = w[t & 3] * s[(t + 1) % 64];
}
