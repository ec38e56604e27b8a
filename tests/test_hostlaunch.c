/*
 * test_hostlaunch: the launches of host code. Stub names and hand-written
 * host IR of both launch shapes always run; the .cu inputs compile against
 * the CUDA SDK at /usr/local/cuda and skip without it.
 */
#include "support.h"

#include "aucs/hostlaunch.h"
#include "aucs/module.h"
#include "aucs/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INPUTS AUCS_TEST_KERNELS "/inputs"
#define FORMS INPUTS "/hostlaunch_forms.cu"
#define SDK "/usr/local/cuda"

/* The launches of hostlaunch_forms.cu, in the order of its main. */
enum {
  L_CONST,        /* fill<<<1, 96>>>(d, 7, 2.5f, n) */
  L_MACRO,        /* fill<<<BLOCKS_FOR(n, THREADS), THREADS>>>(..., m) */
  L_OPEN,         /* fill<<<(m + 127) / 128, 128>>>(d, m, ...) */
  L_DIM3,         /* tile_sum<256><<<grid, block>>> */
  L_TEMPLATE,     /* tile_sum<256><<<8, 256>>> */
  L_SHARED,       /* rev<<<2, 128, 128 * sizeof(int)>>>(d, 128) */
  L_SHARED_OPEN,  /* rev<<<2, 256, m * sizeof(int)>>>(d, m) */
  L_NAMESPACE,    /* lib::scaled<<<3, 32>>>(u, (short)-2) */
  L_EXTERN_C,     /* axpy<<<dim3(5, 1, 3), 64>>>(y, 0.25, -9LL) */
  L_HELPER,       /* fill<<<1, b>>> in fill_with(d, 32) */
  L_DIRECT,       /* cudaLaunchKernel((const void *)rev, ...) */
  L_DIRECT_TEMPL, /* cudaLaunchKernel(rev, ...), the C++ wrapper */
  L_COOPERATIVE,  /* cudaLaunchCooperativeKernel */
  L_COUNT
};

static const char *x86_head =
    "target datalayout = \"e-m:e-i64:64-f80:128-n8:16:32:64-S128\"\n"
    "target triple = \"x86_64-unknown-linux-gnu\"\n"
    "declare i32 @__cudaPushCallConfiguration(i64, i32, i64, i32, i64, ptr)\n"
    "declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)\n"
    "declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)\n"
    "declare i32 @cudaLaunchCooperativeKernel(ptr, i64, i32, i64, i32, ptr, "
    "i64, ptr)\n";

/* axpy(float *, P, float, int) with P a struct: the stub's body says which
 * parameters are scalars. */
static const char *axpy_stub =
    "%struct.P = type { i32, i32 }\n"
    "define void @_Z19__device_stub__axpyPf1Pfi(ptr %p, i64 %q, float %a,\n"
    "                                           i32 %n) {\n"
    "  %pp = alloca ptr\n"
    "  %pq = alloca %struct.P\n"
    "  %pa = alloca float\n"
    "  %pn = alloca i32\n"
    "  %args = alloca [4 x ptr]\n"
    "  store ptr %p, ptr %pp\n"
    "  store i64 %q, ptr %pq\n"
    "  store float %a, ptr %pa\n"
    "  store i32 %n, ptr %pn\n"
    "  store ptr %pp, ptr %args\n"
    "  %s1 = getelementptr inbounds [4 x ptr], ptr %args, i64 0, i64 1\n"
    "  store ptr %pq, ptr %s1\n"
    "  %s2 = getelementptr inbounds i8, ptr %args, i64 16\n"
    "  store ptr %pa, ptr %s2\n"
    "  %s3 = getelementptr inbounds i8, ptr %args, i64 24\n"
    "  store ptr %pn, ptr %s3\n"
    "  %r = call i32 @cudaLaunchKernel(ptr @_Z19__device_stub__axpyPf1Pfi,\n"
    "         i64 0, i32 0, i64 0, i32 0, ptr %args, i64 0, ptr null)\n"
    "  ret void\n"
    "}\n";

/* The stub called (clang -O0's `icmp ne` shape), half-known dims, and a
 * cooperative launch of a stub without a body. */
