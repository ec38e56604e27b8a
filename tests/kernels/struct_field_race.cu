// A tensor passed by value whose stride's sign selects the layout: a
// negative stride is a reversed view, where each thread reads the element
// another thread stored, with no barrier between: a race. The input search
// never picks a negative integer, so the race shows only when the user sets
// the field (`--arg t.stride=-1`; tests/e2e/inputs.test shows the run
// without it is clean). The pointer field points to a buffer of its own.
// At -O2 clang keeps only line tables for device code: fields are named by
// position (stride is t.f2).
// AUCS-LAUNCH-O0: --grid 1 --block 64 --arg t.stride=-1
// AUCS-LAUNCH-O2: --grid 1 --block 64 --arg t.f2=-1
// AUCS-EXPECT: uniform 23 24
// AUCS-EXPECT: race 23 25

struct Tensor {
  float *ptr;
  int dims[2];
  int stride;
};

__global__ void reverse_view(struct Tensor t, float *out) {
  __shared__ float tile[64];
  unsigned tid = threadIdx.x;
  tile[tid] = t.ptr[tid];
  if (t.stride < 0)
    out[tid] = tile[63 - tid];
  else
    out[tid] = tile[tid];
}
