/*
 * test_patch_loop: the source form of a loop made uniform
 * (repair/patch/patch_loop.c) on CUDA text and edit logs built by hand: the
 * rewrite of each exit and barrier, the edits it carries, and the clean
 * refusal of each shape it does not rewrite exactly.
 */
#include "support.h"

#include "../repair/patch/patch_impl.h"

#include "aucs/editlog.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct run {
  pt_text t;
  aucs_editlog log;
  pt_hunk h;
  unsigned char carry[8];
  const char *why;
} run;

/* An edit of kind k at line l of k.cu in function "k". */
static void edit(run *r, aucs_edit_kind k, unsigned l, const char *src_edit,
                 unsigned id) {
  aucs_edit e = {.kind = k, .id = id, .finding_index = 0};
  e.function = aucs_xstrdup("k");
  e.source = aucs_xasprintf("k.cu:%u:3", l);
  e.source_edit = src_edit ? aucs_xstrdup(src_edit) : NULL;
  aucs_editlog_push(&r->log, &e);
}

/* The form of the loop at line `head` of text, after the edits of r. */
static void form(run *r, const char *text, unsigned head) {
  char *path = support_write_file("k.cu", text, strlen(text));
  assert_int_equal(pt_text_read(&r->t, path), 0);
  free(path);
  edit(r, AUCS_EDIT_UNIFORMIZE_LOOP, head, NULL, 0);
  /* the loop edit first, as the repair logs it */
  aucs_edit last = r->log.v[r->log.n - 1];
  memmove(r->log.v + 1, r->log.v, (r->log.n - 1) * sizeof(aucs_edit));
  r->log.v[0] = last;
  pt_names names = {.t = &r->t};
  r->why =
      pt_form_loop(&r->t, &r->log, 0, "k.cu", NULL, &names, &r->h, r->carry);
  aucs_buf_free(&names.used);
}

static void done(run *r) {
  pt_hunk_free(&r->h);
  pt_text_free(&r->t);
  aucs_editlog_free(&r->log);
}

static const char *head =
    "__global__ void k(float *out, const float *in, int n) {\n"
    "  __shared__ float s[64];\n"
    "  int t = threadIdx.x;\n";

static void test_patch_loop_for_break_hoist(void **state) {
  (void)state;
  char *text = aucs_xasprintf("%s"
                              "  for (int r = 0; r < t; r++) {\n"
                              "    float v = in[r];\n"
                              "    if (v > 1.0f) break;\n"
                              "    s[t] = v;\n"
                              "    __syncthreads();\n"
                              "    out[r] = s[63 - t] + v;\n"
                              "  }\n"
                              "  out[t] = 0;\n"
                              "}\n",
                              head);
  run r = {0};
  edit(&r, AUCS_EDIT_FLATTEN_EXIT, 8, NULL, 7);
  form(&r, text, 4);
  assert_null(r.why);
  assert_int_equal(r.h.from, 4);
  assert_int_equal(r.h.to, 10);
  assert_string_equal(r.h.text.data, "  {\n"
                                     "    int r = 0;\n"
                                     "    bool active = r < t;\n"
                                     "    while (__syncthreads_or(active)) {\n"
                                     "      float v;\n"
                                     "      if (active) {\n"
                                     "        v = in[r];\n"
                                     "        if (v > 1.0f) active = false;\n"
                                     "      }\n"
                                     "      if (active) {\n"
                                     "        s[t] = v;\n"
                                     "      }\n"
                                     "      __syncthreads();\n"
                                     "      if (active) {\n"
                                     "        out[r] = s[63 - t] + v;\n"
                                     "        r++;\n"
                                     "        active = r < t;\n"
                                     "      }\n"
                                     "    }\n"
                                     "  }\n");
  assert_int_equal(r.carry[1], 1); /* the flatten-exit at the barrier */
  done(&r);
  free(text);
}

/* The barrier inserted before a statement of the body cuts it; the deleted
 * one (matched through the flatten-exit that kept it, by id) goes. */
