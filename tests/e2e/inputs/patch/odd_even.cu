// Odd threads read their left neighbour, even ones their right one, in the
// two arms of one if: only flattening the if gives the barrier a place, and
// flattening has no exact source form yet, so the patch is empty.
__global__ void odd_even(int *out, const int *in) {
  __shared__ int a[65];
  unsigned i = threadIdx.x;
  a[i] = in[i];
  __syncthreads();
  if (i % 2)
    a[i] = a[i - 1] + 1;
  else
    a[i] = a[i + 1] - 1;
  out[i] = a[i];
}
