// Reads %smid through inline assembly, which the interpreter does not run:
// the kernel is reported unsupported and the other files are still checked.
__global__ void which_sm(int *out) {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  out[threadIdx.x] = id;
}
