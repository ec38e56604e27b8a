// Helpers compiled in another translation unit: declared here, defined
// elsewhere. aucs runs the kernels with weight()'s result an arbitrary
// value and assumes neither helper writes memory the kernel reads (not
// even log_row through the row it is passed); every finding says so.
extern __device__ int weight(int key);
extern __device__ void log_row(const int *row);

// Race: s[t + 1] is read while its owner may still be writing it.
__global__ void racy(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = weight(t);
  log_row(s);
  out[t] = s[(t + 1) % 64];
}

// The same with a barrier between the write and the read: race-free.
__global__ void synced(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = weight(t);
  log_row(s);
  __syncthreads();
  out[t] = s[(t + 1) % 64];
}
