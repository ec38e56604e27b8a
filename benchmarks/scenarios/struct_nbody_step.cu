// Scenario: one time step of a tiled 2-D particle simulation, the shape of
// a real solver kernel: its parameters come in a struct passed by value
// (SimParams, nine fields), the work is split into __device__ helpers
// (minimum-image distance, a softened pair force, a velocity clamp, the
// integrator, a block reduction of the kinetic energy), and the body walks
// the particles in shared-memory tiles with a barrier after each fill and
// after each use. The kernel opens with the commonest guard in CUDA,
// `if (i >= p.n) return;`: with p.n not a multiple of the block size, the
// threads past the end have returned while the others wait at the tile
// loop's barriers and at the reduction's: barrier divergence. The barriers
// are needed (every thread reads the tile the others filled), so aucs
// keeps the returning threads in (the return becomes a flag, the code
// after it runs under it) and keeps the barriers where they are.
// BUG: barrier-divergence after a guard return, struct parameters, helpers
// EXPECT: fixed
// LAUNCH: --grid 2 --block 64 --arg p.n=100 --arg p.ntiles=2 --arg p.dt=0.01 --arg p.box=16.0 --arg p.cutoff2=4.0 --arg p.soft2=0.01 --arg p.vmax=8.0 --arg p.damping=0.99 --arg p.step=3

#define TILE 64

struct SimParams {
  int n;         // particles
  int ntiles;    // tiles of TILE particles the loop walks
  float dt;      // time step
  float box;     // periodic box edge
  float cutoff2; // squared interaction cutoff
  float soft2;   // squared softening length
  float vmax;    // speed limit
  float damping; // velocity damping per step
  int step;      // step number (selects the output slot)
};

struct Vec2 {
  float x, y;
};

__device__ Vec2 make_vec2(float x, float y) {
  Vec2 v;
  v.x = x;
  v.y = y;
  return v;
}

// The nearest image of d in a periodic box of edge box.
__device__ float minimum_image(float d, float box) {
  float half = 0.5f * box;
  if (d > half)
    d -= box;
  else if (d < -half)
    d += box;
  return d;
}

// Wrap a coordinate back into [0, box).
__device__ float wrap(float x, float box) {
  if (x >= box)
    x -= box;
  if (x < 0.0f)
    x += box;
  return x;
}

// A softened inverse-square force of the particle at b on the one at a,
// zero beyond the cutoff.
__device__ Vec2 pair_force(Vec2 a, Vec2 b, float box, float cutoff2,
                           float soft2) {
  float dx = minimum_image(b.x - a.x, box);
  float dy = minimum_image(b.y - a.y, box);
  float r2 = dx * dx + dy * dy;
  if (r2 > cutoff2)
    return make_vec2(0.0f, 0.0f);
  float inv = 1.0f / (r2 + soft2);
  float s = inv * inv;
  return make_vec2(dx * s, dy * s);
}

// Scale v down to the speed limit.
__device__ Vec2 clamp_speed(Vec2 v, float vmax) {
  float s2 = v.x * v.x + v.y * v.y;
  float m2 = vmax * vmax;
  if (s2 > m2) {
    float k = vmax / (s2 * 0.5f + 0.5f);
    v.x *= k;
    v.y *= k;
  }
  return v;
}

// Semi-implicit Euler: the new velocity, damped and clamped ...
__device__ Vec2 kick(Vec2 vel, Vec2 f, float dt, float damping, float vmax) {
  vel.x = (vel.x + f.x * dt) * damping;
  vel.y = (vel.y + f.y * dt) * damping;
  return clamp_speed(vel, vmax);
}

// ... then the position moved with it, wrapped into the box.
__device__ Vec2 drift(Vec2 pos, Vec2 vel, float dt, float box) {
  return make_vec2(wrap(pos.x + vel.x * dt, box), wrap(pos.y + vel.y * dt, box));
}

// The sum of v over the block, in red[0]; every thread must call it.
__device__ float block_sum(float *red, float v) {
  unsigned t = threadIdx.x;
  red[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    __syncthreads();
  }
  return red[0];
}

// The forces of one tile of particles on the particle at me.
__device__ Vec2 tile_forces(const float *sx, const float *sy, Vec2 me,
                            int first, int self, int n, float box,
                            float cutoff2, float soft2) {
  Vec2 f = make_vec2(0.0f, 0.0f);
  for (int j = 0; j < TILE; j++) {
    int other = first + j;
    if (other == self || other >= n)
      continue;
    Vec2 g = pair_force(me, make_vec2(sx[j], sy[j]), box, cutoff2, soft2);
    f.x += g.x;
    f.y += g.y;
  }
  return f;
}

__global__ void nbody_step(const float *px, const float *py, float *vx,
                           float *vy, float *ox, float *oy, float *energy,
                           SimParams p) {
  __shared__ float sx[TILE];
  __shared__ float sy[TILE];
  __shared__ float red[TILE];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= p.n)
    return;

  Vec2 me = make_vec2(px[i], py[i]);
  Vec2 v = make_vec2(vx[i], vy[i]);
  Vec2 f = make_vec2(0.0f, 0.0f);

  // Walk the particles tile by tile: fill, wait, use, wait.
  for (int tile = 0; tile < p.ntiles; tile++) {
    int j = tile * TILE + t;
    sx[t] = j < p.n ? px[j] : 0.0f;
    sy[t] = j < p.n ? py[j] : 0.0f;
    __syncthreads();
    Vec2 g =
        tile_forces(sx, sy, me, tile * TILE, i, p.n, p.box, p.cutoff2, p.soft2);
    f.x += g.x;
    f.y += g.y;
    __syncthreads();
  }

  v = kick(v, f, p.dt, p.damping, p.vmax);
  me = drift(me, v, p.dt, p.box);

  // The block's kinetic energy, one slot per block and step.
  float ke = 0.5f * (v.x * v.x + v.y * v.y);
  float total = block_sum(red, ke);
  if (t == 0)
    energy[(p.step & 1) * gridDim.x + blockIdx.x] = total;

  vx[i] = v.x;
  vy[i] = v.y;
  ox[i] = me.x;
  oy[i] = me.y;
}
