/*
 * test_ptx: inline PTX read as statements (detector/lower/ptx.c), lowered
 * (lower_asm.c) and run by the interpreter: the forms the CUDA headers
 * emit for half and bfloat16 (cvt, packing and unpacking mov, f16
 * arithmetic), cache-hinted loads, shfl.sync and vote.sync, exit, and
 * CUB's guarded scan step; the saturating intrinsics; and calls of
 * functions the module only declares. Expected values are worked out by
 * hand in the comments.
 */
#include "support.h"

#include "aucs/ptx.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

static aucs_ptx *parse(const char *text) {
  static aucs_ptx p;
  assert_int_equal(aucs_ptx_parse(text, strlen(text), &p), 0);
  return &p;
}

static int rejects(const char *text) {
  static aucs_ptx p;
  return aucs_ptx_parse(text, strlen(text), &p) != 0;
}

/* Run kernel @k(ptr %out, ptr %in) on `threads` threads of one block,
 * with out and in filled by the seed; out's first 64 u64 words in o. */
static aucs_run_result run(const char *ir, unsigned threads, uint64_t o[64]) {
  LLVMModuleRef m = support_parse(ir);
  aucs_prog *p = support_lower(support_fn(m, "k"));
  aucs_run_config c = {0};
  c.launch.grid = (aucs_dim3){1, 1, 1};
  c.launch.block = (aucs_dim3){threads, 1, 1};
  c.seed = 1;
  c.fill = AUCS_FILL_ZERO;
  c.keep_memory = 1;
  aucs_run_result res = {0};
  assert_int_equal(aucs_interp_run(p, &c, &res), AUCS_RUN_OK);
  for (size_t i = 0; i < 64; i++) {
    o[i] = 0;
    assert_int_equal(aucs_run_read(&res, 0, i * 8, &o[i], 8), 0);
  }
  aucs_prog_free(p);
  support_free(m);
  return res;
}

/* The message of the UNSUPPORTED finding lowering @k gives (strict or
 * not); the test frees it. */
static char *unsupported(const char *ir, int strict) {
  LLVMModuleRef m = support_parse(ir);
  aucs_prog *p = NULL;
  aucs_findings d = {0};
  aucs_lower_options o = {.strict = strict};
  assert_int_not_equal(
      aucs_interp_lower_with(support_fn(m, "k"), &o, &p, &d), 0);
  assert_null(p);
  assert_int_equal(d.n, 1);
  char *msg = strdup(d.v[0].message);
  aucs_findings_free(&d);
  support_free(m);
  return msg;
}

/* `%vN = call T asm "TEXT", "CONS"(ARGS)`, zero-extended to i64 and
 * stored to out[N] (T an integer type). */
// clang-format off
#define ASM(n, t, text, cons, args)                                            \
  "  %v" #n " = call " t " asm sideeffect \"" text "\", \"" cons "\"(" args ")\n" \
  "  %z" #n " = zext " t " %v" #n " to i64\n"                                  \
  "  %p" #n " = getelementptr i64, ptr %out, i64 " #n "\n"                     \
  "  store i64 %z" #n ", ptr %p" #n "\n"
#define ASMF(n, text, cons, args)                                              \
  "  %v" #n " = call float asm \"" text "\", \"" cons "\"(" args ")\n"         \
  "  %b" #n " = bitcast float %v" #n " to i32\n"                               \
  "  %z" #n " = zext i32 %b" #n " to i64\n"                                    \
  "  %p" #n " = getelementptr i64, ptr %out, i64 " #n "\n"                     \
  "  store i64 %z" #n ", ptr %p" #n "\n"
// clang-format on

/* ---- the parser ---- */

