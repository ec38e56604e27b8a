/*
 * test_libcalls: library calls (detector/interp/libcalls.def) run by the
 * interpreter, family by family (integers, float, double, bit casts,
 * conversions, results through pointers), which names stay unsupported,
 * the rule for functions the module defines (libdevice linked), and the
 * static checker's uninterpreted functions. Expected values are worked out
 * by hand in the comments.
 */
#include "support.h"

#include "aucs/libcalls.h"
#include "aucs/static.h"
#include "aucs/util.h"
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---- */

/* Run kernel @k(ptr %out) on one thread; out receives its 64 u64 slots. */
static void run_one(const char *ir, uint64_t out[64]) {
  LLVMModuleRef m = support_parse(ir);
  aucs_prog *p = support_lower(support_fn(m, "k"));
  aucs_run_config c = {0};
  c.launch.grid = (aucs_dim3){1, 1, 1};
  c.launch.block = (aucs_dim3){1, 1, 1};
  c.seed = 1;
  c.keep_memory = 1;
  aucs_run_result res = {0};
  assert_int_equal(aucs_interp_run(p, &c, &res), AUCS_RUN_OK);
  for (size_t i = 0; i < 64; i++) {
    out[i] = 0;
    assert_int_equal(aucs_run_read(&res, 0, i * 8, &out[i], 8), 0);
  }
  aucs_run_result_free(&res);
  aucs_prog_free(p);
  support_free(m);
}

/* `  %vN = call RT @F(ARGS)` then stored, zero-extended, to out[N]. */
// clang-format off
#define CALL_I32(n, f, args)                                                   \
  "  %v" #n " = call i32 @" f "(" args ")\n"                                   \
  "  %z" #n " = zext i32 %v" #n " to i64\n"                                    \
  "  %p" #n " = getelementptr i64, ptr %out, i64 " #n "\n"                     \
  "  store i64 %z" #n ", ptr %p" #n "\n"
#define CALL_I64(n, f, args)                                                   \
  "  %v" #n " = call i64 @" f "(" args ")\n"                                   \
  "  %p" #n " = getelementptr i64, ptr %out, i64 " #n "\n"                     \
  "  store i64 %v" #n ", ptr %p" #n "\n"
#define CALL_F32(n, f, args)                                                   \
  "  %v" #n " = call float @" f "(" args ")\n"                                 \
  "  %p" #n " = getelementptr i64, ptr %out, i64 " #n "\n"                     \
  "  store float %v" #n ", ptr %p" #n "\n"
#define CALL_F64(n, f, args)                                                   \
  "  %v" #n " = call double @" f "(" args ")\n"                                \
  "  %p" #n " = getelementptr i64, ptr %out, i64 " #n "\n"                     \
  "  store double %v" #n ", ptr %p" #n "\n"

