// Race-free kernel on tensors passed by value, checked with the input
// search alone (no launch given): each thread scales its own element of
// `in` into its own element of `out`, bounded by the sizes in the struct
// (integer fields the search chooses). The pointer fields get buffers of
// their own, so no access goes through an invalid pointer and the two
// tensors never overlap. Expected: clean.
// AUCS-EXPECT: uniform 21
// AUCS-EXPECT: divergent 23
// AUCS-EXPECT: clean

struct Dims {
  int rows, cols;
};

struct Tensor {
  float *ptr;
  struct Dims d;
};

__global__ void scale_tensor(struct Tensor out, struct Tensor in, float a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (unsigned)(in.d.rows * in.d.cols) && i < (unsigned)out.d.rows)
    out.ptr[i] = a * in.ptr[i];
}