static const char *stub_call_main =
    "declare void @__device_stub__ext(ptr, i32)\n"
    "define i32 @main(i32 %argc) {\n"
    "entry:\n"
    "  %x = zext i32 %argc to i64\n"
    "  %g = or disjoint i64 %x, 8589934592\n"
    "  %c = call i32 @__cudaPushCallConfiguration(i64 %g, i32 1,\n"
    "         i64 4294967552, i32 %argc, i64 64, ptr null)\n"
    "  %bad = icmp ne i32 %c, 0\n"
    "  br i1 %bad, label %next, label %ok\n"
    "ok:\n"
    "  call void @_Z19__device_stub__axpyPf1Pfi(ptr null, i64 5,\n"
    "         float -2.0, i32 %argc)\n"
    "  br label %next\n"
    "next:\n"
    "  %y = zext i32 %argc to i64\n"
    "  %h = shl i64 %y, 32\n"
    "  %g2 = or i64 %h, 7\n"
    "  %v = alloca i32\n"
    "  %arr = alloca [2 x ptr]\n"
    "  store i32 -1, ptr %v\n"
    "  %t = getelementptr inbounds i8, ptr %arr, i64 8\n"
    "  store ptr %v, ptr %t\n"
    "  %r = call i32 @cudaLaunchCooperativeKernel(ptr @__device_stub__ext,\n"
    "         i64 %g2, i32 1, i64 4294967328, i32 1, ptr %arr, i64 %y,\n"
    "         ptr null)\n"
    "  ret i32 0\n"
    "}\n";

/* The stub inlined after the push, as clang -O2 leaves it; a call between
 * the store and the launch may change an argument. */
static const char *inlined_ll =
    "define void @_Z16__device_stub__kPiii(ptr %p, i32 %n, i32 %m) {\n"
    "  %pp = alloca ptr\n"
    "  %pn = alloca i32\n"
    "  %pm = alloca i32\n"
    "  %args = alloca [3 x ptr]\n"
    "  store ptr %p, ptr %pp\n"
    "  store i32 %n, ptr %pn\n"
    "  store i32 %m, ptr %pm\n"
    "  store ptr %pp, ptr %args\n"
    "  %s1 = getelementptr inbounds i8, ptr %args, i64 8\n"
    "  store ptr %pn, ptr %s1\n"
    "  %s2 = getelementptr inbounds i8, ptr %args, i64 16\n"
    "  store ptr %pm, ptr %s2\n"
    "  %r = call i32 @cudaLaunchKernel(ptr @_Z16__device_stub__kPiii,\n"
    "         i64 0, i32 0, i64 0, i32 0, ptr %args, i64 0, ptr null)\n"
    "  ret void\n"
    "}\n"
    "declare void @touch(ptr)\n"
    "define i32 @main() {\n"
    "entry:\n"
    "  %pp = alloca ptr\n"
    "  %pn = alloca i32\n"
    "  %pm = alloca i32\n"
    "  %args = alloca [3 x ptr]\n"
    "  %cfg = alloca i64\n"
    "  %c = call i32 @__cudaPushCallConfiguration(i64 4294967298, i32 1,\n"
    "         i64 4294967424, i32 1, i64 0, ptr null)\n"
    "  %ok = icmp eq i32 %c, 0\n"
    "  br i1 %ok, label %launch, label %end\n"
    "launch:\n"
    "  store i32 9, ptr %pn\n"
    "  store i32 5, ptr %pm\n"
    "  call void @touch(ptr %pm)\n"
    "  store ptr %pp, ptr %args\n"
    "  %s1 = getelementptr inbounds i8, ptr %args, i64 8\n"
    "  store ptr %pn, ptr %s1\n"
    "  %s2 = getelementptr inbounds i8, ptr %args, i64 16\n"
    "  store ptr %pm, ptr %s2\n"
    "  %q = call i32 @__cudaPopCallConfiguration(ptr %cfg, ptr %cfg,\n"
    "         ptr %cfg, ptr %cfg)\n"
    "  %xy = load i64, ptr %cfg\n"
    "  %r = call i32 @cudaLaunchKernel(ptr @_Z16__device_stub__kPiii,\n"
    "         i64 %xy, i32 1, i64 %xy, i32 1, ptr %args, i64 0, ptr null)\n"
    "  br label %end\n"
    "end:\n"
    "  ret i32 0\n"
    "}\n";

