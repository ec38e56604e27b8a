// Template kernels and a class template passed by value, named as the
// source names them (tests/e2e/names.test). CParam<T> has a host-only
// constructor: with clang's default debug info its type is only declared
// (so its fields would be positional); aucs compiles with
// -fstandalone-debug.
namespace cuda {
template <typename T> struct Param {
  T *ptr;
  int dims[4];
};

template <typename T> struct CParam {
  const T *ptr;
  int dims[4];
  int strides[4];
  __host__ CParam(const Param<T> &p) : ptr(p.ptr) {
    for (int i = 0; i < 4; i++) {
      dims[i] = p.dims[i];
      strides[i] = 1;
    }
  }
};

namespace kernel {
// Each thread stores its slot, then reads its neighbour's with no barrier
// between: a race. Of the two structs it reads one field each; n and m
// not at all.
template <typename T, bool keep>
__global__ void hamming_matcher(T *out, const T *d, CParam<T> query,
                                CParam<T> train, unsigned n, unsigned m) {
  __shared__ T s[256];
  unsigned t = threadIdx.x;
  s[t] = d[t * query.strides[0]] ^ train.dims[1];
  if (keep)
    out[t] = s[(t + 1) % blockDim.x];
}

template __global__ void hamming_matcher<unsigned, true>(
    unsigned *, const unsigned *, CParam<unsigned>, CParam<unsigned>,
    unsigned, unsigned);
} // namespace kernel
} // namespace cuda

// Threads t and t + N share a slot: a race in blocks of more than N.
template <int N> __global__ void block_sum(float *out, const float *in) {
  __shared__ float s[N];
  unsigned t = threadIdx.x;
  s[t % N] = in[t];
  __syncthreads();
  if (t == 0) {
    float sum = 0;
    for (int i = 0; i < N; i++)
      sum += s[i];
    out[blockIdx.x] = sum;
  }
}

template __global__ void block_sum<128>(float *, const float *);
