// A block reduction written once for any cooperative group and used twice:
// over the whole block, then over each tile of 16 threads (its own slice
// of the scratch array). g.size() and the loop's trip count are the same
// for every thread of the block in both uses (the group object's type and
// size fields are uniform, its rank and mask fields are not).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int group_sum(cg::thread_group g, int *part, int v) {
  unsigned me = g.thread_rank();
  for (unsigned half = g.size() / 2; half > 0; half /= 2) {
    part[me] = v;
    g.sync();
    if (me < half)
      v += part[me + half];
    g.sync();
  }
  return me == 0 ? v : 0;
}

__global__ void sums(int *block_sum, int *tile_sum, const int *in) {
  __shared__ int scratch[256];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = block.thread_rank();
  int x = in[blockIdx.x * blockDim.x + t];
  int all = group_sum(block, scratch, x);
  if (t == 0)
    block_sum[blockIdx.x] = all;
  block.sync();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  unsigned first = t - tile.thread_rank();
  int mine = group_sum(tile, scratch + first, 2 * x);
  if (tile.thread_rank() == 0)
    tile_sum[blockIdx.x * (blockDim.x / 16) + t / 16] = mine;
}