static void test_ptx_parse_statements(void **state) {
  (void)state;
  aucs_ptx *p = parse("{.reg .f16 low,high;\n mov.b32 {low,high}, $1;\n"
                      " mov.b16 $0, high;}");
  assert_int_equal(p->n, 2);
  assert_int_equal(p->nlocal, 2);
  assert_true(aucs_ptx_is(p->local[1].type, "f16"));
  const aucs_ptx_stmt *s = &p->s[0];
  assert_int_equal(s->ntok, 2);
  assert_true(aucs_ptx_is(s->tok[0], "mov") && aucs_ptx_is(s->tok[1], "b32"));
  assert_int_equal(s->op[0].kind, AUCS_PTX_VECTOR);
  assert_int_equal(s->op[0].n, 2);
  assert_int_equal(s->op[0].e[1].kind, AUCS_PTX_LOCAL);
  assert_int_equal(s->op[0].e[1].n, 1);
  assert_int_equal(s->op[1].e[0].kind, AUCS_PTX_ARG);
  assert_int_equal(s->op[1].e[0].n, 1);
  /* CUB's scan step: a guard, a pair; `$$` in a name; an undeclared name
   * is rejected */
  p = parse("{ .reg .pred __$$p; setp.ne.u32 __$$p, $1, 0; }");
  assert_int_equal(p->s[0].op[0].e[0].kind, AUCS_PTX_LOCAL);
  assert_true(rejects("{ .reg .pred p; shfl.sync.up.b32 r0|p, $1, 1, 0, -1; }"));
  p = parse("{ .reg .u32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, $1, $2, $3,"
            " $5; @!p add.u32 r0, r0, $4; mov.u32 $0, r0;}");
  assert_int_equal(p->n, 3);
  assert_int_equal(p->s[0].op[0].kind, AUCS_PTX_PAIR);
  assert_int_equal(p->s[0].nop, 5);
  assert_true(p->s[1].guarded);
  assert_true(p->s[1].guard.negated);
  p = parse("ld.global.nc.L1::no_allocate.v2.f32 {$0, $1}, [$2+8];");
  assert_int_equal(p->s[0].ntok, 6);
  assert_true(aucs_ptx_is(p->s[0].tok[3], "L1::no_allocate"));
  assert_int_equal(p->s[0].op[1].kind, AUCS_PTX_ADDRESS);
  assert_int_equal(p->s[0].op[1].offset, 8);
  aucs_ptx_access a;
  assert_true(aucs_ptx_access_of(&p->s[0], &a));
  assert_int_equal(a.bytes, 8);
  assert_false(a.store);
  /* immediates, special registers, comments, an empty text */
  p = parse("mov.u32 $0, %tid.x; // the thread\nmov.b32 $1, 0f3F800000;"
            " mov.u32 $2, WARP_SZ; mov.b16 $3, 0x3f80U;");
  assert_int_equal(p->n, 4);
  assert_int_equal(p->s[0].op[1].e[0].kind, AUCS_PTX_SREG);
  assert_int_equal(p->s[0].op[1].e[0].len, 5);
  assert_int_equal(p->s[1].op[1].e[0].imm, 0x3f800000);
  assert_int_equal(p->s[3].op[1].e[0].imm, 0x3f80);
  assert_int_equal(parse("")->n, 0);
  assert_true(rejects("L1: bra L1;"));
  assert_true(rejects("mov.u32 $0, undeclared;"));
  assert_true(rejects(".reg .b32 r<4>;"));
}

static void test_ptx_constraints(void **state) {
  (void)state;
  aucs_ptx_constraints c;
  const char *s = "=r,=&l,r,0,~{memory}";
  aucs_ptx_constraints_of(s, strlen(s), &c);
  assert_int_equal(c.outs, 2);
  assert_int_equal(c.ins, 2);
  assert_int_equal(c.tied[0], -1);
  assert_int_equal(c.tied[1], 0);
  assert_false(c.indirect);
  s = "=*m,r";
  aucs_ptx_constraints_of(s, strlen(s), &c);
  assert_true(c.indirect);
}

/* ---- lowering, run ---- */