static float as_f32(uint64_t v) {
  uint32_t b = (uint32_t)v;
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static double as_f64(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}

/* ---- interpreter, by family ---- */

static void test_libcalls_integers(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      CALL_I32(0, "__nv_umul24", "i32 16777219, i32 5") /* 0x1000003 */
      CALL_I32(1, "__nv_mul24", "i32 16777215, i32 7") /* -1 * 7 */
      CALL_I32(2, "__nv_ffs", "i32 8") /* bit 4 */
      CALL_I32(3, "__nv_ffs", "i32 0") /* none */
      CALL_I32(4, "__nv_clz", "i32 1") /* 31 */
      CALL_I32(5, "__nv_brev", "i32 1") /* top bit */
      CALL_I32(6, "__nv_popcll", "i64 16711935") /* 0xff00ff */
      CALL_I32(7, "__nv_byte_perm", "i32 857870592, i32 2003195204, i32 20800") /* see below */
      CALL_I32(8, "__nv_umulhi", "i32 -2147483648, i32 4") /* 2^33 >> 32 */
      CALL_I64(9, "__nv_umul64hi", "i64 -1, i64 -1") /* (2^64-1)^2 */
      CALL_I64(10, "__nv_mul64hi", "i64 -1, i64 -1") /* 1 */
      CALL_I32(11, "__nv_sad", "i32 3, i32 10, i32 100") /* 7 + 100 */
      CALL_I32(12, "__nv_hadd", "i32 -3, i32 0") /* floor(-1.5) */
      CALL_I32(13, "__nv_rhadd", "i32 -3, i32 0") /* -1 */
      CALL_I32(14, "__nv_min", "i32 -1, i32 1")
      CALL_I32(15, "__nv_umin", "i32 -1, i32 1")
      CALL_I32(16, "__nv_abs", "i32 -5")
      CALL_I64(17, "__nv_llmax", "i64 -9, i64 -4")
      CALL_I32(18, "__nv_clzll", "i64 0")
      "  ret void\n"
      "}\n"
      "declare i32 @__nv_umul24(i32, i32)\n"
      "declare i32 @__nv_mul24(i32, i32)\n"
      "declare i32 @__nv_ffs(i32)\n"
      "declare i32 @__nv_clz(i32)\n"
      "declare i32 @__nv_brev(i32)\n"
      "declare i32 @__nv_popcll(i64)\n"
      "declare i32 @__nv_byte_perm(i32, i32, i32)\n"
      "declare i32 @__nv_umulhi(i32, i32)\n"
      "declare i64 @__nv_umul64hi(i64, i64)\n"
      "declare i64 @__nv_mul64hi(i64, i64)\n"
      "declare i32 @__nv_sad(i32, i32, i32)\n"
      "declare i32 @__nv_hadd(i32, i32)\n"
      "declare i32 @__nv_rhadd(i32, i32)\n"
      "declare i32 @__nv_min(i32, i32)\n"
      "declare i32 @__nv_umin(i32, i32)\n"
      "declare i32 @__nv_abs(i32)\n"
      "declare i64 @__nv_llmax(i64, i64)\n"
      "declare i32 @__nv_clzll(i64)\n";
  uint64_t o[64];
  run_one(ir, o);
  assert_int_equal(o[0], 15);
  assert_int_equal(o[1], 0xfffffff9u); /* -7, zero-extended i32 */
  assert_int_equal(o[2], 4);
  assert_int_equal(o[3], 0);
  assert_int_equal(o[4], 31);
  assert_int_equal(o[5], 0x80000000u);
  assert_int_equal(o[6], 16);
  /* x = 0x33221100, y = 0x77665544, selector 0x5140: bytes 0, 4, 1, 5 of
   * {y, x} from the low end: 0x00, 0x44, 0x11, 0x55 */
  assert_int_equal(o[7], 0x55114400u);
  assert_int_equal(o[8], 2);
  assert_int_equal(o[9], 0xfffffffffffffffeu);
  assert_int_equal(o[10], 0);
  assert_int_equal(o[11], 107);
  assert_int_equal(o[12], 0xfffffffeu);
  assert_int_equal(o[13], 0xffffffffu);
  assert_int_equal(o[14], 0xffffffffu);
  assert_int_equal(o[15], 1);
  assert_int_equal(o[16], 5);
  assert_int_equal(o[17], (uint64_t)-4);
  assert_int_equal(o[18], 64);
}

static void test_libcalls_float_and_double(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      CALL_F32(0, "roundf", "float 2.5")
      CALL_F32(1, "__nv_hypotf", "float 3.0, float 4.0")
      CALL_F32(2, "__nv_fast_log2f", "float 16.0")
      CALL_F32(3, "__nv_fast_powf", "float 2.0, float 10.0")
      CALL_F32(4, "__nv_saturatef", "float 1.5")
      CALL_F32(5, "__nv_fdividef", "float 1.0, float 4.0")
      CALL_F32(6, "__nv_rsqrtf", "float 4.0")
      CALL_F32(7, "__nv_frcp_rz", "float 4.0")
      CALL_F32(8, "__nv_fmaf_rn", "float 2.0, float 3.0, float 1.0")
      CALL_F32(9, "llvm.sqrt.f32", "float 9.0")
      CALL_F64(10, "__nv_round", "double -2.5")
      CALL_F64(11, "__nv_sqrt", "double 16.0")
      CALL_F64(12, "__nv_dadd_rn", "double 0.5, double 0.25")
      CALL_I32(13, "__nv_isnand", "double 0x7FF8000000000000")
      CALL_I32(14, "__nv_ilogb", "double 8.0")
      CALL_F64(15, "exp", "double 0.0")
      "  ret void\n"
      "}\n"
      "declare float @roundf(float)\n"
      "declare float @__nv_hypotf(float, float)\n"
      "declare float @__nv_fast_log2f(float)\n"
      "declare float @__nv_fast_powf(float, float)\n"
      "declare float @__nv_saturatef(float)\n"
      "declare float @__nv_fdividef(float, float)\n"
      "declare float @__nv_rsqrtf(float)\n"
      "declare float @__nv_frcp_rz(float)\n"
      "declare float @__nv_fmaf_rn(float, float, float)\n"
      "declare float @llvm.sqrt.f32(float)\n"
      "declare double @__nv_round(double)\n"
      "declare double @__nv_sqrt(double)\n"
      "declare double @__nv_dadd_rn(double, double)\n"
      "declare i32 @__nv_isnand(double)\n"
      "declare i32 @__nv_ilogb(double)\n"
      "declare double @exp(double)\n";
  uint64_t o[64];
  run_one(ir, o);
  assert_true(as_f32(o[0]) == 3.0f); /* halfway rounds away from zero */
  assert_true(as_f32(o[1]) == 5.0f);
  assert_true(as_f32(o[2]) == 4.0f);
  assert_true(as_f32(o[3]) == 1024.0f);
  assert_true(as_f32(o[4]) == 1.0f);
  assert_true(as_f32(o[5]) == 0.25f);
  assert_true(as_f32(o[6]) == 0.5f);
  assert_true(as_f32(o[7]) == 0.25f);
  assert_true(as_f32(o[8]) == 7.0f);
  assert_true(as_f32(o[9]) == 3.0f);
  assert_true(as_f64(o[10]) == -3.0);
  assert_true(as_f64(o[11]) == 4.0);
  assert_true(as_f64(o[12]) == 0.75);
  assert_int_equal(o[13], 1);
  assert_int_equal(o[14], 3);
  assert_true(as_f64(o[15]) == 1.0);
}

static void test_libcalls_bit_casts_and_conversions(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      CALL_I32(0, "__nv_float_as_int", "float 1.0")
      CALL_F32(1, "__nv_int_as_float", "i32 1073741824") /* 2.0f */
      CALL_I32(2, "__nv_double2hiint", "double 1.0")
      CALL_I32(3, "__nv_double2loint", "double 1.0")
      CALL_F64(4, "__nv_hiloint2double", "i32 1073741824, i32 0")
      CALL_I64(5, "__nv_double_as_longlong", "double 1.0")
      CALL_I32(6, "__nv_float2int_rn", "float 2.5")
      CALL_I32(7, "__nv_float2int_rz", "float -2.75")
      CALL_I32(8, "__nv_float2int_rd", "float -2.5")
      CALL_I32(9, "__nv_float2int_ru", "float 2.25")
      CALL_I32(10, "__nv_float2int_rz", "float 3.0e9")
      CALL_I32(11, "__nv_float2uint_rz", "float -1.0")
      CALL_I32(12, "__nv_float2int_rn", "float 0x7FF8000000000000")
      CALL_I64(13, "__nv_double2ll_rd", "double -1.5")
      CALL_F32(14, "__nv_int2float_rn", "i32 -3")
      "  ret void\n"
      "}\n"
      "declare i32 @__nv_float_as_int(float)\n"
      "declare float @__nv_int_as_float(i32)\n"
      "declare i32 @__nv_double2hiint(double)\n"
      "declare i32 @__nv_double2loint(double)\n"
      "declare double @__nv_hiloint2double(i32, i32)\n"
      "declare i64 @__nv_double_as_longlong(double)\n"
      "declare i32 @__nv_float2int_rn(float)\n"
      "declare i32 @__nv_float2int_rz(float)\n"
      "declare i32 @__nv_float2int_rd(float)\n"
      "declare i32 @__nv_float2int_ru(float)\n"
      "declare i32 @__nv_float2uint_rz(float)\n"
      "declare i64 @__nv_double2ll_rd(double)\n"
      "declare float @__nv_int2float_rn(i32)\n";
  uint64_t o[64];
  run_one(ir, o);
  assert_int_equal(o[0], 0x3f800000u);
  assert_true(as_f32(o[1]) == 2.0f);
  assert_int_equal(o[2], 0x3ff00000u);
  assert_int_equal(o[3], 0);
  assert_true(as_f64(o[4]) == 2.0);
  assert_int_equal(o[5], 0x3ff0000000000000u);
  assert_int_equal(o[6], 2); /* to nearest even */
  assert_int_equal(o[7], 0xfffffffeu);
  assert_int_equal(o[8], 0xfffffffdu);
  assert_int_equal(o[9], 3);
  assert_int_equal(o[10], 0x7fffffffu); /* saturates */
  assert_int_equal(o[11], 0);
  assert_int_equal(o[12], 0); /* NaN */
  assert_int_equal(o[13], (uint64_t)-2);
  assert_true(as_f32(o[14]) == -3.0f);
}

static void test_libcalls_results_through_pointers(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      "  %s = getelementptr i64, ptr %out, i64 0\n"
      "  %c = getelementptr i64, ptr %out, i64 1\n"
      "  call void @__nv_sincosf(float 0.0, ptr %s, ptr %c)\n"
      "  %e = getelementptr i64, ptr %out, i64 2\n"
      "  %m = call float @__nv_frexpf(float 8.0, ptr %e)\n"
      "  %pm = getelementptr i64, ptr %out, i64 3\n"
      "  store float %m, ptr %pm\n"
      "  %i = getelementptr i64, ptr %out, i64 4\n"
      "  %f = call double @modf(double 2.75, ptr %i)\n"
      "  %pf = getelementptr i64, ptr %out, i64 5\n"
      "  store double %f, ptr %pf\n"
      "  ret void\n"
      "}\n"
      "declare void @__nv_sincosf(float, ptr, ptr)\n"
      "declare float @__nv_frexpf(float, ptr)\n"
      "declare double @modf(double, ptr)\n";
  uint64_t o[64];
  run_one(ir, o);
  assert_true(as_f32(o[0]) == 0.0f);
  assert_true(as_f32(o[1]) == 1.0f);
  assert_int_equal(o[2] & 0xffffffffu, 4); /* 8 = 0.5 * 2^4 */
  assert_true(as_f32(o[3]) == 0.5f);
  assert_true(as_f64(o[4]) == 2.0);
  assert_true(as_f64(o[5]) == 0.75);
}

/* __nv_* (libdevice linked) are taken from the table even when defined;
 * a plain name the module defines runs its own body. */
static void test_libcalls_defined_bodies(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      CALL_I32(0, "__nv_umul24", "i32 3, i32 5")
      CALL_F32(1, "roundf", "float 2.5")
      "  ret void\n"
      "}\n"
      "define i32 @__nv_umul24(i32 %a, i32 %b) {\n"
      "  ret i32 12345\n"
      "}\n"
      "define float @roundf(float %a) {\n"
      "  ret float 42.0\n"
      "}\n";
  uint64_t o[64];
  run_one(ir, o);
  assert_int_equal(o[0], 15);
  assert_true(as_f32(o[1]) == 42.0f);
}

/* Forward declarations a build without the CUDA math headers leaves:
 * static round(float) and hypot(float, float) (`_ZL5roundf`, `_ZL5hypotff`)
 * are roundf and hypotf; round(double) is round; a definition runs its own
 * body; a name with a parameter that is no builtin type is not resolved. */
static void test_libcalls_mangled_forward_declarations(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      CALL_F32(0, "_ZL5roundf", "float 2.5")
      CALL_F32(1, "_ZL5hypotff", "float 3.0, float 4.0")
      CALL_F64(2, "_ZL5roundd", "double -2.5")
      CALL_F32(3, "_ZL5floorf", "float 1.75")
      CALL_F32(4, "_ZL4sqrtf", "float 16.0")
      "  ret void\n"
      "}\n"
      "declare float @_ZL5roundf(float)\n"
      "declare float @_ZL5hypotff(float, float)\n"
      "declare double @_ZL5roundd(double)\n"
      "declare float @_ZL5floorf(float)\n"
      "define internal float @_ZL4sqrtf(float %x) {\n"
      "  ret float 42.0\n"
      "}\n";
  uint64_t o[64];
  run_one(ir, o);
  assert_true(as_f32(o[0]) == 3.0f);
  assert_true(as_f32(o[1]) == 5.0f);
  assert_true(as_f64(o[2]) == -3.0);
  assert_true(as_f32(o[3]) == 1.0f);
  assert_true(as_f32(o[4]) == 42.0f);
  LLVMModuleRef m = support_parse("declare float @_ZL5roundPf(ptr)\n"
                                  "declare float @_ZL3fooff(float, float)\n"
                                  "declare float @_ZL5roundff(float, float)\n");
  assert_null(aucs_libcalls_of(support_fn(m, "_ZL5roundPf")));
  assert_null(aucs_libcalls_of(support_fn(m, "_ZL3fooff")));
  assert_null(aucs_libcalls_of(support_fn(m, "_ZL5roundff"))); /* arity */
  support_free(m);
}

/* A declared function not in the table is an arbitrary value by default
 * (test_ptx.c); under strict lowering it stays unsupported, by name, at
 * the call. */
static void test_libcalls_unknown_stays_unsupported(void **state) {
  (void)state;
  LLVMModuleRef m =
      support_parse("define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      "  %v = call i32 @__nv_vadd2(i32 1, i32 2)\n"
      "  store i32 %v, ptr %out\n"
      "  ret void\n"
      "}\n"
      "declare i32 @__nv_vadd2(i32, i32)\n");
  aucs_prog *p = NULL;
  aucs_findings d = {0};
  aucs_lower_options strict = {.strict = 1};
  assert_int_not_equal(
      aucs_interp_lower_with(support_fn(m, "k"), &strict, &p, &d), 0);
  assert_int_equal(d.n, 1);
  assert_int_equal(d.v[0].kind, AUCS_FINDING_UNSUPPORTED);
  assert_non_null(strstr(d.v[0].message, "calls to '__nv_vadd2'"));
  LLVMValueRef call = LLVMGetFirstInstruction(
      LLVMGetFirstBasicBlock(support_fn(m, "k")));
  assert_ptr_equal(d.v[0].a.instr, call);
  aucs_findings_free(&d);
  support_free(m);
}

/* With libdevice linked, the __nv_* functions have bodies (calling
 * llvm.nvvm.* intrinsics): the interpreter still answers from the table. */
static void test_libcalls_with_libdevice_linked(void **state) {
  (void)state;
  const char *path = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
  if (access(path, R_OK) != 0) {
    print_message("skipped: no libdevice at %s\n", path);
    skip();
  }
  LLVMModuleRef m = support_parse(
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      CALL_I32(0, "__nv_umul24", "i32 16777219, i32 5")
      CALL_F32(1, "__nv_fast_log2f", "float 16.0")
      CALL_I32(2, "__nv_float2int_rd", "float -2.5")
      "  ret void\n"
      "}\n"
      "declare i32 @__nv_umul24(i32, i32)\n"
      "declare float @__nv_fast_log2f(float)\n"
      "declare i32 @__nv_float2int_rd(float)\n");
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  assert_int_equal(LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg),
                   0);
  LLVMModuleRef lib;
  assert_int_equal(
      LLVMParseBitcodeInContext2(LLVMGetModuleContext(m), buf, &lib), 0);
  LLVMDisposeMemoryBuffer(buf);
  assert_int_equal(LLVMLinkModules2(m, lib), 0);
  assert_false(LLVMIsDeclaration(LLVMGetNamedFunction(m, "__nv_umul24")));
  aucs_prog *p = support_lower(support_fn(m, "k"));
  aucs_run_config c = {0};
  c.launch.grid = (aucs_dim3){1, 1, 1};
  c.launch.block = (aucs_dim3){1, 1, 1};
  c.keep_memory = 1;
  aucs_run_result res = {0};
  assert_int_equal(aucs_interp_run(p, &c, &res), AUCS_RUN_OK);
  uint64_t o[3] = {0};
  for (size_t i = 0; i < 3; i++)
    aucs_run_read(&res, 0, i * 8, &o[i], 8);
  assert_int_equal(o[0], 15);
  assert_true(as_f32(o[1]) == 4.0f);
  assert_int_equal(o[2], 0xfffffffdu);
  aucs_run_result_free(&res);
  aucs_prog_free(p);
  support_free(m);
}

