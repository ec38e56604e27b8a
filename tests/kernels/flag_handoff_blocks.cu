// Fence-and-flag hand-off between blocks: block 0 spins until block 1 has
// published its value (store, __threadfence(), volatile flag), then fences
// and reads it. Block 0 runs first and spins, so the interpreter must let
// block 1 run while block 0 waits. Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 32
// AUCS-EXPECT: uniform 10
// AUCS-EXPECT: clean

__global__ void handoff_blocks(int *data, volatile int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    while (*flag != 1)
      ;
    __threadfence();
    out[0] = data[0];
  } else {
    data[0] = 7;
    __threadfence();
    *flag = 1;
  }
}
