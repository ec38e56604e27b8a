; Two races whose windows overlap, without !dbg (no statement spots): a
; read of a[t+1] before the store of a[t] (write after read), and a store
; of b[t] then a read of b[t+1] (read after write). The race on b is found
; first and gets its barrier right before its read; the race on a then gets
; one right before its store, which orders the race on b as well.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@a = internal addrspace(3) global [65 x float] undef
@b = internal addrspace(3) global [65 x float] undef

define ptx_kernel void @windows(ptr %out, ptr %in) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t1 = add i32 %t, 1
  %pa1 = getelementptr [65 x float], ptr addrspace(3) @a, i32 0, i32 %t1
  %y = load float, ptr addrspace(3) %pa1
  %pin = getelementptr float, ptr %in, i32 %t
  %v = load float, ptr %pin
  %pb = getelementptr [65 x float], ptr addrspace(3) @b, i32 0, i32 %t
  store float %v, ptr addrspace(3) %pb
  %pa = getelementptr [65 x float], ptr addrspace(3) @a, i32 0, i32 %t
  store float %v, ptr addrspace(3) %pa
  %pb1 = getelementptr [65 x float], ptr addrspace(3) @b, i32 0, i32 %t1
  %x = load float, ptr addrspace(3) %pb1
  %s = fadd float %x, %y
  %po = getelementptr float, ptr %out, i32 %t
  store float %s, ptr %po
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
