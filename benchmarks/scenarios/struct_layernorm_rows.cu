// Scenario: a fused row kernel of an inference library: layer normalisation
// of each row of a matrix, then a gated activation and a residual add, one
// thread block per row. Its inputs come the way shipping code passes them:
// tensors as structs by value (a pointer with its shape and leading
// dimension), the layer's settings in another struct, and the per-column
// weights in a third. The work is split into __device__ helpers (a strided
// row load, two block reductions sharing one scratch array, the activation
// through expf/tanhf, a clamp, a quantisation step) and guarded by the
// usual early return of a row past the end (uniform: the row is the block's).
//
// Bug: thread 0 turns the block sums into the row's mean and inverse
// standard deviation in shared memory (s_stat) and every thread reads them
// at once, with no barrier between: a data race on s_stat between the
// write at line 234 and the reads at lines 239-240 (the same shape as the
// missing barrier after a `if (tid == 0)` broadcast in real normalisation
// kernels). The fix is one __syncthreads() between the two.
// BUG: race (shared) between the broadcast of the row statistics and their use, struct parameters, helpers
// EXPECT: fixed
// LAUNCH: --grid 2 --block 64 --arg x.rows=2 --arg x.cols=96 --arg x.ld=96 --arg y.rows=2 --arg y.cols=96 --arg y.ld=96 --arg cfg.eps=0.00001 --arg cfg.alpha=1.0 --arg cfg.clip=6.0 --arg cfg.qscale=0.0 --arg cfg.act=1 --arg cfg.residual=1 --arg w.cols=96

#define BLOCK 64
#define MAX_PER_THREAD 4

extern "C" __device__ float expf(float);
extern "C" __device__ float tanhf(float);
extern "C" __device__ float sqrtf(float);
extern "C" __device__ float fabsf(float);
extern "C" __device__ float fminf(float, float);
extern "C" __device__ float fmaxf(float, float);
extern "C" __device__ float rintf(float);

// A row-major matrix view: element (r, c) is data[r * ld + c].
struct Tensor2D {
  float *data;
  int rows;
  int cols;
  int ld;
};

// The same, read only.
struct ConstTensor2D {
  const float *data;
  int rows;
  int cols;
  int ld;
};

// Per-column affine weights of the normalisation.
struct Affine {
  const float *gamma;
  const float *beta;
  int cols;
};

// The layer's settings.
struct LayerCfg {
  float eps;     // variance floor
  float alpha;   // slope of the activation's linear part
  float clip;    // output clamp, 0: none
  float qscale;  // quantisation step, 0: none
  int act;       // 0: identity, 1: GELU (tanh form), 2: SiLU
  int residual;  // add the input row back
};

// Per-thread partial results of one row.
struct RowPart {
  float sum;
  float sumsq;
  int count;
};

__device__ RowPart empty_part() {
  RowPart p;
  p.sum = 0.0f;
  p.sumsq = 0.0f;
  p.count = 0;
  return p;
}

__device__ RowPart add_value(RowPart p, float v) {
  p.sum += v;
  p.sumsq += v * v;
  p.count += 1;
  return p;
}

// The element of row r and column c, 0 past the row's end.
__device__ float load_or_zero(ConstTensor2D t, int r, int c) {
  if (c >= t.cols)
    return 0.0f;
  return t.data[r * t.ld + c];
}

// This thread's columns of row r (tid, tid + BLOCK, ...) into vals; their
// partial sums.
__device__ RowPart load_row(ConstTensor2D x, int r, float *vals) {
  RowPart p = empty_part();
  for (int k = 0; k < MAX_PER_THREAD; k++) {
    int c = threadIdx.x + k * BLOCK;
    float v = load_or_zero(x, r, c);
    vals[k] = v;
    if (c < x.cols)
      p = add_value(p, v);
  }
  return p;
}

// The sum of v over the block, returned to every thread; red holds BLOCK
// floats and every thread of the block must call it.
__device__ float block_sum(float *red, float v) {
  unsigned t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    __syncthreads();
  }
  float total = red[0];
  __syncthreads(); // red is reused by the next reduction
  return total;
}

