// Per-bucket counters in shared memory updated in place: threads of one
// bucket race on each read-modify-write (`+=`, `++`, `|=`).
__global__ void buckets(int *out, const int *keys, const unsigned *bits) {
  __shared__ int sum[8];
  __shared__ int count[8];
  __shared__ unsigned seen[8];
  int t = threadIdx.x;
  if (t < 8) {
    sum[t] = 0;
    count[t] = 0;
    seen[t] = 0;
  }
  __syncthreads();
  int b = t % 8;
  sum[b] += keys[t];
  ++count[b];
  seen[b] |= bits[t];
  __syncthreads();
  if (t < 8)
    out[t] = sum[t] + count[t] + (int)seen[t];
}