static void test_patch_loop_while_insert_delete(void **state) {
  (void)state;
  char *text = aucs_xasprintf("%s"
                              "  int w = t;\n"
                              "  while (w < n) {\n"
                              "    s[t] = in[w];\n"
                              "    out[w] = s[63 - t];\n"
                              "    __syncthreads();\n"
                              "    w += 64;\n"
                              "  }\n"
                              "}\n",
                              head);
  run r = {0};
  edit(&r, AUCS_EDIT_INSERT_BARRIER, 7, "insert __syncthreads(); before k.cu:7",
       3);
  edit(&r, AUCS_EDIT_FLATTEN_EXIT, 8, NULL, 9);
  edit(&r, AUCS_EDIT_DELETE_BARRIER, 6, NULL, 9);
  form(&r, text, 5);
  assert_null(r.why);
  assert_string_equal(r.h.text.data, "  bool active = w < n;\n"
                                     "  while (__syncthreads_or(active)) {\n"
                                     "    if (active) {\n"
                                     "      s[t] = in[w];\n"
                                     "    }\n"
                                     "    __syncthreads();\n"
                                     "    if (active) {\n"
                                     "      out[w] = s[63 - t];\n"
                                     "      w += 64;\n"
                                     "      active = w < n;\n"
                                     "    }\n"
                                     "  }\n");
  assert_true(r.carry[1] && r.carry[2] && r.carry[3]);
  done(&r);
  free(text);
}

/* The flattening of the body under `active` (and its block split) is the
 * runs of the rewrite: carried, with the barrier inserted before line 6
 * standing in for the deleted one at line 5. */
static void test_patch_loop_flattened_body(void **state) {
  (void)state;
  char *text = aucs_xasprintf("%s"
                              "  for (int r = 0; r < t; r++) {\n"
                              "    __syncthreads();\n"
                              "    s[t] = in[r];\n"
                              "    out[r] = s[63 - t];\n"
                              "  }\n"
                              "}\n",
                              head);
  run r = {0};
  edit(&r, AUCS_EDIT_DELETE_BARRIER, 5, "delete the __syncthreads(); at k.cu:5",
       4);
  edit(&r, AUCS_EDIT_SPLIT_BLOCK, 7, NULL, 5);
  edit(&r, AUCS_EDIT_FLATTEN_REGION, 7, NULL, 0);
  r.log.v[2].where = aucs_xstrdup("region %uni.body3 .. %uni.head2");
  edit(&r, AUCS_EDIT_INSERT_BARRIER, 7, "insert __syncthreads(); before k.cu:7",
       6);
  form(&r, text, 4);
  assert_null(r.why);
  assert_non_null(strstr(r.h.text.data, "      if (active) {\n"
                                        "        s[t] = in[r];\n"
                                        "      }\n"
                                        "      __syncthreads();\n"
                                        "      if (active) {\n"
                                        "        out[r] = s[63 - t];\n"
                                        "        r++;\n"));
  assert_null(strstr(strstr(r.h.text.data, "while"), "__syncthreads();\n"
                                                     "      if (active) {\n"
                                                     "        s[t]"));
  assert_true(r.carry[1] && r.carry[2] && r.carry[3] && r.carry[4]);
  done(&r);
  free(text);
}

/* A barrier inserted before the loop's header goes before the rewrite,
 * unless the repair deleted it again (`__syncthreads_or` orders the same
 * pairs); either way the loop's hunk carries it. */
static void test_patch_loop_barrier_before(void **state) {
  (void)state;
  char *text = aucs_xasprintf("%s"
                              "  s[t] = in[t];\n"
                              "  while (t < n) {\n"
                              "    out[t] = s[63 - t];\n"
                              "    __syncthreads();\n"
                              "  }\n"
                              "}\n",
                              head);
  for (int again = 0; again < 2; again++) {
    run r = {0};
    edit(&r, AUCS_EDIT_INSERT_BARRIER, 5,
         "insert __syncthreads(); before k.cu:5", 8);
    if (again)
      edit(&r, AUCS_EDIT_DELETE_BARRIER, 5, NULL, 8);
    form(&r, text, 5);
    assert_null(r.why);
    assert_int_equal(r.h.from, 5);
    const char *first = again ? "  bool active = t < n;\n"
                              : "  __syncthreads();\n"
                                "  bool active = t < n;\n";
    assert_int_equal(strncmp(r.h.text.data, first, strlen(first)), 0);
    assert_true(r.carry[1] && (!again || r.carry[2]));
    done(&r);
  }
  free(text);
}

/* A braced exit ending in `return` at the kernel's last statement; a
 * `continue` of a nested loop is that loop's. */
