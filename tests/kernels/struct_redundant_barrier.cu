// Tensors passed as structs by value: each thread stages its element of
// `in` in a shared tile, waits, and reads back its own slot. The barrier
// orders nothing (no thread reads another's slot), and the static checker
// proves it: the struct fields (sizes, pointers) are one value for every
// thread, and the two tensors' pointers distinct buffers. The proven
// redundant barrier is a finding; `aucs fix` deletes it (e2e/fix_struct).
// AUCS-EXPECT: uniform 22 23 24 26
// AUCS-EXPECT: divergent 25 28
// AUCS-EXPECT: redundant-barrier 26
// AUCS-EXPECT-STATIC: proof race-free
// AUCS-EXPECT-STATIC: proven-redundant 26

struct Tensor {
  float *data;
  int rows, cols;
};

__global__ void scale_staged(struct Tensor out, struct Tensor in, float k) {
  __shared__ float tile[1024];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  unsigned n = (unsigned)(in.rows * in.cols);
  tile[tid] = 0.0f;
  if (i < n)
    tile[tid] = in.data[i];
  __syncthreads();
  if (i < n)
    out.data[i] = k * tile[tid];
}
