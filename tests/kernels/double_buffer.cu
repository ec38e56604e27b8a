// Race-free: Jacobi smoothing with double buffering in shared memory. Each
// step reads the current buffer (own element and neighbours) and writes the
// other one, so one barrier per step suffices: it orders this step's writes
// before the next step's reads of that buffer, and this step's reads before
// the next step's writes to the buffer they read. The final read also takes
// a neighbour, so the last barrier is needed too. Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 64 --arg steps=3
// AUCS-EXPECT: uniform 15 20 24 25 28
// AUCS-EXPECT: clean

__global__ void jacobi_db(float *out, const float *in, int steps) {
  __shared__ float buf[2][66];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  buf[0][tid + 1] = in[i];
  if (tid < 2) {
    buf[0][tid * 65] = 0.0f;
    buf[1][tid * 65] = 0.0f;
  }
  __syncthreads();
  int cur = 0;
  for (int s = 0; s < steps; s++) {
    float *src = buf[cur], *dst = buf[1 - cur];
    dst[tid + 1] = (src[tid] + src[tid + 1] + src[tid + 2]) / 3.0f;
    __syncthreads();
    cur = 1 - cur;
  }
  out[i] = buf[cur][tid + 1] - buf[cur][tid];
}
// Static (aucs detect --static, same launch): cur = 1 - cur is 0 or 1, so
// each step's pairs are proven. A write in the next step and the read after
// the loop are proven too: a thread that leaves the loop holds the values
// of the iteration it left in, which is the other thread's (-O0) or the one
// before it (-O2, where the loop is rotated and exits after cur = 1 - cur).
// AUCS-EXPECT-STATIC: proof race-free
