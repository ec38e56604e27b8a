// volatile is not synchronization: a warp exchanges values through a
// volatile shared array, each lane reading its partner's slot right after
// writing its own. volatile stops the compiler from caching the value but
// orders nothing between threads. Expected: a race between the volatile
// store and the volatile load.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: uniform 14 15
// AUCS-EXPECT: race 14 15

__global__ void volatile_swap(int *out, const int *in) {
  __shared__ int s[32];
  volatile int *vs = s;
  unsigned lane = threadIdx.x;
  vs[lane] = in[lane];
  out[lane] = vs[lane ^ 1];
}
// Static (aucs detect --static, same launch): the volatile store and load
// race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 14 15
