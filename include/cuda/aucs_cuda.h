/*
 * aucs_cuda.h: the CUDA device vocabulary for compiling kernels without a
 * CUDA SDK. aucs passes it with `-include aucs_cuda.h -nocudainc`; every
 * function here is a thin always-inline wrapper over a clang NVVM builtin,
 * so the IR holds the same intrinsics and atomicrmw/cmpxchg that the SDK's
 * headers produce.
 *
 * threadIdx, blockIdx, blockDim, gridDim and warpSize come from clang's own
 * <__clang_cuda_builtin_vars.h>. __syncthreads() is a clang builtin.
 *
 * Limitation: device-side only and deliberately small: no math library,
 * no printf, no texture objects (legacy texture<> references: see
 * aucs_texture.h), no dim3 launches; of cooperative groups only
 * this_thread_block().sync() and this_grid().sync(); of the vector types
 * only float2/4, int2/4 and uint2/4 (with make_*).
 */
#ifndef AUCS_CUDA_H
#define AUCS_CUDA_H

#include <__clang_cuda_builtin_vars.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __restrict__ __restrict
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

#define __AUCS_FN static __device__ __forceinline__

/* Barriers with a block-wide reduction, warp barrier, fences. */
__AUCS_FN int __syncthreads_count(int p) { return __nvvm_bar0_popc(p); }
__AUCS_FN int __syncthreads_and(int p) { return __nvvm_bar0_and(p); }
__AUCS_FN int __syncthreads_or(int p) { return __nvvm_bar0_or(p); }
__AUCS_FN void __syncwarp(unsigned mask = 0xffffffffu) {
  __nvvm_bar_warp_sync(mask);
}
__AUCS_FN void __threadfence(void) { __nvvm_membar_gl(); }
__AUCS_FN void __threadfence_block(void) { __nvvm_membar_cta(); }
__AUCS_FN void __threadfence_system(void) { __nvvm_membar_sys(); }

/* Atomics on generic pointers; each returns the old value. */
typedef unsigned long long __aucs_u64;
#define __AUCS_I(p) ((int *)(p))
#define __AUCS_LL(p) ((long long *)(p))
__AUCS_FN int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__AUCS_FN unsigned atomicAdd(unsigned *p, unsigned v) {
  return (unsigned)__nvvm_atom_add_gen_i(__AUCS_I(p), (int)v);
}
__AUCS_FN __aucs_u64 atomicAdd(__aucs_u64 *p, __aucs_u64 v) {
  return (__aucs_u64)__nvvm_atom_add_gen_ll(__AUCS_LL(p), (long long)v);
}
__AUCS_FN float atomicAdd(float *p, float v) {
  return __nvvm_atom_add_gen_f(p, v);
}
__AUCS_FN int atomicSub(int *p, int v) { return atomicAdd(p, -v); }
__AUCS_FN unsigned atomicSub(unsigned *p, unsigned v) {
  return atomicAdd(p, 0u - v);
}
__AUCS_FN int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__AUCS_FN unsigned atomicExch(unsigned *p, unsigned v) {
  return (unsigned)__nvvm_atom_xchg_gen_i(__AUCS_I(p), (int)v);
}
__AUCS_FN float atomicExch(float *p, float v) {
  int old = __nvvm_atom_xchg_gen_i(__AUCS_I(p), __builtin_bit_cast(int, v));
  return __builtin_bit_cast(float, old);
}
__AUCS_FN int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__AUCS_FN unsigned atomicMin(unsigned *p, unsigned v) {
  return __nvvm_atom_min_gen_ui(p, v);
}
__AUCS_FN int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
__AUCS_FN unsigned atomicMax(unsigned *p, unsigned v) {
  return __nvvm_atom_max_gen_ui(p, v);
}
__AUCS_FN int atomicCAS(int *p, int cmp, int v) {
  return __nvvm_atom_cas_gen_i(p, cmp, v);
}
__AUCS_FN unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v) {
  return (unsigned)__nvvm_atom_cas_gen_i(__AUCS_I(p), (int)cmp, (int)v);
}
__AUCS_FN __aucs_u64 atomicCAS(__aucs_u64 *p, __aucs_u64 cmp, __aucs_u64 v) {
  return (__aucs_u64)__nvvm_atom_cas_gen_ll(__AUCS_LL(p), (long long)cmp,
                                            (long long)v);
}
#define __AUCS_BITOP(Name, Builtin)                                            \
  __AUCS_FN int Name(int *p, int v) { return Builtin(p, v); }                  \
  __AUCS_FN unsigned Name(unsigned *p, unsigned v) {                           \
    return (unsigned)Builtin(__AUCS_I(p), (int)v);                             \
  }