static void test_ptx_half_conversions(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      /* __float2half(1/3): f32 0x3eaaaaab rounds to 0x3555 */
      ASM(0, "i16", "{  cvt.rn.f16.f32 $0, $1;}\\0A", "=h,f", "float 0x3FD5555560000000")
      /* __half2float(0x3555) = 1365 * 2^-12 = 0x3eaaa000 */
      ASMF(1, "{  cvt.f32.f16 $0, $1;}\\0A", "=f,h", "i16 13653")
      /* __floats2half2_rn(1.0, -2.0): low 0x3c00, high 0xc000 */
      ASM(2, "i32", "{.reg .f16 low,high;\\0A  cvt.rn.f16.f32 low, $1;\\0A  cvt.rn.f16.f32 high, $2;\\0A  mov.b32 $0, {low,high};}\\0A", "=r,f,f", "float 1.0, float -2.0")
      /* cvt.rn.f16x2.f32 d, hi, lo (the header passes b first) */
      ASM(3, "i32", "{ cvt.rn.f16x2.f32 $0, $2, $1; }\\0A", "=r,f,f", "float 1.0, float -2.0")
      /* __high2half(0xc0003c00) */
      ASM(4, "i16", "{.reg .f16 low,high;\\0A mov.b32 {low,high}, $1;\\0A mov.b16 $0, high;}", "=h,r", "i32 -1073726464")
      /* __bfloat162float(0x3fc0) on sm_70: {0, h} is 1.5f */
      ASMF(5, "{ mov.b32 $0, {0,$1};}\\0A", "=f,h", "i16 16320")
      /* __float2bfloat16_rn(1 + 2^-8 + 2^-9): past halfway: 0x3f81 */
      ASM(6, "i16", "{  cvt.rn.bf16.f32 $0, $1;}\\0A", "=h,f", "float 0x3FF0180000000000")
      /* __half2int_rz(-2.75 = 0xc180) = -2 */
      ASM(7, "i32", "cvt.rzi.s32.f16 $0, $1;", "=r,h", "i16 -16000")
      /* __int2half_rn(2049): a tie, even is 2048 = 0x6800 */
      ASM(8, "i16", "cvt.rn.f16.s32 $0, $1;", "=h,r", "i32 2049")
      /* hrint via "+h": 2.5 (0x4100) to even is 2.0 (0x4000) */
      ASM(9, "i16", "cvt.rni.f16.f16 $0, $0;", "=h,0", "i16 16640")
      "  ret void\n"
      "}\n";
  uint64_t o[64];
  aucs_run_result r = run(ir, 1, o);
  aucs_run_result_free(&r);
  assert_int_equal(o[0], 0x3555);
  assert_int_equal(o[1], 0x3eaaa000);
  assert_int_equal(o[2], 0xc0003c00);
  assert_int_equal(o[3], 0xc0003c00);
  assert_int_equal(o[4], 0xc000);
  assert_int_equal(o[5], 0x3fc00000);
  assert_int_equal(o[6], 0x3f81);
  assert_int_equal(o[7], 0xfffffffe);
  assert_int_equal(o[8], 0x6800);
  assert_int_equal(o[9], 0x4000);
}

static void test_ptx_half_arithmetic(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      /* 1.0 + 2^-11 is a tie in f16 (even: 1.0); fma(1.0, 2^-11,
       * 1 + 2^-10) = 1 + 3 * 2^-11, a tie between 0x3c01 and 0x3c02 */
      ASM(0, "i16", "{add.f16 $0,$1,$2;\\0A}", "=h,h,h", "i16 15360, i16 4096")
      ASM(1, "i16", "{fma.rn.f16 $0,$1,$2,$3;\\0A}", "=h,h,h,h", "i16 15360, i16 4096, i16 15361")
      /* f16x2 lanes: {1.5, 2.0} * {2.0, -0.5} = {3.0 (0x4200), -1.0 (0xbc00)} */
      ASM(2, "i32", "{mul.f16x2 $0,$1,$2;\\0A}", "=r,r,r", "i32 1073757696, i32 -1207943168")
      /* neg and abs flip and clear the sign bits */
      ASM(3, "i16", "{neg.f16 $0,$1;\\0A}", "=h,h", "i16 15360")
      ASM(4, "i32", "{abs.f16x2 $0,$1;\\0A}", "=r,r", "i32 -1140802560")
      /* __hlt(1.0, 2.0) through setp and selp */
      ASM(5, "i16", "{ .reg .pred __$$temp3;\\0A  setp.lt.f16  __$$temp3, $1, $2;\\0A  selp.u16 $0, 1, 0, __$$temp3;}", "=h,h,h", "i16 15360, i16 16384")
      ASM(6, "i16", "{ .reg .pred __$$temp3;\\0A  setp.lt.f16  __$$temp3, $1, $2;\\0A  selp.u16 $0, 1, 0, __$$temp3;}", "=h,h,h", "i16 16384, i16 15360")
      /* .sat clamps 0.75 + 0.75 to 1.0 */
      ASM(7, "i16", "{add.sat.f16 $0,$1,$2;\\0A}", "=h,h,h", "i16 14848, i16 14848")
      /* max.f32 of the header's __hmax fallback */
      ASMF(8, "{max.f32 $0,$1,$2;\\0A}", "=f,f,f", "float 1.0, float 2.0")
      /* bf16: 1.0 + 1.0 = 2.0 (0x4000) */
      ASM(9, "i16", "{ add.bf16 $0,$1,$2; }", "=h,h,h", "i16 16256, i16 16256")
      "  ret void\n"
      "}\n";
  uint64_t o[64];
  aucs_run_result r = run(ir, 1, o);
  aucs_run_result_free(&r);
  assert_int_equal(o[0], 0x3c00);
  assert_int_equal(o[1], 0x3c02);
  assert_int_equal(o[2], 0xbc004200);
  assert_int_equal(o[3], 0xbc00);
  assert_int_equal(o[4], 0x3c003c00); /* |{-1.0, -1.0}| */
  assert_int_equal(o[5], 1);
  assert_int_equal(o[6], 0);
  assert_int_equal(o[7], 0x3c00);
  assert_int_equal(o[8], 0x40000000);
  assert_int_equal(o[9], 0x4000);
}

