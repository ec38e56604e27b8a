// Scenario: a separable blur with a gain curve over one tile of an image,
// the shape of an image-processing library kernel: the image's geometry
// comes in a struct passed by value (ImageView: width, height, pitch), the
// filter in another (Filter: radius, gain, bias, clamp bounds), and the work is split into
// __device__ helpers (clamped pixel fetch, the halo fill, the two 1-D
// passes, the tone curve). Each block fills a shared tile with a halo of
// `radius` pixels, blurs it along x into a second tile, then along y.
// The barrier between the halo fill and the horizontal pass is missing:
// a thread reads its neighbours' tile pixels (and the halo the edge threads
// fetched) before they are written: a race on shared memory. aucs puts the
// barrier back between the fill and the pass, in the kernel (the accesses
// are in helpers: their calls are inlined into the kernel first).
// BUG: race (shared) between the halo fill and the horizontal pass, struct parameters, helpers
// EXPECT: fixed
// LAUNCH: --grid 2,2 --block 16,8 --arg img.width=32 --arg img.height=16 --arg img.pitch=32 --arg f.radius=2 --arg f.gain=1.5 --arg f.bias=0.1 --arg f.lo=0.0 --arg f.hi=4.0

#define TW 16
#define TH 8
#define MAXR 4

struct ImageView {
  int width, height, pitch; // of a row-major image, pitch floats a row
};

struct Filter {
  int radius;   // box radius, at most MAXR
  float gain;   // tone curve: gain * x + bias, clamped to [lo, hi]
  float bias;
  float lo, hi;
};

// The pixel at (x, y), coordinates clamped to the image (edge repeat).
__device__ float fetch(const float *src, const ImageView img, int x, int y) {
  if (x < 0)
    x = 0;
  if (x >= img.width)
    x = img.width - 1;
  if (y < 0)
    y = 0;
  if (y >= img.height)
    y = img.height - 1;
  return src[y * img.pitch + x];
}

// Fill the tile and its halo: every thread its own pixel, the threads of
// the edge columns and rows also the halo pixels beyond them.
__device__ void fill_tile(float (*tile)[TW + 2 * MAXR], const float *src,
                          const ImageView img, int r, int x0, int y0) {
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty + MAXR][tx + MAXR] = fetch(src, img, x0 + tx, y0 + ty);
  if (tx < r) {
    tile[ty + MAXR][tx + MAXR - r] = fetch(src, img, x0 + tx - r, y0 + ty);
    tile[ty + MAXR][tx + MAXR + TW] = fetch(src, img, x0 + tx + TW, y0 + ty);
  }
  if (ty < r) {
    tile[ty + MAXR - r][tx + MAXR] = fetch(src, img, x0 + tx, y0 + ty - r);
    tile[ty + MAXR + TH][tx + MAXR] = fetch(src, img, x0 + tx, y0 + ty + TH);
  }
  if (tx < r && ty < r) { // the four corners
    int xl = tx + MAXR - r, xr = tx + MAXR + TW;
    int yu = ty + MAXR - r, yd = ty + MAXR + TH;
    tile[yu][xl] = fetch(src, img, x0 + tx - r, y0 + ty - r);
    tile[yu][xr] = fetch(src, img, x0 + tx + TW, y0 + ty - r);
    tile[yd][xl] = fetch(src, img, x0 + tx - r, y0 + ty + TH);
    tile[yd][xr] = fetch(src, img, x0 + tx + TW, y0 + ty + TH);
  }
}

// The mean of the 2r + 1 tile pixels of row ty + MAXR around column
// tx + MAXR.
__device__ float row_mean(float (*tile)[TW + 2 * MAXR], int r, int tx,
                          int ty) {
  float s = 0.0f;
  for (int d = -r; d <= r; d++)
    s += tile[ty + MAXR][tx + MAXR + d];
  return s / (float)(2 * r + 1);
}

// The same along a column of the horizontally blurred tile.
__device__ float col_mean(float (*h)[TW], int r, int tx, int ty) {
  float s = 0.0f;
  for (int d = -r; d <= r; d++)
    s += h[ty + MAXR + d][tx];
  return s / (float)(2 * r + 1);
}

// The tone curve, clamped.
__device__ float tone(float v, const Filter f) {
  float t = f.gain * v + f.bias;
  if (t < f.lo)
    t = f.lo;
  if (t > f.hi)
    t = f.hi;
  return t;
}

__global__ void blur_tone(float *out, const float *src, ImageView img,
                          Filter f) {
  __shared__ float tile[TH + 2 * MAXR][TW + 2 * MAXR];
  __shared__ float h[TH + 2 * MAXR][TW];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  int r = f.radius < MAXR ? f.radius : MAXR;

  fill_tile(tile, src, img, r, x0, y0);

  // Horizontal pass over the tile's rows and the halo rows above and
  // below it (the vertical pass needs them blurred too).
  h[ty + MAXR][tx] = row_mean(tile, r, tx, ty);
  if (ty < r) {
    int up = ty + MAXR - r, down = ty + MAXR + TH;
    float su = 0.0f, sd = 0.0f;
    for (int d = -r; d <= r; d++) {
      su += tile[up][tx + MAXR + d];
      sd += tile[down][tx + MAXR + d];
    }
    h[up][tx] = su / (float)(2 * r + 1);
    h[down][tx] = sd / (float)(2 * r + 1);
  }
  __syncthreads();

  // Vertical pass, tone curve, store inside the image only.
  float v = tone(col_mean(h, r, tx, ty), f);
  int x = x0 + tx, y = y0 + ty;
  if (x < img.width && y < img.height)
    out[y * img.width + x] = v;
}
