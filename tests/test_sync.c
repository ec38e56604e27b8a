/*
 * test_sync: the vector clocks of sync.h, release by release.
 */
#include "support.h"

#include "aucs/shadow.h"
#include "aucs/sync.h"

enum { FLAG = 0x1000, DEV = AUCS_SCOPE_DEVICE, BLK = AUCS_SCOPE_BLOCK };

/* Thread 3 of block 0 (epoch 2) accesses, fences, writes FLAG (relaxed);
 * thread 5 of block 1 reads FLAG (relaxed) and fences. */
static void test_sync_fence_flag_orders_across_blocks(void **state) {
  (void)state;
  aucs_sync *s = aucs_sync_new(4);
  aucs_sync_thread a = {0}, b = {0};
  aucs_sync_thread_reset(s, &a);
  aucs_sync_thread_reset(s, &b);
  uint32_t before = aucs_sync_rel(&a);
  aucs_sync_fence(s, &a, DEV);
  uint32_t after = aucs_sync_rel(&a);
  aucs_sync_write(s, &a, FLAG, 0, 2, 3, DEV, 0, 0);
  aucs_sync_read(s, &b, FLAG, 1, DEV, 0);
  /* read, no fence yet: nothing acquired */
  assert_false(aucs_sync_covers(s, &b, 0, 2, 3, before));
  aucs_sync_fence(s, &b, DEV);
  assert_true(aucs_sync_covers(s, &b, 0, 2, 3, before));
  assert_true(aucs_sync_covers(s, &b, 0, 1, 7, 0));      /* earlier epoch */
  assert_false(aucs_sync_covers(s, &b, 0, 2, 3, after)); /* after fence */
  assert_false(aucs_sync_covers(s, &b, 0, 2, 4, 0));     /* other thread */
  assert_false(aucs_sync_covers(s, &b, 2, 0, 3, 0));     /* other block */
  aucs_sync_thread_free(&a);
  aucs_sync_thread_free(&b);
  aucs_sync_free(s);
}

static void test_sync_without_fence_nothing_is_published(void **state) {
  (void)state;
  aucs_sync *s = aucs_sync_new(4);
  aucs_sync_thread a = {0}, b = {0};
  aucs_sync_write(s, &a, FLAG, 0, 2, 3, DEV, 0, 0);
  aucs_sync_read(s, &b, FLAG, 1, DEV, 1);
  assert_false(aucs_sync_covers(s, &b, 0, 2, 3, 0));
  assert_false(aucs_sync_published(s, FLAG));
  aucs_sync_thread_free(&a);
  aucs_sync_thread_free(&b);
  aucs_sync_free(s);
}

/* Without fences the real clock orders nothing, the what-if clock does:
 * the race is a missing fence. */
static void test_sync_unfenced_hand_off_is_a_missing_fence(void **state) {
  (void)state;
  aucs_sync *s = aucs_sync_new(4);
  aucs_sync_thread a = {0}, b = {0};
  aucs_sync_thread_reset(s, &a);
  uint32_t before = aucs_sync_rel(&a);
  aucs_sync_write(s, &a, FLAG, 0, 2, 3, DEV, 0, 0);
  aucs_sync_read(s, &b, FLAG, 1, DEV, 0);
  aucs_sync_fence(s, &b, DEV);
  assert_false(aucs_sync_covers(s, &b, 0, 2, 3, before));
  assert_true(aucs_sync_covers_unfenced(s, &b, 0, 2, 3, before));
  assert_false(aucs_sync_covers_unfenced(s, &b, 0, 2, 4, before));
  aucs_sync_thread_free(&a);
  aucs_sync_thread_free(&b);
  aucs_sync_free(s);
}

static void test_sync_block_scope_stays_in_its_block(void **state) {
  (void)state;
  aucs_sync *s = aucs_sync_new(4);
  aucs_sync_thread a = {0}, b = {0}, c = {0};
  aucs_sync_write(s, &a, FLAG, 0, 2, 3, BLK, 1, 1); /* release RMW */
  aucs_sync_read(s, &b, FLAG, 1, BLK, 1);           /* another block */
  aucs_sync_read(s, &c, FLAG, 0, BLK, 1);           /* the same block */
  assert_false(aucs_sync_covers(s, &b, 0, 2, 3, 0));
  assert_true(aucs_sync_covers(s, &c, 0, 2, 3, 0));
  aucs_sync_thread_free(&a);
  aucs_sync_thread_free(&b);
  aucs_sync_thread_free(&c);
  aucs_sync_free(s);
}

