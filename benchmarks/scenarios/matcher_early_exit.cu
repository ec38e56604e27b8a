// Scenario (arrayfire select_matches / hamming_matcher_unroll style): each
// thread scans tiles of the train set for its query and leaves the loop as
// soon as it finds a match; the barriers that protect the shared tile are
// then reached by some threads only. aucs uniformizes the loop (an early
// break clears `active`) and flattens its body, the inner search loop (two
// exits: found / not found) one node once its exits are merged. The race
// the deleted barriers leave is then put in the inner loop, which is
// uniformized too; its or-barrier orders the race, and detecting again
// confirms it.
// BUG: barrier-divergence after an early break in the matcher loop
// EXPECT: fixed
// LAUNCH: --grid 1 --block 64 --arg ntrain=256 --fill small
__global__ void match(int *best, const unsigned *query, const unsigned *train,
                      int ntrain) {
  __shared__ unsigned tile[64];
  unsigned t = threadIdx.x;
  unsigned q = query[t] + (t % 2) * 100; // odd threads never match
  int found = -1;
  for (int j = 0; j < ntrain; j += 64) {
    tile[t] = train[j + t];
    __syncthreads();
    int hit = -1;
    for (int k = 0; k < 64; k++)
      if (tile[k] == q) {
        hit = j + k;
        break;
      }
    if (hit >= 0) {
      found = hit;
      break;
    }
    __syncthreads();
  }
  best[t] = found;
}
