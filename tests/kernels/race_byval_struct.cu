// A kernel taking an aggregate by value (a struct of coefficients) with a
// missing barrier: each thread scales its input into a shared tile and
// immediately reads its right neighbour's element. The struct's contents
// are arbitrary: the race does not depend on them. Expected: a race between
// the tile store and the neighbour load.
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 18 19
// AUCS-EXPECT: race 18 19

struct coef {
  float a, b;
  int shift;
};

__global__ void smooth_byval(float *out, const float *in, struct coef c) {
  __shared__ float tile[65];
  unsigned tid = threadIdx.x;
  tile[tid] = c.a * in[tid];
  out[tid] = c.b * (tile[tid] + tile[tid + 1]);
}
// Static (aucs detect --static, same launch): the store and the neighbour
// load race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 18 19
