// Atomics: the value an atomic returns differs from thread to thread, so a
// branch on it diverges. The last-block idiom broadcasts thread 0's ticket
// through shared memory after a barrier; every thread then reads the same
// flag, so the branch on the flag is uniform.
// AUCS-EXPECT: divergent 15 24
// AUCS-EXPECT: uniform 17 19 20

__device__ unsigned retired;

__global__ void last_block(float *out, const float *part, unsigned *slots) {
  __shared__ bool is_last;
  unsigned tid = threadIdx.x;
  if (tid == 0) {
    unsigned ticket = atomicAdd(&retired, 1u);
    is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last) {
    out[tid] = part[tid] + part[tid + blockDim.x];
    __syncthreads();
  }
  unsigned slot = atomicAdd(slots, 1u);
  if (slot < blockDim.x)
    out[blockDim.x + slot] = part[tid];
}
// Detection, two blocks: the barrier at line 17 orders thread 0's store of
// is_last before the other threads' loads. The last block (retired is a
// zero-initialised __device__ variable, so block 1 gets the last ticket)
// passes the barrier at line 20, which orders nothing: out[tid] and
// out[blockDim.x + slot] never overlap. Tickets and slots are atomics.
// AUCS-LAUNCH: --grid 2 --block 64
// AUCS-EXPECT: redundant-barrier 20
// Static (aucs detect --static, same launch): slot (an atomic's result)
// and is_last (a loaded flag) are fresh values, so the solver lets two
// blocks both be last and two threads draw one slot: those pairs stay sat.
// AUCS-EXPECT-STATIC: proof partial
