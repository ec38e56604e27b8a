// A kernel and host code with no launch (tests/test_hostlaunch.c): the host
// side is not compiled at all.
__global__ void untouched(int *p) { p[threadIdx.x] = 0; }

int helper(int x) { return 2 * x; }