static void test_ptx_integer_forms(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      /* __funnelshift_l(lo 0x80000001, hi 0x00000001, 1) = 0x00000003;
       * clamp at 32 gives lo; shf.r by 4 of {0x1, 0x80000000}: 0x18000000 */
      ASM(0, "i32", "shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", "i32 -2147483647, i32 1, i32 33")
      ASM(1, "i32", "shf.l.clamp.b32 $0, $1, $2, $3;", "=r,r,r,r", "i32 -2147483647, i32 1, i32 40")
      ASM(2, "i32", "shf.r.clamp.b32 $0, $1, $2, $3;", "=r,r,r,r", "i32 -2147483648, i32 1, i32 4")
      /* CUB's guarded add: the guard holds, then fails */
      ASM(3, "i32", "{ .reg .pred p; setp.ne.u32 p, $1, 0; @p add.u32 $0, $2, 5; @!p mov.u32 $0, 7; }", "=r,r,r", "i32 1, i32 10")
      ASM(4, "i32", "{ .reg .pred p; setp.ne.u32 p, $1, 0; @p add.u32 $0, $2, 5; @!p mov.u32 $0, 7; }", "=r,r,r", "i32 0, i32 10")
      /* mov.u32 WARP_SZ; signed max; sub.sat.s32 */
      ASM(5, "i32", "{mov.u32 $0, WARP_SZ;\\0A}", "=r", "")
      ASM(6, "i32", "max.s32 $0, $1, $2;", "=r,r,r", "i32 -1, i32 -5")
      ASM(7, "i32", "sub.sat.s32 $0, $1, $2;", "=r,r,r", "i32 -2147483647, i32 5")
      /* pack two u32 into a u64 */
      "  %v8 = call i64 asm \"mov.b64 $0, {$1, $2};\", \"=l,r,r\"(i32 1, i32 2)\n"
      "  %p8 = getelementptr i64, ptr %out, i64 8\n"
      "  store i64 %v8, ptr %p8\n"
      "  %sat = call i32 @llvm.usub.sat.i32(i32 3, i32 5)\n"
      "  %sat2 = call i8 @llvm.sadd.sat.i8(i8 100, i8 100)\n"
      "  %sat3 = call i16 @llvm.uadd.sat.i16(i16 65535, i16 2)\n"
      "  %sat4 = call i32 @llvm.ssub.sat.i32(i32 -2147483648, i32 1)\n"
      "  %s2 = zext i8 %sat2 to i32\n"
      "  %s3 = zext i16 %sat3 to i32\n"
      "  %q9 = getelementptr i64, ptr %out, i64 9\n"
      "  store i32 %sat, ptr %q9\n"
      "  %q10 = getelementptr i64, ptr %out, i64 10\n"
      "  store i32 %s2, ptr %q10\n"
      "  %q11 = getelementptr i64, ptr %out, i64 11\n"
      "  store i32 %s3, ptr %q11\n"
      "  %q12 = getelementptr i64, ptr %out, i64 12\n"
      "  store i32 %sat4, ptr %q12\n"
      "  ret void\n"
      "}\n"
      "declare i32 @llvm.usub.sat.i32(i32, i32)\n"
      "declare i8 @llvm.sadd.sat.i8(i8, i8)\n"
      "declare i16 @llvm.uadd.sat.i16(i16, i16)\n"
      "declare i32 @llvm.ssub.sat.i32(i32, i32)\n";
  uint64_t o[64];
  aucs_run_result r = run(ir, 1, o);
  aucs_run_result_free(&r);
  assert_int_equal(o[0], 3);          /* 33 wraps to 1 */
  assert_int_equal(o[1], 0x80000001); /* 40 clamps to 32: lo */
  assert_int_equal(o[2], 0x18000000);
  assert_int_equal(o[3], 15);
  assert_int_equal(o[4], 7);
  assert_int_equal(o[5], 32);
  assert_int_equal(o[6], 0xffffffff);
  assert_int_equal(o[7], 0x80000000); /* -2^31 + 1 - 5 saturates */
  assert_int_equal(o[8], 0x200000001);
  assert_int_equal(o[9], 0);          /* 3 - 5 stops at 0 */
  assert_int_equal(o[10], 127);       /* 200 stops at i8's top */
  assert_int_equal(o[11], 65535);
  assert_int_equal(o[12], 0x80000000);
}

