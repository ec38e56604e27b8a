// The launch of hostlaunch_header.cu's kernel, in a header of the project.
template <int B> void launch_fill(int *p, int n) {
  fill<<<(n + B - 1) / B, B>>>(p, n);
}
