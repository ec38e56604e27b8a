// Input for tests/test_module.c: does not compile (missing semicolon).
__global__ void broken(int *data) {
  data[threadIdx.x] = 1
}
