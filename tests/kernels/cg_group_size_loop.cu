// A loop over a cooperative group's size(), with the group kept as a
// type-erased thread_group: its type and size are bit-fields of one word
// whose other bits hold the thread's place in the block (a per-tile rank),
// next to a per-thread mask. size() reads only the size bits, which no
// thread-dependent value reaches, so the loop runs 16 times in every
// thread: its blocks are uniform (a barrier may go there). thread_rank()
// differs by thread: the `if` on it is divergent. Race-free: each thread
// reads its own tile's slice of buf, written before block.sync().
// AUCS-REQUIRES: cuda-sdk
// AUCS-LAUNCH: --grid 2 --block 64
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_rotate(int *out, int *firsts, const int *in) {
  __shared__ int buf[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition<16>(block);
  unsigned me = tile.thread_rank();
  unsigned first = block.thread_rank() - me;
  buf[block.thread_rank()] = in[blockIdx.x * blockDim.x + threadIdx.x];
  block.sync();
  int acc = 0;
  for (unsigned k = 0; k < tile.size(); k++)
    acc += buf[first + (me + k) % tile.size()];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  if (me == 0)
    firsts[blockIdx.x * (blockDim.x / 16) + first / 16] = acc;
}

// AUCS-EXPECT-O0: uniform 23 24 25
// AUCS-EXPECT-O2: uniform 25
// AUCS-EXPECT: divergent 27
// AUCS-EXPECT: clean