/* cuda_fp16.h's hexp as the header spells it (its special cases through
 * set.eq.f16.f16 and an f16 fma), and the other forms the headers and
 * CUB use beyond the basic arithmetic. */
static const char *hexp_text = "{.reg.b32         f, C, nZ;       \\0A .reg.b16         h,r;            \\0A  mov.b16         h,$1;           \\0A  cvt.f32.f16     f,h;            \\0A  mov.b32         C, 0x3fb8aa3bU; \\0A  mov.b32         nZ, 0x80000000U;\\0A  fma.rn.f32      f,f,C,nZ;       \\0A  ex2.approx.ftz.f32  f,f;        \\0A  cvt.rn.f16.f32      r,f;        \\0A{.reg.b16 spc, ulp, p;\\0A  mov.b16 spc,0X1F79U;\\0A  mov.b16 ulp,0x9400U;\\0A  set.eq.f16.f16 p,h, spc;\\0A  fma.rn.f16 r,p,ulp,r;\\0A}\\0A{.reg.b16 spc, ulp, p;\\0A  mov.b16 spc,0X25CFU;\\0A  mov.b16 ulp,0x9400U;\\0A  set.eq.f16.f16 p,h, spc;\\0A  fma.rn.f16 r,p,ulp,r;\\0A}\\0A{.reg.b16 spc, ulp, p;\\0A  mov.b16 spc,0XC13BU;\\0A  mov.b16 ulp,0x0400U;\\0A  set.eq.f16.f16 p,h, spc;\\0A  fma.rn.f16 r,p,ulp,r;\\0A}\\0A{.reg.b16 spc, ulp, p;\\0A  mov.b16 spc,0XC1EFU;\\0A  mov.b16 ulp,0x0200U;\\0A  set.eq.f16.f16 p,h, spc;\\0A  fma.rn.f16 r,p,ulp,r;\\0A}\\0A  mov.b16         $0,r;           \\0A}";

/* tmpl with every HEXP replaced by hexp_text; free it. */
static char *with_hexp(const char *tmpl) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  for (const char *at; (at = strstr(tmpl, "HEXP")); tmpl = at + 4) {
    aucs_buf_printf(&b, "%.*s", (int)(at - tmpl), tmpl);
    aucs_buf_puts(&b, hexp_text);
  }
  aucs_buf_puts(&b, tmpl);
  return aucs_buf_take(&b);
}

static void test_ptx_header_math(void **state) {
  (void)state;
  const char *tmpl =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      /* e^0 = 1.0; e = 2.71828 lies between 2.71680 and 2.71875 (a step
       * of 2^-9 in [2, 4)), nearer the latter: 0x4000 | 368 = 0x4170 */
      ASM(0, "i16", "HEXP", "=h,h", "i16 0")
      ASM(1, "i16", "HEXP", "=h,h", "i16 15360")
      /* {1.0, 2.0} == {1.0, 3.0}: each 16-bit half all ones or zero */
      ASM(2, "i32", "{ set.eq.u32.f16x2 $0,$1,$2; }", "=r,r,r", "i32 1073757184, i32 1107311616")
      /* max.NaN keeps the NaN (canonical); plain max drops it */
      ASM(3, "i16", "{max.NaN.f16 $0,$1,$2; }", "=h,h,h", "i16 15360, i16 32256")
      ASM(4, "i16", "{max.f16 $0,$1,$2; }", "=h,h,h", "i16 15360, i16 32256")
      /* div.approx.f32 1 / 4 */
      ASM(5, "i32", "{ div.approx.f32 $0, $1, $2; }", "=r,r,r", "i32 1065353216, i32 1082130432")
      /* bmsk: 8 bits from bit 4; from bit 28 clamped at 32; wrap: from
       * bit 33 mod 32 = 1, 2 bits */
      ASM(6, "i32", "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r", "i32 4, i32 8")
      ASM(7, "i32", "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r", "i32 28, i32 8")
      ASM(8, "i32", "bmsk.wrap.b32 $0, $1, $2;", "=r,r,r", "i32 33, i32 2")
      /* rsqrt.approx.f32(4) = 0.5; an f16 sqrt through f32:
       * sqrt(2.25 = 0x4080) = 1.5 (0x3e00) */
      ASM(9, "i32", "rsqrt.approx.ftz.f32 $0, $1;", "=r,r", "i32 1082130432")
      ASM(10, "i16", "{.reg.b32 f; cvt.f32.f16 f, $1; sqrt.approx.ftz.f32 f, f; cvt.rn.f16.f32 $0, f;}", "=h,h", "i16 16512")
      "  ret void\n"
      "}\n";
  char *ir = with_hexp(tmpl);
  uint64_t o[64];
  aucs_run_result r = run(ir, 1, o);
  aucs_run_result_free(&r);
  free(ir);
  assert_int_equal(o[0], 0x3c00);
  assert_int_equal(o[1], 0x4170);
  assert_int_equal(o[2], 0x0000ffff);
  assert_int_equal(o[3], 0x7fff);
  assert_int_equal(o[4], 0x3c00);
  assert_int_equal(o[5], 0x3e800000);
  assert_int_equal(o[6], 0xff0);
  assert_int_equal(o[7], 0xf0000000);
  assert_int_equal(o[8], 0x6);
  assert_int_equal(o[9], 0x3f000000);
  assert_int_equal(o[10], 0x3e00);
}

