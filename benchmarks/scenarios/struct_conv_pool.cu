// Scenario: one stage of a 1-D signal pipeline of the kind audio and
// sensor libraries ship: a windowed FIR convolution over a shared-memory
// tile with halos, a rectifier with a soft knee (logf/expf), then a max
// pool of the tile's results, onset flags (a threshold crossing with a
// hold-off) and a per-block energy written for the host.
// Its inputs are structs passed by value: the input and output signals
// (pointer, length, channel stride), the filter (pointer to the taps, their
// count, a gain) and the stage's settings. The work is split into
// __device__ helpers (clamped loads, the halo fill, the dot product of the
// taps, the window, the rectifier, a block reduction).
//
// Bug: the kernel opens with `if (gid >= in.len) return;`, the commonest
// guard in CUDA. With the length not a multiple of the block, the threads
// past the end have returned while the others wait at the barrier after
// the tile's fill (line 215), at the pool's (line 221) and at the
// reduction's: barrier divergence. Those barriers are needed (every
// thread reads the tile the others filled), so aucs keeps the returning
// threads in: the return becomes a flag and the code after it runs under
// it, and the barriers stay where they are.
// BUG: barrier-divergence after a guard return before a tiled convolution, struct parameters, helpers
// EXPECT: fixed
// LAUNCH: --grid 2 --block 64 --arg in.len=100 --arg in.stride=1 --arg out.len=100 --arg out.stride=1 --arg pooled.len=50 --arg pooled.stride=1 --arg flags.len=100 --arg flags.stride=1 --arg fir.ntaps=5 --arg fir.gain=0.5 --arg st.knee=0.25 --arg st.floor=0.001 --arg st.pool=2 --arg st.window=1

#define BLOCK 64
#define MAX_HALO 8
#define MAX_TAPS (2 * MAX_HALO + 1)

extern "C" __device__ float expf(float);
extern "C" __device__ float logf(float);
extern "C" __device__ float cosf(float);
extern "C" __device__ float fabsf(float);
extern "C" __device__ float fmaxf(float, float);

// A strided signal: sample k is data[k * stride].
struct Signal {
  const float *data;
  int len;
  int stride;
};

struct OutSignal {
  float *data;
  int len;
  int stride;
};

// An odd-length FIR filter centred on its middle tap.
struct Fir {
  const float *taps;
  int ntaps;
  float gain;
};

// The stage's settings.
struct Stage {
  float knee;  // width of the rectifier's soft knee
  float floor; // smallest energy reported
  int pool;    // max-pool width (1, 2 or 4)
  int window;  // 0: rectangular, 1: Hann taper on the taps
};

// The filter's half width, bounded by the halo the tile holds.
__device__ int half_width(Fir f) {
  int h = f.ntaps / 2;
  return h > MAX_HALO ? MAX_HALO : h;
}

// Sample k of the signal, clamped to its ends (edge replication).
__device__ float sample_clamped(Signal s, int k) {
  if (k < 0)
    k = 0;
  if (k >= s.len)
    k = s.len - 1;
  return s.data[k * s.stride];
}

// The tile: BLOCK samples from base, with h samples of halo on each side;
// tile[MAX_HALO + i] holds sample base + i.
__device__ void fill_tile(float *tile, Signal s, int base, int h) {
  int t = threadIdx.x;
  tile[MAX_HALO + t] = sample_clamped(s, base + t);
  if (t < h) {
    tile[MAX_HALO - h + t] = sample_clamped(s, base - h + t);
    tile[MAX_HALO + BLOCK + t] = sample_clamped(s, base + BLOCK + t);
  }
}

// The Hann weight of tap j of n.
__device__ float hann(int j, int n) {
  if (n <= 1)
    return 1.0f;
  const float two_pi = 6.283185307f;
  return 0.5f - 0.5f * cosf(two_pi * (float)j / (float)(n - 1));
}

// Tap j, tapered when the stage asks for it.
__device__ float tap(Fir f, Stage st, int j) {
  float w = f.taps[j];
  if (st.window == 1)
    w *= hann(j, f.ntaps);
  return w;
}

