// A struct-parameter kernel whose blocks find their slice through a table
// the kernel only reads (a box list: `first = boxes[blockIdx.x].offset`).
// Every thread of a block reads the same offset, so out[first + tid] is a
// different element per thread: race-free, and the static checker proves
// it (a load of an object no thread writes is one function of its address
// for both threads). The barrier is needed: each thread reads its
// neighbour's staged slot.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 24 25 27
// AUCS-EXPECT: clean
// AUCS-EXPECT-STATIC: proof race-free

struct Box {
  int first, count;
};
struct Params {
  const Box *boxes;
  int n;
};

__global__ void per_box(Params p, const float *in, float *out) {
  __shared__ float tile[64];
  unsigned tid = threadIdx.x;
  int first = p.boxes[blockIdx.x].first;
  tile[tid % 64] = in[first + tid];
  __syncthreads();
  out[first + tid] = tile[(tid + 1) % 64] * p.n;
}