/* Loads with a cache hint read like any load; st.global.wb writes. */
static void test_ptx_loads_and_stores(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      "  store i64 81985529216486895, ptr %in\n" /* 0x0123456789abcdef */
      ASM(0, "i32", "ld.global.nc.u32 $0, [$1];", "=r,l", "ptr %in")
      ASM(1, "i16", "ld.global.cs.b16 $0, [$1+2];", "=h,l", "ptr %in")
      ASM(2, "i32", "ld.global.nc.s8 $0, [$1];", "=r,l", "ptr %in")
      "  %v = call { i32, i32 } asm \"ld.global.nc.v2.u32 {$0, $1}, [$2];\", \"=r,=r,l\"(ptr %in)\n"
      "  %hi = extractvalue { i32, i32 } %v, 1\n"
      "  %q3 = getelementptr i64, ptr %out, i64 3\n"
      "  store i32 %hi, ptr %q3\n"
      "  %q4 = getelementptr i64, ptr %out, i64 4\n"
      "  call void asm sideeffect \"st.global.wb.b32 [$0], $1;\", \"l,r,~{memory}\"(ptr %q4, i32 77)\n"
      "  call void asm sideeffect \"prefetch.global.L2 [$0];\", \"l,~{memory}\"(ptr %in)\n"
      "  ret void\n"
      "}\n";
  uint64_t o[64];
  aucs_run_result r = run(ir, 1, o);
  aucs_run_result_free(&r);
  assert_int_equal(o[0], 0x89abcdef);
  assert_int_equal(o[1], 0x89ab);
  assert_int_equal(o[2], 0xffffffef); /* ld.s8 sign-extends 0xef */
  assert_int_equal(o[3], 0x01234567);
  assert_int_equal(o[4], 77);
}

/* A cache-hinted load is a read for race detection: thread 1 writes in[0]
 * while thread 0 reads it through ld.global.nc, in one interval. */
static void test_ptx_load_races(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %w = icmp eq i32 %t, 1\n"
      "  br i1 %w, label %write, label %read\n"
      "write:\n"
      "  store i32 5, ptr %in\n"
      "  ret void\n"
      "read:\n"
      "  %v = call i32 asm \"ld.global.nc.u32 $0, [$1];\", \"=r,l\"(ptr %in)\n"
      "  store i32 %v, ptr %out\n"
      "  ret void\n"
      "}\n"
      "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";
  uint64_t o[64];
  aucs_run_result r = run(ir, 2, o);
  int races = 0;
  for (size_t i = 0; i < r.findings.n; i++)
    races += r.findings.v[i].kind == AUCS_FINDING_RACE;
  assert_int_equal(races, 1);
  aucs_run_result_free(&r);
}

/* shfl.sync.down and vote.sync.ballot as the SDK's asm spells them, over
 * a warp of 32: out[t] = t + 1 from the lane above (the last lane keeps
 * its own), and the ballot of odd lanes. */