// The filter's output at tile position centre.
__device__ float convolve(const float *tile, int centre, Fir f, Stage st) {
  int h = half_width(f);
  float acc = 0.0f;
  for (int j = -h; j <= h; j++)
    acc += tap(f, st, j + h) * tile[MAX_HALO + centre + j];
  return acc * f.gain;
}

// A rectifier with a soft knee: smooth near 0, linear above the knee.
__device__ float soft_relu(float v, float knee) {
  if (knee <= 0.0f)
    return v > 0.0f ? v : 0.0f;
  if (v > 8.0f * knee)
    return v;
  return knee * logf(1.0f + expf(v / knee));
}

// The largest of the `pool` values of res starting at i.
__device__ float pool_max(const float *res, int i, int pool) {
  float m = res[i];
  for (int k = 1; k < pool; k++)
    m = fmaxf(m, res[i + k]);
  return m;
}

// The sum of v over the block, in red[0]; every thread must call it.
__device__ float block_sum(float *red, float v) {
  unsigned t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    __syncthreads();
  }
  return red[0];
}

// Output sample k, when the output holds it.
__device__ void put(OutSignal o, int k, float v) {
  if (k < o.len)
    o.data[k * o.stride] = v;
}

// The pool width the stage may use: 1, 2 or 4, dividing the block.
__device__ int pool_width(Stage st) {
  if (st.pool >= 4)
    return 4;
  if (st.pool >= 2)
    return 2;
  return 1;
}

// The block's energy, floored, one slot per block.
__device__ void put_energy(float *energy, float e, Stage st) {
  if (threadIdx.x == 0)
    energy[blockIdx.x] = fmaxf(e, st.floor);
}

// Onset detection on the filtered tile: a sample is an onset when it rises
// above the knee-scaled threshold and its left neighbour does not.
struct Onset {
  float threshold; // relative to the stage's knee
  int hold;        // samples an onset suppresses after it
};

__device__ Onset make_onset(Stage st) {
  Onset o;
  o.threshold = st.knee > 0.0f ? 4.0f * st.knee : 1.0f;
  o.hold = st.pool;
  return o;
}

// 1 when res[t] crosses the threshold upwards (the first sample of the
// tile compares with nothing and is no onset).
__device__ int is_onset(const float *res, int t, Onset o) {
  if (t == 0)
    return 0;
  return res[t] > o.threshold && res[t - 1] <= o.threshold;
}

// An onset counts when none of the `hold` samples before it was one.
__device__ int held(const float *res, int t, Onset o) {
  for (int k = 1; k <= o.hold && t - k >= 0; k++)
    if (is_onset(res, t - k, o))
      return 0;
  return 1;
}

// The onset flag of sample gid: 1.0 onset, 0.0 none.
__device__ void put_onset(OutSignal flags, int gid, const float *res, int t,
                          Onset o) {
  float f = is_onset(res, t, o) && held(res, t, o) ? 1.0f : 0.0f;
  put(flags, gid, f);
}

__global__ void conv_pool(OutSignal out, OutSignal pooled, OutSignal flags,
                          Signal in, Fir fir, Stage st, float *energy) {
  __shared__ float tile[BLOCK + 2 * MAX_HALO];
  __shared__ float res[BLOCK];
  __shared__ float red[BLOCK];
  int t = threadIdx.x;
  int base = blockIdx.x * BLOCK;
  int gid = base + t;
  if (gid >= in.len)
    return;

  // 1. The tile with its halos, then wait for the whole tile.
  int h = half_width(fir);
  fill_tile(tile, in, base, h);
  __syncthreads();

  // 2. Filter and rectify this thread's sample.
  float y = soft_relu(convolve(tile, t, fir, st), st.knee);
  put(out, gid, y);
  res[t] = y;
  __syncthreads();

  // 3. Max pool: the first thread of each group reads its neighbours.
  int pool = pool_width(st);
  if (t % pool == 0)
    put(pooled, gid / pool, pool_max(res, t, pool));

  // 4. Onsets, from the same tile of results.
  put_onset(flags, gid, res, t, make_onset(st));

  // 5. The block's energy for the host's gain control.
  float e = block_sum(red, y * y);
  put_energy(energy, e, st);
}
