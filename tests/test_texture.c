/*
 * test_texture: texture fetches and surface accesses in the interpreter
 * (lower_tex.c, interp_tex.c), in their llvm.nvvm intrinsic spellings (the
 * corpus covers the SDK's inline asm): fetches are pure reads of a clamped
 * image, surfaces are memory with the three boundary modes, and
 * texture-incoherent pairs a write of a texture's buffer with a fetch of
 * the written element.
 */
#include "interp_fx.h"

#include "aucs/inputs.h"

/* One block of `block` threads with these arguments and textures. */
static void run_tex(fx *f, unsigned block, const uint64_t *args,
                    const aucs_inputs_setting *tex, size_t ntex) {
  aucs_run_config c = config(1, block);
  c.args = args;
  c.textures = tex;
  c.ntextures = ntex;
  assert_int_equal(run_fx(f, &c), AUCS_RUN_OK);
}

static uint32_t out32(fx *f, size_t param, size_t i) {
  uint32_t v = 0;
  assert_int_equal(aucs_run_read(&f->res, param, i * 4, &v, 4), 0);
  return v;
}

#define DECLS                                                                  \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare {float, float, float, float} "                                      \
  "@llvm.nvvm.tex.unified.1d.v4f32.s32(i64, i32)\n"                            \
  "declare void @llvm.nvvm.sust.b.2d.i32.trap(i64, i32, i32, i32)\n"           \
  "declare i32 @llvm.nvvm.suld.2d.i32.trap(i64, i32, i32)\n"                   \
  "declare i32 @llvm.nvvm.suld.1d.i32.trap(i64, i32)\n"                        \
  "declare i32 @llvm.nvvm.suld.1d.i32.zero(i64, i32)\n"                        \
  "declare i32 @llvm.nvvm.suld.1d.i32.clamp(i64, i32)\n"

/* Each thread fetches texel 3 twice, texel -5 (clamped to 0) and texel 0,
 * and stores the x components at out[4 * tid ..]. */
static const char *fetch_ir =
    DECLS "define void @fetch(ptr %out, i64 %t) {\n"
          "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
          "  %a = call {float, float, float, float} "
          "@llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %t, i32 3)\n"
          "  %b = call {float, float, float, float} "
          "@llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %t, i32 3)\n"
          "  %c = call {float, float, float, float} "
          "@llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %t, i32 -5)\n"
          "  %d = call {float, float, float, float} "
          "@llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %t, i32 0)\n"
          "  %ax = extractvalue {float, float, float, float} %a, 0\n"
          "  %bx = extractvalue {float, float, float, float} %b, 0\n"
          "  %cx = extractvalue {float, float, float, float} %c, 0\n"
          "  %dx = extractvalue {float, float, float, float} %d, 0\n"
          "  %i = shl i32 %tid, 2\n"
          "  %p0 = getelementptr float, ptr %out, i32 %i\n"
          "  store float %ax, ptr %p0\n"
          "  %p1 = getelementptr float, ptr %p0, i32 1\n"
          "  store float %bx, ptr %p1\n"
          "  %p2 = getelementptr float, ptr %p0, i32 2\n"
          "  store float %cx, ptr %p2\n"
          "  %p3 = getelementptr float, ptr %p0, i32 3\n"
          "  store float %dx, ptr %p3\n"
          "  ret void\n"
          "}\n";

static void test_texture_fetch_is_a_pure_clamped_read(void **state) {
  (void)state;
  fx f;
  load_fx(&f, fetch_ir, "fetch");
  const uint64_t args[] = {0, 7};
  run_tex(&f, 8, args, NULL, 0);
  assert_int_equal(f.res.findings.n, 0); /* every thread fetches texel 3 */
  assert_int_equal(out32(&f, 0, 0), out32(&f, 0, 1));
  assert_int_equal(out32(&f, 0, 2), out32(&f, 0, 3)); /* -5 clamps to 0 */
  assert_int_equal(out32(&f, 0, 0), out32(&f, 0, 4)); /* thread 1 agrees */
  float x;
  uint32_t bits = out32(&f, 0, 0);
  memcpy(&x, &bits, 4);
  assert_true(x >= 0.0f && x < 1.0f); /* a normalised texel (random fill) */
  free_fx(&f);
}

/* Thread tid writes tid to texel (tid / div, 0) and reads it back into
 * out[tid]: div 2 makes two threads share a texel. */