static void test_patch_loop_return_nested_continue(void **state) {
  (void)state;
  char *text = aucs_xasprintf("%s"
                              "  for (int r = 0; r < t; r++) {\n"
                              "    for (int j = 0; j < 4; j++)\n"
                              "      if (j == r)\n"
                              "        continue;\n"
                              "    if (in[r] < 0) {\n"
                              "      out[t] = r;\n"
                              "      return;\n"
                              "    }\n"
                              "    __syncthreads();\n"
                              "  }\n"
                              "}\n",
                              head);
  run r = {0};
  form(&r, text, 4);
  assert_null(r.why);
  assert_non_null(strstr(r.h.text.data, "\n          out[t] = r;\n"
                                        "          active = false;\n"
                                        "        }\n"
                                        "      }\n"
                                        "      __syncthreads();\n"));
  assert_non_null(strstr(r.h.text.data, "\n            continue;\n"));
  done(&r);
  free(text);
}

/* Each shape the form does not rewrite exactly: its reason. */
static void refuses(const char *loop, const char *after, const char *why) {
  char *text = aucs_xasprintf("%s%s%s}\n", head, loop, after);
  run r = {0};
  form(&r, text, 4);
  assert_non_null(r.why);
  assert_non_null(strstr(r.why, why));
  assert_int_equal(r.h.n, 0);
  done(&r);
  free(text);
}

static void test_patch_loop_refusals(void **state) {
  (void)state;
  refuses("  for (int r = 0; r < t; r++) {\n"
          "    if (r == 2) continue;\n"
          "    __syncthreads();\n"
          "  }\n",
          "", "has a `continue`");
  refuses("  for (int r = 0; r < t; r++) {\n"
          "    if (r == 2) return;\n"
          "    __syncthreads();\n"
          "  }\n",
          "  out[t] = 1;\n", "would skip code after the loop");
  refuses("  for (int r = 0; r < t; r++) {\n"
          "    if (r == 2) { out[t] = 1; break; s[t] = 0; }\n"
          "    __syncthreads();\n"
          "  }\n",
          "", "is not the last statement of an `if`");
  refuses("  for (int r = 0;\n"
          "       r < t; r++) {\n"
          "    __syncthreads();\n"
          "  }\n",
          "", "the loop's header is not");
  refuses("  for (int r = 0; r < t; r++)\n"
          "  {\n"
          "    __syncthreads();\n"
          "  }\n",
          "", "nor one line");
  refuses("  for (int r = 0; r < t; r++) {\n"
          "    if (r < n) {\n"
          "      __syncthreads();\n"
          "    }\n"
          "  }\n",
          "", "not a `__syncthreads();` line of its own");
  refuses("  do {\n"
          "    __syncthreads();\n"
          "  } while (t < n);\n",
          "", "does not begin at a `for` or `while` line");
  refuses("  for (int r = 0; r < t; r++) {\n"
          "#pragma unroll\n"
          "    __syncthreads();\n"
          "  }\n",
          "", "preprocessor line");
}

/* Another edit inside the loop's lines that is no barrier of its body. */
static void test_patch_loop_refuses_other_edits(void **state) {
  (void)state;
  char *text = aucs_xasprintf("%s"
                              "  for (int r = 0; r < t; r++) {\n"
                              "    s[t] = in[r];\n"
                              "    __syncthreads();\n"
                              "  }\n"
                              "}\n",
                              head);
  run r = {0};
  edit(&r, AUCS_EDIT_FLATTEN_REGION, 5, NULL, 0);
  form(&r, text, 4);
  assert_non_null(r.why);
  assert_non_null(strstr(r.why, "flattened apart from the loop's guard"));
  done(&r);
  run q = {0};
  edit(&q, AUCS_EDIT_UNIFORMIZE_LOOP, 4, NULL, 0);
  q.log.v[0].source_edit =
      aucs_xstrdup("rewrite the loop at k.cu:4 as `bool active = <the "
                   "condition around the loop>; ...`");
  char *path = support_write_file("k.cu", text, strlen(text));
  assert_int_equal(pt_text_read(&q.t, path), 0);
  free(path);
  pt_names names = {.t = &q.t};
  q.why = pt_form_loop(&q.t, &q.log, 0, "k.cu", NULL, &names, &q.h, q.carry);
  aucs_buf_free(&names.used);
  assert_non_null(q.why);
  assert_non_null(strstr(q.why, "divergent region the repair flattened"));
  done(&q);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_patch_loop_for_break_hoist),
      cmocka_unit_test(test_patch_loop_while_insert_delete),
      cmocka_unit_test(test_patch_loop_flattened_body),
      cmocka_unit_test(test_patch_loop_barrier_before),
      cmocka_unit_test(test_patch_loop_return_nested_continue),
      cmocka_unit_test(test_patch_loop_refusals),
      cmocka_unit_test(test_patch_loop_refuses_other_edits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
