// A loop with a uniform bound that each thread leaves early through a
// data-dependent break: the threads run it a different number of times, so
// the whole loop is divergent. The value the loop hands out (where it broke)
// varies too, so the if on it is divergent; the code right after the loop
// runs once in every thread.
// AUCS-EXPECT: divergent 14 22
// AUCS-EXPECT: uniform 20

__global__ void find_key(int *pos, int *seen, const int *keys, int key, int n) {
  unsigned tid = threadIdx.x;
  int found = -1;
  for (int i = 0; i < n; i++) {
    int k = keys[tid * n + i];
    seen[tid * n + i] = k;
    if (k == key) {
      found = i;
      break;
    }
  }
  pos[tid] = found;
  if (found >= 0)
    pos[blockDim.x + tid] = key;
}
// Detection: each thread writes its own row of seen and its own pos
// elements; no barrier. One block (the indices ignore blockIdx).
// AUCS-LAUNCH: --grid 1 --block 64 --arg key=7 --arg n=8
// AUCS-EXPECT: clean
// Static (aucs detect --static, same launch): pos, seen and keys are
// distinct buffers; at -O2 the rotated loop's exit test (i + 1 == n) bounds
// i below n. Every pair is proven at both levels.
// AUCS-EXPECT-STATIC: proof race-free
