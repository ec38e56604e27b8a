// Two phases of one cooperative launch: every thread writes its element,
// the grid syncs (cooperative groups' this_grid().sync()), then every
// thread reads its right neighbour's element, which another block wrote
// for the last thread of a block. The grid barrier orders the phases, so
// there is no inter-block race; without it there is one
// (tests/e2e/grid_sync.test). The launch must be cooperative.
// AUCS-LAUNCH: --grid 4 --block 64 --arg n=256
namespace cg = cooperative_groups;

__global__ void two_phase(int *a, int *b, int n) {
  cg::grid_group grid = cg::this_grid();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 3 * i;
  grid.sync();
  b[i] = a[(i + 1) % n];
}

// AUCS-EXPECT: uniform 12 13 15
// AUCS-EXPECT: clean