/* ---- helpers ---- */

static int have_sdk(void) {
  return access(SDK "/include/cuda_runtime.h", R_OK) == 0;
}

static const aucs_load_options sdk_options = {.cuda_path = SDK};

/* Launches of the module made of x86_head and the given parts. */
static aucs_host_launches find_in(const char *a, const char *b) {
  char *ir = aucs_xasprintf("%s%s%s", x86_head, a, b ? b : "");
  LLVMModuleRef m = support_parse(ir);
  aucs_host_launches l;
  assert_int_equal(aucs_hostlaunch_find(m, &l), 0);
  support_free(m);
  free(ir);
  return l;
}

/* Launches of path with the SDK, expecting success. */
static aucs_host_launches load_ok(const char *path) {
  aucs_host_launches l;
  char *err = NULL;
  int rc = aucs_hostlaunch_load(path, &sdk_options, &l, &err);
  if (rc)
    print_error("unexpected error: %s\n", err);
  assert_int_equal(rc, 0);
  assert_null(err);
  return l;
}

/* hostlaunch_forms.cu's launches, compiled once for every test. */
static aucs_host_launches forms_cache;
static int forms_loaded;

static const aucs_host_launches *forms(void) {
  if (!have_sdk())
    skip();
  if (!forms_loaded) {
    forms_cache = load_ok(FORMS);
    forms_loaded = 1;
  }
  assert_int_equal(forms_cache.n, L_COUNT);
  return &forms_cache;
}

static int free_forms(void **state) {
  (void)state;
  aucs_hostlaunch_free(&forms_cache);
  return 0;
}

/* d[] against x, y, z; a negative expectation means open. */
static void expect_dim(const uint32_t *d, unsigned known, long x, long y,
                       long z) {
  long want[3] = {x, y, z};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(!!(known & (1u << i)), want[i] >= 0);
    if (want[i] >= 0)
      assert_int_equal(d[i], (uint32_t)want[i]);
  }
}

static void expect_arg(const aucs_host_launch *l, size_t i, int known,
                       uint64_t bits) {
  assert_true(i < l->nargs);
  assert_int_equal(l->args[i].known, known);
  if (known)
    assert_int_equal(l->args[i].bits, bits);
}

static void expect_where(const aucs_host_launch *l, unsigned line) {
  char *want = aucs_xasprintf("hostlaunch_forms.cu:%u", line);
  assert_non_null(l->where);
  size_t n = strlen(l->where), k = strlen(want);
  assert_true(n >= k && strcmp(l->where + n - k, want) == 0);
  free(want);
}

/* ---- stub names ---- */

static void test_hostlaunch_kernel_of_stub_names(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"_Z20__device_stub__scalePfPKffi", "_Z5scalePfPKffi"},
      {"_Z24__device_stub__block_sumILi128EEvPfPKf",
       "_Z9block_sumILi128EEvPfPKf"},
      {"_Z16__device_stub__zv", "_Z1zv"},
      {"_Z25__device_stub__abcdefghijv", "_Z10abcdefghijv"},
      {"_ZL17__device_stub__skPi", "_ZL2skPi"},
      {"_ZN2ns16__device_stub__kEPi", "_ZN2ns1kEPi"},
      {"_ZN3ns22in17__device_stub__nkEPii", "_ZN3ns22in2nkEPii"},
      {"_ZN12_GLOBAL__N_119__device_stub__anonEPi",
       "_ZN12_GLOBAL__N_14anonEPi"},
      {"_ZN3ns218__device_stub__ntkILi32EEEvPi", "_ZN3ns23ntkILi32EEEvPi"},
      {"_ZN3libL21__device_stub__scaledEPjs", "_ZN3libL6scaledEPjs"},
      {"__device_stub__axpy", "axpy"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *k = aucs_hostlaunch_kernel_of_stub(cases[i][0]);
    assert_non_null(k);
    assert_string_equal(k, cases[i][1]);
    free(k);
  }
}

