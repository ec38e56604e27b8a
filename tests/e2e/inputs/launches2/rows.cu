// A kernel whose only launch is in another file (main.cu): one thread per
// block, each filling its block's row. A bigger block would race.
__global__ void clear_rows(float *rows, int width) {
  for (int i = 0; i < width; i++)
    rows[blockIdx.x * width + i] = (float)(threadIdx.x + i);
}