// The largest |v| over the block, by the same tree.
__device__ float block_absmax(float *red, float v) {
  unsigned t = threadIdx.x;
  red[t] = fabsf(v);
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] = fmaxf(red[t], red[t + s]);
    __syncthreads();
  }
  float m = red[0];
  __syncthreads();
  return m;
}

// GELU, tanh approximation.
__device__ float gelu(float v) {
  const float k0 = 0.7978845608f; // sqrt(2 / pi)
  const float k1 = 0.044715f;
  float inner = k0 * (v + k1 * v * v * v);
  return 0.5f * v * (1.0f + tanhf(inner));
}

// SiLU: v * sigmoid(v), with the exponent bounded.
__device__ float silu(float v) {
  float e = v < -30.0f ? 30.0f : -v;
  return v / (1.0f + expf(e));
}

__device__ float activate(float v, const LayerCfg &cfg) {
  switch (cfg.act) {
  case 1:
    return gelu(v);
  case 2:
    return silu(v);
  default:
    return cfg.alpha * v;
  }
}

__device__ float clamp_abs(float v, float clip) {
  if (clip <= 0.0f)
    return v;
  return fminf(fmaxf(v, -clip), clip);
}

// Round v to a multiple of step (symmetric quantisation), 0: unchanged.
__device__ float quantise(float v, float step) {
  if (step <= 0.0f)
    return v;
  return rintf(v / step) * step;
}

// gamma * v + beta for column c (identity past the weights' end).
__device__ float affine(Affine w, int c, float v) {
  if (c >= w.cols)
    return v;
  return w.gamma[c] * v + w.beta[c];
}

// The finished value of column c of the row: normalised, scaled, activated,
// with the residual, clamped and quantised.
__device__ float finish(float v, float mean, float rstd, int c, Affine w,
                        const LayerCfg &cfg) {
  float n = (v - mean) * rstd;
  float a = activate(affine(w, c, n), cfg);
  if (cfg.residual)
    a += v;
  return quantise(clamp_abs(a, cfg.clip), cfg.qscale);
}

// Write this thread's columns of row r.
__device__ void store_row(Tensor2D y, int r, const float *out) {
  for (int k = 0; k < MAX_PER_THREAD; k++) {
    int c = threadIdx.x + k * BLOCK;
    if (c < y.cols)
      y.data[r * y.ld + c] = out[k];
  }
}

// Per-row diagnostics: the row's largest finished magnitude, one slot per
// row, written by thread 0.
__device__ void record_peak(float *peaks, int r, float peak) {
  if (threadIdx.x == 0)
    peaks[r] = peak;
}

__global__ void layernorm_rows(Tensor2D y, ConstTensor2D x, Affine w,
                               LayerCfg cfg, float *peaks) {
  __shared__ float red[BLOCK];
  __shared__ float s_stat[2]; // the row's mean and 1 / stddev
  int row = blockIdx.x;
  if (row >= x.rows || row >= y.rows)
    return; // the whole block: uniform

  // 1. This thread's columns, and the row's sums over the block.
  float vals[MAX_PER_THREAD];
  RowPart part = load_row(x, row, vals);
  float sum = block_sum(red, part.sum);
  float sumsq = block_sum(red, part.sumsq);

  // 2. Thread 0 makes the statistics; everyone reads them.
  if (threadIdx.x == 0) {
    float mean = sum / (float)x.cols;
    float var = sumsq / (float)x.cols - mean * mean;
    s_stat[0] = mean;
    s_stat[1] = 1.0f / sqrtf(fmaxf(var, 0.0f) + cfg.eps);
  }
  // (missing: __syncthreads();)

  float mean = s_stat[0];
  float rstd = s_stat[1];

  // 3. Finish the columns and store them.
  float out[MAX_PER_THREAD];
  float peak = 0.0f;
  for (int k = 0; k < MAX_PER_THREAD; k++) {
    int c = threadIdx.x + k * BLOCK;
    out[k] = c < x.cols ? finish(vals[k], mean, rstd, c, w, cfg) : 0.0f;
    peak = fmaxf(peak, fabsf(out[k]));
  }
  store_row(y, row, out);

  // 4. The row's peak for the host's overflow check.
  float rowpeak = block_absmax(red, peak);
  record_peak(peaks, row, rowpeak);
}
