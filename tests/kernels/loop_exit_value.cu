// A search loop whose condition mixes a uniform bound and per-thread data:
// each thread leaves after its own number of steps. The counter is uniform
// inside the loop (every thread still in it has the same count) but not
// after it, where each thread sees the count at which it left; at -O0 the
// use after the loop reads the loop's own phi, with no join phi to mark it.
// AUCS-EXPECT: divergent 13 19
// AUCS-EXPECT: uniform 16 17

__global__ void first_match(int *pos, const int *keys, int key, int n) {
  unsigned tid = threadIdx.x;
  int i = 0;
  while (i < n && keys[tid * n + i] != key) {
    pos[gridDim.x * blockDim.x + tid * n + i] = -1;
    i++;
  }
  pos[tid] = i;
  __syncthreads();
  if (i < n)
    pos[blockDim.x + tid] = key;
}
// Detection, one block, n = 4: a thread that finds the key at step i < n
// stores pos[blockDim.x + tid] after the barrier, an element another
// thread's search loop wrote before it (pos[blockDim.x + 4 t + i]): the
// barrier orders that pair, so it is not redundant. Race-free.
// AUCS-LAUNCH: --grid 1 --block 64 --arg key=7 --arg n=4
// AUCS-EXPECT: clean
// Static (aucs detect --static, same launch): pos and keys are distinct
// buffers; at -O2 the rotated loop's exit test (i + 1 == n) bounds i below
// n. Every pair is proven at both levels.
// AUCS-EXPECT-STATIC: proof race-free
