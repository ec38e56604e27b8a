// Each thread probes slots until it finds one holding its own key or has
// tried them all; a `break` leaves early, and the barrier between the
// publish and the read sits in the loop.
__global__ void probe(int *out, const int *keys) {
  __shared__ int seen[64];
  int t = threadIdx.x;
  int at = -1;
  for (int k = 0; k < 8; k++) {
    seen[t] = keys[k * 64 + t];
    __syncthreads();
    if (seen[(t + k) % 64] == t) {
      at = k;
      break;
    }
    __syncthreads();
  }
  out[t] = at;
}
