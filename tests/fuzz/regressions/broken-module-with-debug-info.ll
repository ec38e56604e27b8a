target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k() {
entry:
  br label %entry
}
!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
