// Race-free hand-off between blocks through a flag polled with
// atomicAdd(flag, 0): block 1 stores its value, fences and raises the flag
// with atomicExch; block 0 polls until it reads 1, fences, and reads the
// value. Each poll leaves the flag unchanged, so the interpreter must let
// block 1 run rather than count the polls as progress. Expected: clean.
// AUCS-LAUNCH: --grid 2 --block 32 --fill zero
// AUCS-EXPECT: divergent 16 20
// AUCS-EXPECT: clean

__global__ void poll_handoff(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    while (atomicAdd(flag, 0) != 1)
      ;
    __threadfence();
    out[0] = data[0];
  } else {
    data[0] = 7;
    __threadfence();
    atomicExch(flag, 1);
  }
}
