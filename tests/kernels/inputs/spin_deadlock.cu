// A spin that never ends: every block waits for a flag that nobody sets.
// The interpreter must report the deadlock (the run ends with an error
// naming the spin) instead of hanging. Expected: no finding (the run error
// is the report).




__global__ void wait_forever(volatile int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (*flag != 12345)
      ;
    out[blockIdx.x] = 1;
  }
}
