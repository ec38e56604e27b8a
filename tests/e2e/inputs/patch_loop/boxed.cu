// A value of a template type crosses the barrier: the rewrite cannot
// declare it above the guards, so the recompiled patch fails its check and
// the loop stays IR only.
template <typename T> struct box {
  T x;
};
__global__ void boxed(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  for (int r = 0; r < t / 16 + 1; r++) {
    box<float> b = {in[r * 64 + t]};
    s[t] = b.x;
    __syncthreads();
    out[r * 64 + t] = s[63 - t] + b.x;
    __syncthreads();
  }
}