// clang-format on

/* ---- static: uninterpreted functions ---- */

#define SDECLS                                                                 \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare float @roundf(float)\n"                                             \
  "declare i32 @__nv_umul24(i32, i32)\n"

static const aucs_static_options patient = {.timeout_ms = 600000u,
                                            .budget_ms = 3600000u};

/* @k writes and reads s[INDEX] in one barrier interval; %o is
 * (int)roundf(x) + __nv_umul24(n, m) for the kernel's arguments. */
static aucs_static_counts counts_of(const char *index_ir) {
  char *ir = aucs_xasprintf(
      "@s = internal addrspace(3) global [4096 x i32] undef\n"
      "define ptx_kernel void @k(float %%x, i32 %%n, i32 %%m) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%r = call float @roundf(float %%x)\n"
      "  %%ri = fptosi float %%r to i32\n"
      "  %%u = call i32 @__nv_umul24(i32 %%n, i32 %%m)\n"
      "  %%o = add i32 %%ri, %%u\n"
      "%s"
      "  %%p = getelementptr i32, ptr addrspace(3) @s, i32 %%i\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  %%v = load i32, ptr addrspace(3) %%p\n"
      "  ret void\n"
      "}\n" SDECLS,
      index_ir);
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
  aucs_static_counts c = aucs_static_counts_of(s);
  aucs_static_free(s);
  support_free(m);
  free(ir);
  return c;
}

static void test_libcalls_static_uniform_call_is_one_term(void **state) {
  (void)state;
  /* s[tid + o]: o is one value for both threads (a fresh symbol per thread
   * would let thread 1's tid + o1 meet thread 2's tid + o2) */
  aucs_static_counts c = counts_of("  %i = add i32 %t, %o\n");
  assert_true(c.total >= 2);
  assert_int_equal(c.unsat, c.total);
  /* s[o]: every thread writes the same slot */
  c = counts_of("  %i = add i32 %o, 0\n");
  assert_true(c.sat >= 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_libcalls_integers),
      cmocka_unit_test(test_libcalls_float_and_double),
      cmocka_unit_test(test_libcalls_bit_casts_and_conversions),
      cmocka_unit_test(test_libcalls_results_through_pointers),
      cmocka_unit_test(test_libcalls_defined_bodies),
      cmocka_unit_test(test_libcalls_mangled_forward_declarations),
      cmocka_unit_test(test_libcalls_unknown_stays_unsupported),
      cmocka_unit_test(test_libcalls_with_libdevice_linked),
      cmocka_unit_test(test_libcalls_static_uniform_call_is_one_term),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