static const char *surf_ir =
    DECLS "define void @surf(ptr %out, i64 %s, i32 %div) {\n"
          "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
          "  %x0 = udiv i32 %tid, %div\n"
          "  %x = shl i32 %x0, 2\n"
          "  call void @llvm.nvvm.sust.b.2d.i32.trap(i64 %s, i32 %x, i32 0, "
          "i32 %tid)\n"
          "  %v = call i32 @llvm.nvvm.suld.2d.i32.trap(i64 %s, i32 %x, i32 0)\n"
          "  %p = getelementptr i32, ptr %out, i32 %tid\n"
          "  store i32 %v, ptr %p\n"
          "  ret void\n"
          "}\n";

static void test_texture_surface_is_memory(void **state) {
  (void)state;
  fx f;
  load_fx(&f, surf_ir, "surf");
  const uint64_t own[] = {0, 9, 1};
  run_tex(&f, 8, own, NULL, 0);
  assert_int_equal(f.res.findings.n, 0);
  for (uint32_t t = 0; t < 8; t++)
    assert_int_equal(out32(&f, 0, t), t); /* each reads its own write */
  const uint64_t shared[] = {0, 9, 2};
  run_tex(&f, 8, shared, NULL, 0);
  assert_true(count(&f, AUCS_FINDING_RACE) >= 1);
  free_fx(&f);
}

/* One thread reads column -1 under each boundary mode. */
static const char *modes_ir =
    DECLS "define void @modes(ptr %out, i64 %s) {\n"
          "  %t = call i32 @llvm.nvvm.suld.1d.i32.trap(i64 %s, i32 -4)\n"
          "  %z = call i32 @llvm.nvvm.suld.1d.i32.zero(i64 %s, i32 -4)\n"
          "  %c = call i32 @llvm.nvvm.suld.1d.i32.clamp(i64 %s, i32 -4)\n"
          "  store i32 %t, ptr %out\n"
          "  %p1 = getelementptr i32, ptr %out, i32 1\n"
          "  store i32 %z, ptr %p1\n"
          "  ret void\n"
          "}\n";

static void test_texture_surface_boundary_modes(void **state) {
  (void)state;
  fx f;
  load_fx(&f, modes_ir, "modes");
  const uint64_t args[] = {0, 9};
  run_tex(&f, 1, args, NULL, 0);
  /* trap: out of bounds (and reads 0); zero: 0, no finding; clamp: none */
  assert_int_equal(count(&f, AUCS_FINDING_OUT_OF_BOUNDS), 1);
  assert_int_equal(f.res.findings.n, 1);
  assert_int_equal(out32(&f, 0, 0), 0);
  assert_int_equal(out32(&f, 0, 1), 0);
  free_fx(&f);
}

/* Thread tid writes data[tid], then fetches element tid + 1 of the texture
 * (`ahead`) or element tid (`own`). */
static const char *incoherent_ir =
    DECLS "define void @inc(i64 %t, ptr %data, i32 %ahead) {\n"
          "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
          "  %p = getelementptr float, ptr %data, i32 %tid\n"
          "  store float 1.0, ptr %p\n"
          "  %n = add i32 %tid, %ahead\n"
          "  %f = call {float, float, float, float} "
          "@llvm.nvvm.tex.unified.1d.v4f32.s32(i64 %t, i32 %n)\n"
          "  ret void\n"
          "}\n";

static void test_texture_incoherent_needs_a_written_element(void **state) {
  (void)state;
  fx f;
  load_fx(&f, incoherent_ir, "inc");
  aucs_inputs_setting map = {(char *)"t", (char *)"data"};
  const uint64_t ahead[] = {5, 0, 1};
  run_tex(&f, 4, ahead, NULL, 0);
  assert_int_equal(f.res.findings.n, 0); /* no --texture: nothing */
  run_tex(&f, 4, ahead, &map, 1);
  assert_int_equal(count(&f, AUCS_FINDING_TEXTURE_INCOHERENT), 1);
  const aucs_finding *x = &f.res.findings.v[0];
  assert_int_equal(LLVMGetInstructionOpcode(x->a.instr), LLVMStore);
  assert_int_equal(LLVMGetInstructionOpcode(x->b.instr), LLVMCall);
  assert_int_equal(x->b.thread.x, 0); /* fetched before thread 1 wrote */
  const uint64_t own[] = {5, 0, 0};
  run_tex(&f, 4, own, &map, 1); /* its own write: stale in the cache too */
  assert_int_equal(count(&f, AUCS_FINDING_TEXTURE_INCOHERENT), 1);
  aucs_inputs_setting other = {(char *)"u", (char *)"data"};
  run_tex(&f, 4, ahead, &other, 1); /* another texture: nothing */
  assert_int_equal(f.res.findings.n, 0);
  free_fx(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_texture_fetch_is_a_pure_clamped_read),
      cmocka_unit_test(test_texture_surface_is_memory),
      cmocka_unit_test(test_texture_surface_boundary_modes),
      cmocka_unit_test(test_texture_incoherent_needs_a_written_element),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