__AUCS_BITOP(atomicAnd, __nvvm_atom_and_gen_i)
__AUCS_BITOP(atomicOr, __nvvm_atom_or_gen_i)
__AUCS_BITOP(atomicXor, __nvvm_atom_xor_gen_i)
#undef __AUCS_BITOP
/* ((*p >= limit) ? 0 : *p + 1), atomically. */
__AUCS_FN unsigned atomicInc(unsigned *p, unsigned limit) {
  return __nvvm_atom_inc_gen_ui(p, limit);
}

/* Scoped atomics: _block reaches the threads of one block only, _system
 * the host and peer devices too. */
__AUCS_FN int atomicAdd_block(int *p, int v) {
  return __nvvm_atom_cta_add_gen_i(p, v);
}
__AUCS_FN unsigned atomicAdd_block(unsigned *p, unsigned v) {
  return (unsigned)__nvvm_atom_cta_add_gen_i(__AUCS_I(p), (int)v);
}
__AUCS_FN int atomicExch_block(int *p, int v) {
  return __nvvm_atom_cta_xchg_gen_i(p, v);
}
__AUCS_FN unsigned atomicExch_block(unsigned *p, unsigned v) {
  return (unsigned)__nvvm_atom_cta_xchg_gen_i(__AUCS_I(p), (int)v);
}
__AUCS_FN int atomicCAS_block(int *p, int cmp, int v) {
  return __nvvm_atom_cta_cas_gen_i(p, cmp, v);
}
__AUCS_FN unsigned atomicCAS_block(unsigned *p, unsigned cmp, unsigned v) {
  return (unsigned)__nvvm_atom_cta_cas_gen_i(__AUCS_I(p), (int)cmp, (int)v);
}
__AUCS_FN int atomicAdd_system(int *p, int v) {
  return __nvvm_atom_sys_add_gen_i(p, v);
}
__AUCS_FN int atomicCAS_system(int *p, int cmp, int v) {
  return __nvvm_atom_sys_cas_gen_i(p, cmp, v);
}
__AUCS_FN int atomicExch_system(int *p, int v) {
  return __nvvm_atom_sys_xchg_gen_i(p, v);
}

/* Warp shuffles: the second operand of the intrinsic packs the segment
 * width (bits 8..12) and the lane clamp (bits 0..4), as PTX shfl.sync does. */
#define __AUCS_SHFL(Name, IntB, FloatB, Clamp)                                 \
  __AUCS_FN int Name(unsigned mask, int v, int lane, int width = warpSize) {   \
    return IntB(mask, v, lane, ((warpSize - width) << 8) | (Clamp));           \
  }                                                                            \
  __AUCS_FN unsigned Name(unsigned mask, unsigned v, int lane,                 \
                          int width = warpSize) {                              \
    return (unsigned)Name(mask, (int)v, lane, width);                          \
  }                                                                            \
  __AUCS_FN float Name(unsigned mask, float v, int lane,                       \
                       int width = warpSize) {                                 \
    return FloatB(mask, v, lane, ((warpSize - width) << 8) | (Clamp));         \
  }
__AUCS_SHFL(__shfl_sync, __nvvm_shfl_sync_idx_i32, __nvvm_shfl_sync_idx_f32,
            0x1f)
__AUCS_SHFL(__shfl_up_sync, __nvvm_shfl_sync_up_i32, __nvvm_shfl_sync_up_f32, 0)
__AUCS_SHFL(__shfl_down_sync, __nvvm_shfl_sync_down_i32,
            __nvvm_shfl_sync_down_f32, 0x1f)
__AUCS_SHFL(__shfl_xor_sync, __nvvm_shfl_sync_bfly_i32,
            __nvvm_shfl_sync_bfly_f32, 0x1f)
#undef __AUCS_SHFL

