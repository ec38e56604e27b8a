// Accesses of different widths that overlap: four threads each set one byte
// of a shared flag word while a fifth clears the whole 4-byte word in the
// same barrier interval. The byte stores touch different bytes and do not
// race with each other; each overlaps the word store. Expected: a race
// between the byte store and the word store.
// AUCS-LAUNCH: --grid 1 --block 32
// AUCS-EXPECT: divergent 16 18
// AUCS-EXPECT: uniform 19 20
// AUCS-EXPECT: race 16 18

__global__ void flag_bytes(unsigned *out) {
  __shared__ unsigned s_flags;
  unsigned char *b = (unsigned char *)&s_flags;
  unsigned tid = threadIdx.x;
  if (tid < 4)
    b[tid] = 1;
  if (tid == 4)
    s_flags = 0;
  __syncthreads();
  out[tid] = s_flags;
}
// Static (aucs detect --static, same launch): the byte store and the word
// store race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 16 18