static void test_ptx_warp_collectives(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %v = call i32 asm sideeffect \"{shfl.sync.down.b32 $0,$1,$2,$3,$4;\\0A}\", \"=r,r,r,r,r\"(i32 %t, i32 1, i32 31, i32 -1)\n"
      "  %odd = and i32 %t, 1\n"
      "  %b = call i32 asm sideeffect \"{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.ballot.b32 $0, p, $2; }\", \"=r,r,r\"(i32 %odd, i32 -1)\n"
      "  %a = call i32 asm sideeffect \"{ .reg .pred p, q; setp.lt.u32 p, $1, 32; vote.sync.all.pred q, p, $2; selp.u32 $0, 1, 0, q; }\", \"=r,r,r\"(i32 %t, i32 -1)\n"
      "  %m = call i32 asm sideeffect \"activemask.b32 $0;\", \"=r\"()\n"
      /* CUB's match of a radix digit: vote.ballot.sync (its order of
       * tokens), then the complement where the lane's bit is clear */
      "  %c = call i32 asm sideeffect \"{\\0A .reg .pred p;\\0A and.b32 $0, $1, $2;    setp.ne.u32 p, $0, 0;\\0A vote.ballot.sync.b32 $0, p, 0xffffffff;\\0A @!p not.b32 $0, $0;\\0A}\\0A\", \"=r,r,r\"(i32 %t, i32 1)\n"
      "  %i = zext i32 %t to i64\n"
      "  %p = getelementptr i32, ptr %out, i64 %i\n"
      "  store i32 %v, ptr %p\n"
      "  %i40 = add i64 %i, 40\n"
      "  %pc = getelementptr i32, ptr %out, i64 %i40\n"
      "  store i32 %c, ptr %pc\n"
      "  %first = icmp eq i32 %t, 0\n"
      "  br i1 %first, label %one, label %done\n"
      "one:\n"
      "  %q = getelementptr i32, ptr %out, i64 32\n"
      "  store i32 %b, ptr %q\n"
      "  %q2 = getelementptr i32, ptr %out, i64 33\n"
      "  store i32 %a, ptr %q2\n"
      "  %q3 = getelementptr i32, ptr %out, i64 34\n"
      "  store i32 %m, ptr %q3\n"
      "  br label %done\n"
      "done:\n"
      "  ret void\n"
      "}\n"
      "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";
  uint64_t o[64];
  aucs_run_result r = run(ir, 32, o);
  assert_int_equal(r.findings.n, 0);
  aucs_run_result_free(&r);
  for (unsigned t = 0; t < 32; t++) {
    uint32_t v = (uint32_t)(o[t / 2] >> (32 * (t % 2)));
    assert_int_equal(v, t < 31 ? t + 1 : 31);
  }
  assert_int_equal((uint32_t)o[16], 0xaaaaaaaa);
  assert_int_equal((uint32_t)(o[16] >> 32), 1);
  assert_int_equal((uint32_t)o[17], 0xffffffff);
  assert_int_equal((uint32_t)o[20], 0x55555555);         /* lane 0: even */
  assert_int_equal((uint32_t)(o[20] >> 32), 0xaaaaaaaa); /* lane 1: odd */
}

/* exit inside a helper ends the thread: threads 2 and up never store. */
static void test_ptx_exit_ends_the_thread(void **state) {
  (void)state;
  const char *ir =
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n"
      "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  call void @stop_above(i32 %t)\n"
      "  %i = zext i32 %t to i64\n"
      "  %p = getelementptr i64, ptr %out, i64 %i\n"
      "  store i64 9, ptr %p\n"
      "  ret void\n"
      "}\n"
      "define void @stop_above(i32 %t) {\n"
      "  %c = icmp uge i32 %t, 2\n"
      "  br i1 %c, label %x, label %back\n"
      "x:\n"
      "  call void asm sideeffect \"exit;\", \"\"()\n"
      "  br label %back\n"
      "back:\n"
      "  ret void\n"
      "}\n"
      "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";
  uint64_t o[64];
  aucs_run_result r = run(ir, 4, o);
  aucs_run_result_free(&r);
  assert_int_equal(o[0], 9);
  assert_int_equal(o[1], 9);
  assert_int_equal(o[2], 0);
  assert_int_equal(o[3], 0);
}

