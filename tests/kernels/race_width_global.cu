// Accesses of different widths that overlap, in global memory: each thread
// writes one 8-byte double of a buffer and then inspects the first byte of
// the next thread's double (a sign-byte check written with the wrong
// index). The 1-byte read overlaps thread t + 1's 8-byte write in the same
// barrier interval. Expected: a race between the double store and the byte
// load. One block: no inter-block pair (the last thread reads past the
// block's part, which nobody writes).
// AUCS-LAUNCH: --grid 1 --block 64
// AUCS-EXPECT: uniform 14 16
// AUCS-EXPECT: race 14 16

__global__ void repack(unsigned char *out, double *buf, const double *in) {
  unsigned tid = threadIdx.x;
  buf[tid] = in[tid] * 2.0;
  const unsigned char *p = (const unsigned char *)buf;
  out[tid] = p[8 * tid + 8];
}
// Static (aucs detect --static, same launch): the double store and the byte
// load race; the witness replays it.
// AUCS-EXPECT-STATIC: confirmed 14 16
