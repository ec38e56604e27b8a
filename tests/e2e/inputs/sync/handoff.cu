// Block 1 publishes a value through a flag that block 0 spins on. The
// flag's atomics are relaxed and neither side fences (missing-fence).
__global__ void handoff(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    while (atomicAdd(flag, 0) != 1)
      ;
    out[0] = data[0];
  } else {
    data[0] = 7;
    atomicExch(flag, 1);
  }
}
