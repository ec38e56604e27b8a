// Does not compile: `aucs check` reports it as this file's error and goes on.
__global__ void broken(int *out) {
  out[threadIdx.x] = undeclared_value;
}