/* Warp votes. */
__AUCS_FN unsigned __ballot_sync(unsigned mask, int p) {
  return __nvvm_vote_ballot_sync(mask, p);
}
__AUCS_FN int __any_sync(unsigned mask, int p) {
  return __nvvm_vote_any_sync(mask, p);
}
__AUCS_FN int __all_sync(unsigned mask, int p) {
  return __nvvm_vote_all_sync(mask, p);
}
__AUCS_FN unsigned __activemask(void) { return __nvvm_activemask(); }

/* min/max for the common scalar types; a signed/unsigned mix is unsigned. */
#define __AUCS_MINMAX(T)                                                       \
  __AUCS_FN T min(T a, T b) { return a < b ? a : b; }                          \
  __AUCS_FN T max(T a, T b) { return a < b ? b : a; }
__AUCS_MINMAX(int)
__AUCS_MINMAX(unsigned)
__AUCS_MINMAX(long long)
__AUCS_MINMAX(__aucs_u64)
__AUCS_MINMAX(float)
__AUCS_MINMAX(double)
#undef __AUCS_MINMAX
__AUCS_FN unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
__AUCS_FN unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
__AUCS_FN unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
__AUCS_FN unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }

/* Cooperative groups: the block and the grid, and their sync(). The grid
 * sync is the SDK's (cooperative_groups/details/sync.h, sm_70) in the same
 * PTX: the driver's workspace at %envreg1:%envreg2, each block master's
 * atom.add.release.gpu on its barrier word (block 0 adds what flips the
 * top bit once every block has added 1), then polling with ld.acquire.gpu
 * until the bit flips. The launch must be cooperative. */
__AUCS_FN volatile unsigned *__aucs_grid_barrier_word(void) {
  unsigned hi, lo;
  asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
  asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
  return (volatile unsigned *)(((__aucs_u64)hi << 32) | lo) + 1;
}
__AUCS_FN void __aucs_grid_sync(void) {
  volatile unsigned *arrived = __aucs_grid_barrier_word();
  __syncthreads();
  if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
    unsigned expected = gridDim.x * gridDim.y * gridDim.z, old, cur;
    unsigned nb = blockIdx.x + blockIdx.y + blockIdx.z == 0
                      ? 0x80000000u - (expected - 1)
                      : 1;
    asm volatile("atom.add.release.gpu.u32 %0,[%1],%2;"
                 : "=r"(old)
                 : "l"(arrived), "r"(nb)
                 : "memory");
    do
      asm volatile("ld.acquire.gpu.u32 %0,[%1];"
                   : "=r"(cur)
                   : "l"(arrived)
                   : "memory");
    while (((old ^ cur) & 0x80000000u) == 0);
  }
  __syncthreads();
}
namespace cooperative_groups {
struct thread_block {
  __device__ __forceinline__ void sync() const { __syncthreads(); }
};
struct grid_group {
  __device__ __forceinline__ void sync() const { __aucs_grid_sync(); }
};
__AUCS_FN thread_block this_thread_block(void) { return thread_block(); }
__AUCS_FN grid_group this_grid(void) { return grid_group(); }
} // namespace cooperative_groups

/* Vector types as the SDK's vector_types.h lays them out (float4 and int4
 * 16-byte aligned, so loads of them become one <4 x float> access). */
#define __AUCS_VEC2(T, N, A)                                                   \
  struct __attribute__((aligned(A))) N##2 {                                    \
    T x, y;                                                                    \
  };                                                                           \
  __AUCS_FN N##2 make_##N##2(T x, T y) { return {x, y}; }
#define __AUCS_VEC4(T, N, A)                                                   \
  struct __attribute__((aligned(A))) N##4 {                                    \
    T x, y, z, w;                                                              \
  };                                                                           \
  __AUCS_FN N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }
__AUCS_VEC2(float, float, 8)
__AUCS_VEC2(int, int, 8)
__AUCS_VEC2(unsigned, uint, 8)
__AUCS_VEC4(float, float, 16)
__AUCS_VEC4(int, int, 16)
__AUCS_VEC4(unsigned, uint, 16)
#undef __AUCS_VEC2
#undef __AUCS_VEC4

#undef __AUCS_I
#undef __AUCS_LL
#undef __AUCS_FN
#endif
