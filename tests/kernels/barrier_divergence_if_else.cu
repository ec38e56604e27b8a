// Barrier divergence, threads at different barriers: even and odd threads
// each take their own arm of an if/else, and each arm has its own
// __syncthreads(). These are two different barriers; since Volta the
// threads do not meet (undefined behaviour). Expected: a barrier divergence
// naming both barriers.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: divergent 15 16 18 19
// AUCS-EXPECT: uniform 21
// AUCS-EXPECT: barrier-divergence 16 19

__global__ void parity_sync(float *out, const float *in) {
  __shared__ float s[64];
  unsigned tid = threadIdx.x;
  if (tid % 2 == 0) {
    s[tid] = in[tid];
    __syncthreads();
  } else {
    s[tid] = -in[tid];
    __syncthreads();
  }
  out[tid] = s[tid ^ 1];
}
// Static (aucs detect --static, same launch): the barriers are in divergent
// blocks, so they separate nothing statically; the witnesses replay.
// The races a divergent barrier leaves: a release of threads that wait at
// different barriers orders nothing, so each thread's store and its
// neighbour's load after the if/else still meet.
// AUCS-EXPECT: race 15 21
// AUCS-EXPECT: race 18 21
// AUCS-EXPECT-STATIC: proof partial
// AUCS-EXPECT-STATIC: confirmed 15 21
// AUCS-EXPECT-STATIC: confirmed 18 21
