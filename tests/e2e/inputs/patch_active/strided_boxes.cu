// Boxes of 100 values, 128 threads: each box is loaded into shared memory
// by a strided loop (the threads past 100 load nothing), then every value
// is summed against the box by another strided loop. The barrier between
// the two loops is missing.
struct Boxes {
  const float *v;
  float *out;
  int nbox;
};

#define PER_BOX 100

__global__ void box_sums(Boxes b) {
  __shared__ float s[PER_BOX];
  int t = threadIdx.x;
  int w = t;
  for (int k = 0; k < b.nbox; k++) {
    const float *src = &b.v[k * PER_BOX];
    while (w < PER_BOX) {
      s[w] = src[w];
      w = w + blockDim.x;
    }
    w = t;

    while (w < PER_BOX) {
      float acc = 0.0f;
      for (int j = 0; j < PER_BOX; j++)
        acc += s[j] * s[w];
      b.out[k * PER_BOX + w] = acc;
      w = w + blockDim.x;
    }
    w = t;
    __syncthreads();
  }
}