/* A plain store ends the release sequence; an RMW continues it. */
static void test_sync_release_sequence(void **state) {
  (void)state;
  aucs_sync *s = aucs_sync_new(4);
  aucs_sync_thread a = {0}, b = {0}, c = {0};
  aucs_sync_write(s, &a, FLAG, 0, 2, 3, DEV, 1, 0);
  aucs_sync_write(s, &b, FLAG, 1, 0, 9, DEV, 0, 1); /* relaxed RMW */
  aucs_sync_read(s, &c, FLAG, 2, DEV, 1);
  assert_true(aucs_sync_covers(s, &c, 0, 2, 3, 0));
  aucs_sync_write(s, &b, FLAG, 1, 0, 9, DEV, 0, 0); /* relaxed store */
  aucs_sync_thread_reset(s, &c);
  aucs_sync_read(s, &c, FLAG, 2, DEV, 1);
  assert_false(aucs_sync_covers(s, &c, 0, 2, 3, 0));
  aucs_sync_thread_free(&a);
  aucs_sync_thread_free(&b);
  aucs_sync_thread_free(&c);
  aucs_sync_free(s);
}

/* A barrier hands what one thread acquired to every thread of its block,
 * and acquires what its threads read before it. */
static void test_sync_barrier_joins_the_block(void **state) {
  (void)state;
  aucs_sync *s = aucs_sync_new(4);
  aucs_sync_thread a = {0}, t0 = {0}, t1 = {0};
  aucs_sync_fence(s, &a, DEV);
  aucs_sync_write(s, &a, FLAG, 0, 2, 3, DEV, 0, 1);
  aucs_sync_read(s, &t0, FLAG, 1, DEV, 0); /* relaxed: pending */
  aucs_sync_barrier_gather(s, &t0, 1);
  aucs_sync_barrier_gather(s, &t1, 0);
  aucs_sync_barrier_scatter(s, &t0);
  aucs_sync_barrier_scatter(s, &t1);
  assert_true(aucs_sync_covers(s, &t1, 0, 2, 3, 0));
  aucs_sync_thread_free(&a);
  aucs_sync_thread_free(&t0);
  aucs_sync_thread_free(&t1);
  aucs_sync_free(s);
}

/* Two releases of one epoch by different threads: the join keeps one (the
 * order is under-approximated, never over). */
static void test_sync_join_never_invents_order(void **state) {
  (void)state;
  aucs_sync *s = aucs_sync_new(2);
  aucs_sync_thread a = {0}, b = {0}, c = {0};
  aucs_sync_fence(s, &a, DEV);
  aucs_sync_write(s, &a, FLAG, 0, 2, 3, DEV, 0, 1);
  aucs_sync_fence(s, &b, DEV);
  aucs_sync_write(s, &b, FLAG, 0, 2, 4, DEV, 0, 1);
  aucs_sync_read(s, &c, FLAG, 1, DEV, 1);
  int n =
      aucs_sync_covers(s, &c, 0, 2, 3, 0) + aucs_sync_covers(s, &c, 0, 2, 4, 0);
  assert_true(n <= 2);
  assert_false(aucs_sync_covers(s, &c, 0, 2, 5, 0));
  assert_false(aucs_sync_covers(s, &c, 0, 3, 3, 0)); /* a later epoch */
  aucs_sync_thread_free(&a);
  aucs_sync_thread_free(&b);
  aucs_sync_thread_free(&c);
  aucs_sync_free(s);
}

static void test_sync_narrow_atomics_conflict_between_blocks(void **state) {
  (void)state;
  aucs_shadow_grid_cell g = {0};
  aucs_shadow_rec wide = aucs_shadow_rec_make(1, 0, 1, 1, 0);
  aucs_shadow_rec narrow = aucs_shadow_rec_sync(wide, 0, 1, 1);
  uint32_t ob = 9, oep = 9;
  assert_int_equal(aucs_shadow_grid_access_ep(&g, 0, 4, wide, &ob, &oep), 0);
  assert_int_equal(aucs_shadow_grid_access_ep(&g, 1, 0, wide, &ob, &oep), 0);
  assert_int_equal(aucs_shadow_grid_access_ep(&g, 2, 1, narrow, &ob, &oep),
                   wide);
  assert_int_equal(ob, 1);
  assert_int_equal(oep, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sync_fence_flag_orders_across_blocks),
      cmocka_unit_test(test_sync_without_fence_nothing_is_published),
      cmocka_unit_test(test_sync_unfenced_hand_off_is_a_missing_fence),
      cmocka_unit_test(test_sync_block_scope_stays_in_its_block),
      cmocka_unit_test(test_sync_release_sequence),
      cmocka_unit_test(test_sync_barrier_joins_the_block),
      cmocka_unit_test(test_sync_join_never_invents_order),
      cmocka_unit_test(test_sync_narrow_atomics_conflict_between_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
