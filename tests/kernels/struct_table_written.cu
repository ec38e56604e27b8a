// As struct_readonly_table.cu, but thread 0 also counts the visit in the
// box table (another field of the entry the block reads). The table is written in the
// kernel, so a load of it is no longer one value for both threads of a
// query: the static checker must not claim the out[first + tid] stores
// race-free (they are, as the runs show: no finding).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 22 23
// AUCS-EXPECT: divergent 25
// AUCS-EXPECT: clean
// AUCS-EXPECT-STATIC: proof partial

struct Box {
  int first, count;
};
struct Params {
  Box *boxes;
  int n;
};

__global__ void per_box_count(Params p, const float *in, float *out) {
  unsigned tid = threadIdx.x;
  int first = p.boxes[blockIdx.x].first;
  out[first + tid] = in[first + tid] * p.n;
  if (tid == 0)
    p.boxes[blockIdx.x].count += 1;
}