static void test_hostlaunch_kernel_of_non_stubs_is_null(void **state) {
  (void)state;
  static const char *const cases[] = {
      "",
      "main",
      "_Z",
      "_ZN",
      "_Z5scalePfPKffi",
      "__device_stub__",                 /* no name after the prefix */
      "_Z15__device_stub__v",            /* likewise, mangled */
      "_Z99__device_stub__kv",           /* length past the end */
      "_ZN2ns17__device_stub__nk3fooEv", /* not the function's own name */
      "_Z3runPF17__device_stub__kvE",    /* only in a parameter type */
      "x__device_stub__k",
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    assert_null(aucs_hostlaunch_kernel_of_stub(cases[i]));
}

/* ---- hand-written host IR ---- */

static void test_hostlaunch_stub_call_and_half_known_dims(void **state) {
  (void)state;
  aucs_host_launches l = find_in(axpy_stub, stub_call_main);
  assert_int_equal(l.n, 2);
  const aucs_host_launch *a = &l.v[0];
  assert_string_equal(a->kernel, "_Z4axpyPf1Pfi");
  assert_null(a->where);
  expect_dim(a->grid, a->grid_known, -1, 2, 1);
  expect_dim(a->block, a->block_known, 256, 1, -1);
  assert_true(a->shared_known);
  assert_int_equal(a->shared, 64);
  assert_false(a->cooperative);
  assert_int_equal(a->nargs, 4);
  expect_arg(a, 0, 0, 0);
  expect_arg(a, 1, 0, 0); /* a struct, though its operand is a constant */
  expect_arg(a, 2, 1, 0xc0000000u);
  expect_arg(a, 3, 0, 0);
  const aucs_host_launch *b = &l.v[1];
  assert_string_equal(b->kernel, "ext");
  assert_true(b->cooperative);
  expect_dim(b->grid, b->grid_known, 7, -1, 1);
  expect_dim(b->block, b->block_known, 32, 1, 1);
  assert_false(b->shared_known);
  assert_int_equal(b->nargs, 2);
  expect_arg(b, 0, 0, 0);
  expect_arg(b, 1, 1, 0xffffffffu);
  aucs_hostlaunch_free(&l);
  assert_int_equal(l.n, 0);
}

static void test_hostlaunch_inlined_stub_is_one_launch(void **state) {
  (void)state;
  aucs_host_launches l = find_in(inlined_ll, NULL);
  assert_int_equal(l.n, 1);
  const aucs_host_launch *a = &l.v[0];
  assert_string_equal(a->kernel, "_Z1kPiii");
  expect_dim(a->grid, a->grid_known, 2, 1, 1);
  expect_dim(a->block, a->block_known, 128, 1, 1);
  assert_int_equal(a->nargs, 3);
  expect_arg(a, 0, 0, 0);
  expect_arg(a, 1, 1, 9);
  expect_arg(a, 2, 0, 0); /* @touch may have changed it */
  aucs_hostlaunch_free(&l);
}

/* ---- .cu inputs ---- */

static void test_hostlaunch_constant_launch(void **state) {
  (void)state;
  const aucs_host_launch *a = &forms()->v[L_CONST];
  assert_string_equal(a->kernel, "_Z4fillPiifi");
  expect_where(a, 50);
  expect_dim(a->grid, a->grid_known, 1, 1, 1);
  expect_dim(a->block, a->block_known, 96, 1, 1);
  assert_true(a->shared_known);
  assert_int_equal(a->shared, 0);
  assert_false(a->cooperative);
}

static void test_hostlaunch_scalar_arguments(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  const aucs_host_launch *a = &l->v[L_CONST], *b = &l->v[L_MACRO];
  assert_int_equal(a->nargs, 4);
  expect_arg(a, 0, 0, 0);           /* a pointer */
  expect_arg(a, 1, 1, 7);           /* int */
  expect_arg(a, 2, 1, 0x40200000u); /* 2.5f */
  expect_arg(a, 3, 1, 1000);        /* const int n */
  expect_arg(b, 1, 1, 0xfffffffcu); /* -4, from 32 bits */
  expect_arg(b, 2, 1, 0xbf800000u); /* -1.0f */
  expect_arg(b, 3, 0, 0);           /* atoi(argv[1]) */
  const aucs_host_launch *c = &l->v[L_EXTERN_C], *s = &l->v[L_NAMESPACE];
  expect_arg(c, 1, 1, 0x3fd0000000000000u); /* 0.25 */
  expect_arg(c, 2, 1, 0xfffffffffffffff7u); /* -9LL */
  expect_arg(s, 1, 1, 0xfffe);              /* (short)-2 */
}

static void test_hostlaunch_grid_from_size(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  const aucs_host_launch *k = &l->v[L_MACRO], *o = &l->v[L_OPEN];
  expect_dim(k->grid, k->grid_known, 16, 1, 1); /* (1000 + 63) / 64 */
  expect_dim(k->block, k->block_known, 64, 1, 1);
  expect_dim(o->grid, o->grid_known, -1, 1, 1); /* (m + 127) / 128 */
  expect_dim(o->block, o->block_known, 128, 1, 1);
  expect_arg(o, 1, 0, 0);
  expect_where(o, 52);
}

static void test_hostlaunch_dim3_and_template_block(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  const aucs_host_launch *d = &l->v[L_DIM3], *t = &l->v[L_TEMPLATE];
  assert_string_equal(d->kernel, "_Z8tile_sumILi256EEvPfPKf");
  expect_dim(d->grid, d->grid_known, 4, 2, 1);
  expect_dim(d->block, d->block_known, 16, 8, 2);
  assert_string_equal(t->kernel, d->kernel);
  expect_dim(t->grid, t->grid_known, 8, 1, 1);
  expect_dim(t->block, t->block_known, 256, 1, 1);
}

static void test_hostlaunch_dynamic_shared(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  const aucs_host_launch *a = &l->v[L_SHARED], *b = &l->v[L_SHARED_OPEN];
  assert_true(a->shared_known);
  assert_int_equal(a->shared, 512);
  expect_dim(a->block, a->block_known, 128, 1, 1);
  expect_arg(a, 1, 1, 128);
  assert_false(b->shared_known);
  expect_dim(b->block, b->block_known, 256, 1, 1);
}

static void test_hostlaunch_next_finds_each_launch(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  static const size_t rev[] = {L_SHARED, L_SHARED_OPEN, L_DIRECT,
                               L_DIRECT_TEMPL, L_COOPERATIVE};
  size_t at = 0;
  for (size_t i = 0; i < sizeof rev / sizeof *rev; i++) {
    at = aucs_hostlaunch_next(l, "_Z3revPii", at);
    assert_int_equal(at, rev[i]);
    at++;
  }
  assert_int_equal(aucs_hostlaunch_next(l, "_Z3revPii", at), l->n);
  assert_int_equal(aucs_hostlaunch_next(l, "_Z3revPi", 0), l->n);
  assert_int_equal(aucs_hostlaunch_next(l, "axpy", 0), L_EXTERN_C);
}

static void test_hostlaunch_namespace_and_extern_c(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  const aucs_host_launch *s = &l->v[L_NAMESPACE], *c = &l->v[L_EXTERN_C];
  assert_string_equal(s->kernel, "_ZN3lib6scaledEPjs");
  expect_dim(s->grid, s->grid_known, 3, 1, 1);
  assert_string_equal(c->kernel, "axpy");
  expect_dim(c->grid, c->grid_known, 5, 1, 3);
  expect_dim(c->block, c->block_known, 64, 1, 1);
}

static void test_hostlaunch_helper_folded_into_caller(void **state) {
  (void)state;
  const aucs_host_launch *h = &forms()->v[L_HELPER];
  assert_string_equal(h->kernel, "_Z4fillPiifi");
  expect_where(h, 41); /* the launch's line, inside the helper */
  expect_dim(h->block, h->block_known, 32, 1, 1);
  expect_arg(h, 3, 1, 32);
}

static void test_hostlaunch_direct_launches(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  const aucs_host_launch *d = &l->v[L_DIRECT], *t = &l->v[L_DIRECT_TEMPL],
                         *c = &l->v[L_COOPERATIVE];
  assert_string_equal(d->kernel, "_Z3revPii");
  expect_where(d, 63);
  expect_dim(d->grid, d->grid_known, 6, 1, 1);
  expect_dim(d->block, d->block_known, 32, 1, 1);
  assert_true(d->shared_known);
  assert_int_equal(d->shared, 256);
  assert_int_equal(d->nargs, 2);
  expect_arg(d, 0, 0, 0);
  expect_arg(d, 1, 1, 42); /* int k = 42, through the args array */
  expect_where(t, 64);     /* the wrapper in cuda_runtime.h, inlined */
  expect_dim(t->block, t->block_known, 16, 1, 1);
  assert_false(t->cooperative);
  assert_true(c->cooperative);
  expect_dim(c->grid, c->grid_known, 2, 1, 1);
  expect_dim(c->block, c->block_known, 64, 1, 1);
}

/* Every launched kernel is a function of the device side. */
static void test_hostlaunch_kernels_exist_on_device(void **state) {
  (void)state;
  const aucs_host_launches *l = forms();
  aucs_module *m = NULL;
  char *err = NULL;
  assert_int_equal(aucs_module_load(FORMS, &sdk_options, &m, &err), 0);
  for (size_t i = 0; i < l->n; i++) {
    LLVMValueRef fn = LLVMGetNamedFunction(aucs_module_llvm(m), l->v[i].kernel);
    if (!fn)
      print_error("no device function %s\n", l->v[i].kernel);
    assert_non_null(fn);
  }
  aucs_module_free(m);
}

static void test_hostlaunch_scale_input(void **state) {
  (void)state;
  if (!have_sdk())
    skip();
  aucs_host_launches l =
      load_ok(AUCS_TEST_KERNELS "/../e2e/inputs/host/scale.cu");
  assert_int_equal(l.n, 2);
  assert_string_equal(l.v[0].kernel, "_Z5scalePfPKffi");
  expect_dim(l.v[0].grid, l.v[0].grid_known, 8192, 1, 1);
  expect_arg(&l.v[0], 3, 1, 1 << 20);
  assert_string_equal(l.v[1].kernel, "_Z9block_sumILi128EEvPfPKf");
  expect_dim(l.v[1].block, l.v[1].block_known, 128, 1, 1);
  aucs_hostlaunch_free(&l);
}

/* Host code with C++ exceptions: the push and the launch are invokes; the
 * grid (n + 127) / 128 is tied to argument 1. */
static void test_hostlaunch_invoke_and_tied_grid(void **state) {
  (void)state;
  if (!have_sdk())
    skip();
  aucs_host_launches l =
      load_ok(AUCS_TEST_KERNELS "/inputs/hostlaunch_invoke.cu");
  assert_int_equal(l.n, 1);
  assert_string_equal(l.v[0].kernel, "_Z5halvePfi");
  expect_dim(l.v[0].block, l.v[0].block_known, 128, 1, 1);
  expect_dim(l.v[0].grid, l.v[0].grid_known, -1, 1, 1);
  expect_arg(&l.v[0], 1, 0, 0);
  assert_true(l.v[0].grid_expr[0].n > 0);
  assert_int_equal(l.v[0].grid_expr[1].n, 0); /* known: not computed */
  uint64_t args[2] = {0, 129}, x = 0;
  assert_int_equal(aucs_hostlaunch_eval(&l.v[0].grid_expr[0], args, 2, &x), 0);
  assert_int_equal(x, 2);
  args[1] = 128;
  assert_int_equal(aucs_hostlaunch_eval(&l.v[0].grid_expr[0], args, 2, &x), 0);
  assert_int_equal(x, 1);
  aucs_hostlaunch_free(&l);
}

/* A launch written in a header the .cu includes with quotes is read: the
 * .cu's own text has none. */
static void test_hostlaunch_launch_in_a_header(void **state) {
  (void)state;
  if (!have_sdk())
    skip();
  aucs_host_launches l =
      load_ok(AUCS_TEST_KERNELS "/inputs/hostlaunch_header.cu");
  assert_int_equal(l.n, 1);
  assert_string_equal(l.v[0].kernel, "_Z4fillPii");
  /* the helper is not inlined: n is its parameter, which its one call
   * passes 1000 (hostfold.h), and the grid computed from it folds too */
  expect_dim(l.v[0].grid, l.v[0].grid_known, 8, 1, 1);
  expect_dim(l.v[0].block, l.v[0].block_known, 128, 1, 1);
  expect_arg(&l.v[0], 1, 1, 1000);
  assert_int_equal(l.v[0].grid_expr[0].n, 0);
  assert_non_null(strstr(l.v[0].where, "hostlaunch_header.cuh:3"));
  aucs_hostlaunch_free(&l);
}

/* Limitation: a non-static helper shows twice, folded and open. */
static void test_hostlaunch_exported_helper_shows_twice(void **state) {
  (void)state;
  if (!have_sdk())
    skip();
  aucs_host_launches l = load_ok(INPUTS "/hostlaunch_twice.cu");
  assert_int_equal(l.n, 2);
  expect_dim(l.v[0].block, l.v[0].block_known, -1, 1, 1);
  expect_dim(l.v[1].block, l.v[1].block_known, 128, 1, 1);
  aucs_hostlaunch_free(&l);
}

/* ---- no launch, errors ---- */

/* Not compiled at all: without an SDK, which a compile would need. */
static void test_hostlaunch_no_launch_is_not_compiled(void **state) {
  (void)state;
  aucs_load_options o = {.no_cuda_sdk = 1};
  aucs_host_launches l = {(aucs_host_launch *)&l, 9};
  char *err = NULL;
  assert_int_equal(
      aucs_hostlaunch_load(INPUTS "/hostlaunch_none.cu", &o, &l, &err), 0);
  assert_null(err);
  assert_int_equal(l.n, 0);
  aucs_hostlaunch_free(&l);
}

static void expect_load_error(const char *path, const aucs_load_options *o,
                              const char *want) {
  aucs_host_launches l;
  char *err = NULL;
  assert_int_not_equal(aucs_hostlaunch_load(path, o, &l, &err), 0);
  assert_int_equal(l.n, 0);
  assert_non_null(err);
  char *full = aucs_xasprintf("%s: %s", path, want);
  if (strcmp(err, full))
    print_error("got  '%s'\nwant '%s'\n", err, full);
  assert_string_equal(err, full);
  free(full);
  free(err);
}

static void test_hostlaunch_without_sdk_is_an_error(void **state) {
  (void)state;
  aucs_load_options o = {.no_cuda_sdk = 1};
  expect_load_error(FORMS, &o, "host code needs a CUDA SDK (none found)");
}

static void test_hostlaunch_missing_file_is_an_error(void **state) {
  (void)state;
  expect_load_error(INPUTS "/hostlaunch_missing.cu", NULL,
                    "no such file or directory");
}

static void test_hostlaunch_compile_error_is_one_line(void **state) {
  (void)state;
  if (!have_sdk())
    skip();
  expect_load_error(INPUTS "/hostlaunch_bad.cu", &sdk_options,
                    "does not compile (host side): use of undeclared "
                    "identifier 'unknown_kernel'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hostlaunch_kernel_of_stub_names),
      cmocka_unit_test(test_hostlaunch_kernel_of_non_stubs_is_null),
      cmocka_unit_test(test_hostlaunch_stub_call_and_half_known_dims),
      cmocka_unit_test(test_hostlaunch_inlined_stub_is_one_launch),
      cmocka_unit_test(test_hostlaunch_constant_launch),
      cmocka_unit_test(test_hostlaunch_scalar_arguments),
      cmocka_unit_test(test_hostlaunch_grid_from_size),
      cmocka_unit_test(test_hostlaunch_dim3_and_template_block),
      cmocka_unit_test(test_hostlaunch_dynamic_shared),
      cmocka_unit_test(test_hostlaunch_next_finds_each_launch),
      cmocka_unit_test(test_hostlaunch_namespace_and_extern_c),
      cmocka_unit_test(test_hostlaunch_helper_folded_into_caller),
      cmocka_unit_test(test_hostlaunch_direct_launches),
      cmocka_unit_test(test_hostlaunch_kernels_exist_on_device),
      cmocka_unit_test(test_hostlaunch_invoke_and_tied_grid),
      cmocka_unit_test(test_hostlaunch_launch_in_a_header),
      cmocka_unit_test(test_hostlaunch_scale_input),
      cmocka_unit_test(test_hostlaunch_exported_helper_shows_twice),
      cmocka_unit_test(test_hostlaunch_no_launch_is_not_compiled),
      cmocka_unit_test(test_hostlaunch_without_sdk_is_an_error),
      cmocka_unit_test(test_hostlaunch_missing_file_is_an_error),
      cmocka_unit_test(test_hostlaunch_compile_error_is_one_line),
  };
  return cmocka_run_group_tests(tests, NULL, free_forms);
}
