// Redundant barrier between two phases that only read a shared table: the
// first barrier orders the table's initialisation before every read and is
// needed; the second separates reads from reads, which never conflict.
// Expected: a redundant barrier for the second one only.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 12 13 14 15 16
// AUCS-EXPECT: redundant-barrier 15

__global__ void two_lookups(int *out, const int *table, const int *keys) {
  __shared__ int s_table[64];
  unsigned tid = threadIdx.x;
  s_table[tid] = table[tid];
  __syncthreads();
  out[tid] = s_table[(tid + 1) % 64];
  __syncthreads();
  out[64 + tid] = s_table[(tid + 7) % 64];
}
// Static (aucs detect --static, same launch): every access to out follows
// the table reads of the same interval or is disjoint: proved for this
// launch.
// AUCS-EXPECT-STATIC: proof race-free
