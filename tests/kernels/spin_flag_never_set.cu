// Every block polls a flag with atomicAdd(flag, 0) until it reads 1, but no
// thread ever sets it: the launch deadlocks. The polls leave the flag as it
// was, so they are no progress: the interpreter reports the deadlock at the
// poll. The flag starts at 0 (--fill zero).
// AUCS-LAUNCH: --grid 2 --block 32 --fill zero
// AUCS-EXPECT: divergent 13
// AUCS-EXPECT: deadlock 11

__global__ void poll_forever(int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) != 1)
      ;
    out[blockIdx.x] = 1;
  }
}