/* Text outside the set stays unsupported, quoted with the reason. */
static void test_ptx_unknown_text_is_quoted(void **state) {
  (void)state;
  char *msg = unsupported(
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "  %v = call i32 asm \"vabsdiff2.s32.s32.s32 $0,$1,$2,$3;\", "
      "\"=r,r,r,r\"(i32 1, i32 0, i32 0)\n"
      "  store i32 %v, ptr %out\n"
      "  ret void\n"
      "}\n",
      0);
  assert_non_null(strstr(msg, "inline assembly `vabsdiff2.s32.s32.s32 "
                              "$0,$1,$2,$3;` is not supported (an "
                              "instruction aucs does not model)"));
  free(msg);
  msg = unsupported("define ptx_kernel void @k(ptr %out, ptr %in) {\n"
                    "  %v = call i16 asm \"cvt.rn.relu.f16.f32 $0, $1;\", "
                    "\"=h,f\"(float 1.0)\n"
                    "  store i16 %v, ptr %out\n"
                    "  ret void\n"
                    "}\n",
                    0);
  assert_non_null(strstr(msg, "a cvt modifier aucs does not model"));
  free(msg);
  /* a store under a guard is an effect a select cannot undo */
  msg = unsupported(
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "  call void asm sideeffect \"{ .reg .pred p; setp.eq.u32 p, $1, 0; "
      "@p st.global.u32 [$0], 1; }\", \"l,r\"(ptr %out, i32 0)\n"
      "  ret void\n"
      "}\n",
      0);
  assert_non_null(strstr(msg, "a guarded (@p) instruction with effects"));
  free(msg);
}

/* ---- functions the module only declares ---- */

static const char *declared_ir =
    "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %v = call i32 @nondet()\n"
    "  call void @bar(ptr %in)\n"
    "  %w = call i32 @nondet()\n"
    "  %s = add i32 %v, %w\n"
    "  %i = zext i32 %t to i64\n"
    "  %p = getelementptr i32, ptr %out, i64 %i\n"
    "  store i32 %s, ptr %p\n"
    "  ret void\n"
    "}\n"
    "declare i32 @nondet()\n"
    "declare void @bar(ptr)\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

static void test_ptx_declared_returns_arbitrary(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(declared_ir);
  aucs_prog *p = support_lower(support_fn(m, "k"));
  /* each callee once, at its first call */
  assert_int_equal(aucs_prog_nexternals(p), 2);
  LLVMValueRef first = aucs_prog_external(p, 0);
  size_t n;
  assert_string_equal(LLVMGetValueName2(LLVMGetCalledValue(first), &n),
                      "nondet");
  /* under the zero fill every value is 0; under random, two threads see
   * values that differ (from the seed, the thread and the call) */
  uint64_t sums[2] = {0, 0};
  for (int fill = 0; fill < 2; fill++) {
    aucs_run_config c = {0};
    c.launch.grid = (aucs_dim3){1, 1, 1};
    c.launch.block = (aucs_dim3){2, 1, 1};
    c.seed = 7;
    c.fill = fill ? AUCS_FILL_RANDOM : AUCS_FILL_ZERO;
    c.keep_memory = 1;
    aucs_run_result r = {0};
    assert_int_equal(aucs_interp_run(p, &c, &r), AUCS_RUN_OK);
    assert_int_equal(r.findings.n, 0);
    assert_int_equal(aucs_run_read(&r, 0, 0, &sums[fill], 8), 0);
    aucs_run_result_free(&r);
  }
  assert_int_equal(sums[0], 0);
  assert_int_not_equal((uint32_t)sums[1], (uint32_t)(sums[1] >> 32));
  aucs_prog_free(p);
  support_free(m);
}

static void test_ptx_declared_strict_and_pointer_results(void **state) {
  (void)state;
  char *msg = unsupported(declared_ir, 1);
  assert_non_null(strstr(msg, "calls to 'nondet' are not supported"));
  free(msg);
  msg = unsupported("define ptx_kernel void @k(ptr %out, ptr %in) {\n"
                    "  %q = call ptr @where()\n"
                    "  store i32 1, ptr %q\n"
                    "  ret void\n"
                    "}\n"
                    "declare ptr @where()\n",
                    0);
  assert_non_null(strstr(msg, "'where' is only declared and returns a value "
                              "aucs cannot invent"));
  free(msg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ptx_parse_statements),
      cmocka_unit_test(test_ptx_constraints),
      cmocka_unit_test(test_ptx_half_conversions),
      cmocka_unit_test(test_ptx_half_arithmetic),
      cmocka_unit_test(test_ptx_integer_forms),
      cmocka_unit_test(test_ptx_header_math),
      cmocka_unit_test(test_ptx_loads_and_stores),
      cmocka_unit_test(test_ptx_load_races),
      cmocka_unit_test(test_ptx_warp_collectives),
      cmocka_unit_test(test_ptx_exit_ends_the_thread),
      cmocka_unit_test(test_ptx_unknown_text_is_quoted),
      cmocka_unit_test(test_ptx_declared_returns_arbitrary),
      cmocka_unit_test(test_ptx_declared_strict_and_pointer_results),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
