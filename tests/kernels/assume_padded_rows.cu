// Doubles a matrix stored in padded rows and clears the padding. The
// host pads every row by 8 elements and passes the sizes in a struct; the
// kernel states the relation between its fields, pitch == cols + 8, which
// searched field values never meet (the solver chooses them: docs/inputs.md,
// "Solved inputs"). Each thread touches one element of its block's row:
// race-free.
struct rows {
  float *base;
  int cols;
  int pitch;
};

__global__ void pad_rows(rows r) {
  __builtin_assume(r.pitch == r.cols + 8);
  unsigned t = threadIdx.x;
  float *p = r.base + blockIdx.x * r.pitch;
  if (t < r.cols)
    p[t] = 2.0f * p[t];
  else if (t < r.pitch)
    p[t] = 0.0f;
}

// AUCS-EXPECT: uniform 15 16
// AUCS-EXPECT: clean
