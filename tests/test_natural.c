/*
 * test_natural: which inputs are size-like and their natural values (by
 * the code that compares them with thread indices, else by name), and the
 * classification of findings by one replay with natural inputs.
 */
#include "support.h"

#include "aucs/natural.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

/* k(global, local, blockSize, other, nRows, numElements, pitch) where
 * global is compared with blockIdx.x * blockDim.x + threadIdx.x, local
 * with threadIdx.y, the others with nothing. (Struct fields, named from
 * debug info, are in tests/e2e/natural.test.) */
static const char *const ir =
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "define ptx_kernel void @k(i32 %global, i32 %local, i32 %blockSize,\n"
    "                          i32 %other, i32 %nRows, i32 %numElements,\n"
    "                          i64 %pitch) {\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"
    "  %bd = mul i32 %b, %d\n"
    "  %i = add i32 %bd, %x\n"
    "  %last = sub i32 %global, 1\n"
    "  %c1 = icmp slt i32 %i, %last\n"
    "  %c2 = icmp ult i32 %y, %local\n"
    "  %c3 = and i1 %c1, %c2\n"
    "  ret void\n"
    "}\n";

/* The leaf named name of in. */
static size_t leaf(const aucs_inputs *in, const char *name) {
  long i = aucs_inputs_find(in, name, strlen(name));
  assert_true(i >= 0);
  return (size_t)i;
}

typedef struct fixture {
  LLVMModuleRef m;
  aucs_inputs *in;
  aucs_natural *n;
} fixture;

static void setup(fixture *f) {
  f->m = support_parse(ir);
  LLVMValueRef fn = support_fn(f->m, "k");
  f->in = aucs_inputs_describe(fn);
  f->n = aucs_natural_analyze(fn, f->in);
}

static void teardown(fixture *f) {
  aucs_natural_free(f->n);
  aucs_inputs_free(f->in);
  support_free(f->m); /* the module and its context */
}

static uint64_t value(const fixture *f, const char *name, aucs_launch l) {
  uint64_t v = 12345;
  assert_int_equal(aucs_natural_value(f->n, leaf(f->in, name), l, &v), 1);
  return v;
}

static int size_like(const fixture *f, const char *name) {
  uint64_t v;
  aucs_launch l = {{1, 1, 1}, {1, 1, 1}};
  return aucs_natural_value(f->n, leaf(f->in, name), l, &v);
}

static const aucs_launch launch = {{4, 2, 1}, {64, 8, 1}};

/* Compared with blockIdx.x * blockDim.x + threadIdx.x: every thread along
 * x; compared with threadIdx.y alone: the block's y. */
static void test_natural_by_code(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(value(&f, "global", launch), 256);
  assert_int_equal(value(&f, "local", launch), 8);
  teardown(&f);
}

/* Names: a size word along its axis (rows: y; of "n" and "rows" the last);
 * "block" vetoes; "other" is no size. */
static void test_natural_by_name(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(value(&f, "nRows", launch), 16);
  assert_int_equal(value(&f, "numElements", launch), 256);
  assert_int_equal(value(&f, "pitch", launch), 256);
  assert_false(size_like(&f, "blockSize"));
  assert_false(size_like(&f, "other"));
  teardown(&f);
}

/* ---- classification, with a replay that answers from a table ------------*/

typedef struct fake {
  int replays;
  int races_when_n; /* the replay finds the race when leaf "global" is it */
  size_t leaf;
  aucs_finding race;
} fake;

static int fake_replay(void *ctx, const aucs_candidate *c, aucs_findings *out) {
  fake *x = ctx;
  x->replays++;
  if ((int)c->args[x->leaf] == x->races_when_n) {
    aucs_finding g = x->race;
    aucs_findings_push(out, &g);
  }
  return 0;
}

static aucs_severity classify(fixture *f, fake *x, uint64_t searched,
                              int user_fixed, aucs_finding *out) {
  aucs_inputs_values iv;
  aucs_inputs_values_init(&iv, f->in);
  unsigned char *lset = aucs_xcalloc(f->in->n + 1, 1);
  memset(lset, 1, f->in->n);
  x->leaf = leaf(f->in, "global");
  iv.fixed[x->leaf] = (unsigned char)user_fixed;
  uint64_t *args = aucs_xcalloc(f->in->n + 1, sizeof *args);
  for (size_t j = 0; j < f->in->n; j++) /* every other leaf natural */
    aucs_natural_value(f->n, j, launch, &args[j]);
  args[x->leaf] = searched;
  aucs_candidate run = {.launch = launch, .args = args, .seed = 1};
  aucs_findings fs = {0};
  aucs_findings_push(&fs, &x->race);
  aucs_natural_kernel k = {.n = f->n,
                           .in = f->in,
                           .iv = &iv,
                           .lset = lset,
                           .replay = fake_replay,
                           .ctx = x};
  aucs_natural_classify(&k, &fs, &run, 1);
  *out = fs.v[0];
  fs.n = 0; /* *out owns the strings */
  aucs_findings_free(&fs);
  free(args);
  free(lset);
  aucs_inputs_values_free(&iv);
  return out->severity;
}

/* A race that the natural replay does not find again is a warning with
 * the inputs that matter; one it finds again, or of the user's inputs, or
 * of natural inputs already (no replay), stays an error. */
static void test_natural_classify(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  LLVMValueRef I =
      LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(support_fn(f.m, "k")));
  aucs_finding g;
  fake x = {.races_when_n = -1,
            .race = {.kind = AUCS_FINDING_RACE, .a.instr = I, .b.instr = I}};
  assert_int_equal(classify(&f, &x, 3, 0, &g), AUCS_SEVERITY_WARNING);
  assert_string_equal(g.searched, "global=3");
  assert_string_equal(g.natural, "global=256");
  assert_int_equal(x.replays, 1);
  free(g.searched);
  free(g.natural);

  x.races_when_n = 256;
  assert_int_equal(classify(&f, &x, 3, 0, &g), AUCS_SEVERITY_ERROR);
  assert_null(g.searched);
  assert_int_equal(x.replays, 2);

  x.races_when_n = -1;
  assert_int_equal(classify(&f, &x, 3, 1, &g), AUCS_SEVERITY_ERROR);
  assert_int_equal(classify(&f, &x, 256, 0, &g), AUCS_SEVERITY_ERROR);
  assert_int_equal(x.replays, 2);

  x.race.kind = AUCS_FINDING_REDUNDANT_BARRIER;
  assert_int_equal(classify(&f, &x, 3, 0, &g), AUCS_SEVERITY_ERROR);
  assert_int_equal(x.replays, 2);
  teardown(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_natural_by_code),
      cmocka_unit_test(test_natural_by_name),
      cmocka_unit_test(test_natural_classify),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
