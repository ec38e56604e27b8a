// In-place shift left in global memory within one block: thread t reads
// a[t + 1] and writes a[t], while thread t + 1 writes a[t + 1] in the same
// barrier interval. Expected: a race between the load and the store.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 10 11
// AUCS-EXPECT: race 10 11

__global__ void shift_left(int *a) {
  unsigned t = threadIdx.x;
  int v = a[t + 1];
  a[t] = v;
}
// Static (aucs detect --static, same launch): the load of a[t + 1] races
// with thread t + 1's store; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 10 11
