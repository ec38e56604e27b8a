/*
 * test_shadow: the conflict rules of shadow memory, cell by cell.
 */
#include "support.h"

#include "aucs/shadow.h"

static aucs_shadow_rec rd(uint32_t pc, uint32_t tid) {
  return aucs_shadow_rec_make(pc, tid, 0, 0, 0);
}
static aucs_shadow_rec wr(uint32_t pc, uint32_t tid) {
  return aucs_shadow_rec_make(pc, tid, 1, 0, 0);
}
static aucs_shadow_rec at(uint32_t pc, uint32_t tid) {
  return aucs_shadow_rec_make(pc, tid, 1, 1, 0);
}

static aucs_shadow_hit touch_cell(aucs_shadow_cell *c, uint32_t epoch,
                                  aucs_shadow_rec r, int lockstep) {
  aucs_shadow_hit h;
  aucs_shadow_access(c, epoch, r, lockstep, &h);
  return h;
}

static void test_shadow_rec_round_trip(void **state) {
  (void)state;
  aucs_shadow_rec r = aucs_shadow_rec_make(123456, 1023, 1, 1, 7);
  assert_int_equal(aucs_shadow_rec_pc(r), 123456);
  assert_int_equal(aucs_shadow_rec_tid(r), 1023);
  assert_int_equal(aucs_shadow_rec_write(r), 1);
  assert_int_equal(aucs_shadow_rec_atomic(r), 1);
  assert_int_equal(aucs_shadow_rec_wphase(r), 7);
  assert_int_equal(aucs_shadow_rec_op(r), AUCS_OP_ATOMIC);
  assert_int_equal(aucs_shadow_rec_op(rd(1, 0)), AUCS_OP_READ);
  assert_true(rd(0, 0) != 0); /* thread 0 at pc 0 is still an access */
}

/* The critical-section bit (locks.c) is its own: it changes no other field,
 * and none of them sets it. */
static void test_shadow_rec_locked_bit_is_its_own(void **state) {
  (void)state;
  aucs_shadow_rec r = aucs_shadow_rec_sync(
      aucs_shadow_rec_make(AUCS_SHADOW_MAX_PC, AUCS_SHADOW_MAX_THREADS - 1, 1,
                           1, 0xffff),
      255, 1, 1);
  assert_false(aucs_shadow_rec_locked(r));
  aucs_shadow_rec l = aucs_shadow_rec_lock(r);
  assert_true(aucs_shadow_rec_locked(l));
  assert_int_equal(aucs_shadow_rec_pc(l), AUCS_SHADOW_MAX_PC);
  assert_int_equal(aucs_shadow_rec_tid(l), AUCS_SHADOW_MAX_THREADS - 1);
  assert_int_equal(aucs_shadow_rec_wphase(l), 0xffff);
  assert_int_equal(aucs_shadow_rec_rel(l), 255);
  assert_true(aucs_shadow_rec_narrow(l) && aucs_shadow_rec_strong(l));
  assert_true(aucs_shadow_rec_write(l) && aucs_shadow_rec_atomic(l));
  assert_true(aucs_shadow_rec_locked(aucs_shadow_rec_lock(rd(1, 2))));
  assert_false(aucs_shadow_rec_locked(rd(1, 2)));
}

static void test_shadow_same_thread_never_races(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  assert_int_equal(touch_cell(&c, 1, wr(1, 5), 0).race, 0);
  assert_int_equal(touch_cell(&c, 1, rd(2, 5), 0).race, 0);
  assert_int_equal(touch_cell(&c, 1, wr(3, 5), 0).race, 0);
}

static void test_shadow_read_read_is_no_race(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 1, rd(1, 0), 0);
  assert_int_equal(touch_cell(&c, 1, rd(1, 40), 0).race, 0);
}

static void test_shadow_write_then_read_races(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 1, wr(10, 0), 0);
  aucs_shadow_hit h = touch_cell(&c, 1, rd(20, 33), 0);
  assert_int_equal(aucs_shadow_rec_pc(h.race), 10);
  assert_int_equal(aucs_shadow_rec_tid(h.race), 0);
}

static void test_shadow_write_finds_a_reader_of_another_thread(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 1, rd(1, 3), 0);
  touch_cell(&c, 1, rd(2, 40), 0);
  /* thread 3 writes: its own read is no conflict, thread 40's is */
  aucs_shadow_hit h = touch_cell(&c, 1, wr(3, 3), 0);
  assert_int_equal(aucs_shadow_rec_tid(h.race), 40);
  assert_int_equal(aucs_shadow_rec_pc(h.race), 2);
}

static void test_shadow_atomics_never_race_with_atomics(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 1, at(1, 0), 0);
  assert_int_equal(touch_cell(&c, 1, at(1, 64), 0).race, 0);
  /* ...but a plain write does */
  assert_int_not_equal(touch_cell(&c, 1, wr(2, 65), 0).race, 0);
}

static void test_shadow_previous_epoch_is_ordered_not_race(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 4, wr(1, 0), 0);
  aucs_shadow_hit h = touch_cell(&c, 5, rd(2, 64), 0);
  assert_int_equal(h.race, 0);
  assert_int_equal(h.ordered, 1);
  /* read before the barrier, write after it */
  aucs_shadow_cell d = {0};
  touch_cell(&d, 4, rd(1, 0), 0);
  h = touch_cell(&d, 5, wr(2, 64), 0);
  assert_int_equal(h.ordered, 1);
  /* same thread on both sides: the barrier orders nothing */
  aucs_shadow_cell e = {0};
  touch_cell(&e, 4, wr(1, 7), 0);
  assert_int_equal(touch_cell(&e, 5, rd(2, 7), 0).ordered, 0);
}

static void test_shadow_older_epochs_are_forgotten(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 4, wr(1, 0), 0);
  aucs_shadow_hit h = touch_cell(&c, 6, rd(2, 64), 0);
  assert_int_equal(h.race, 0);
  assert_int_equal(h.ordered, 0);
}

static void test_shadow_lockstep_excuses_only_one_warp(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 1, wr(1, 0), 1);
  assert_int_equal(touch_cell(&c, 1, wr(1, 31), 1).race, 0);
  assert_int_not_equal(touch_cell(&c, 1, wr(1, 32), 1).race, 0);
}

static void test_shadow_syncwarp_phase_orders_a_warp(void **state) {
  (void)state;
  aucs_shadow_cell c = {0};
  touch_cell(&c, 1, aucs_shadow_rec_make(1, 0, 1, 0, 0), 0);
  aucs_shadow_hit h;
  aucs_shadow_access(&c, 1, aucs_shadow_rec_make(2, 1, 0, 0, 1), 0, &h);
  assert_int_equal(h.race, 0);
  /* a different warp is not ordered by that warp's __syncwarp */
  aucs_shadow_access(&c, 1, aucs_shadow_rec_make(3, 32, 0, 0, 1), 0, &h);
  assert_int_not_equal(h.race, 0);
}

static void test_shadow_grid_blocks_conflict(void **state) {
  (void)state;
  aucs_shadow_grid_cell g = {0};
  uint32_t ob = 99;
  assert_int_equal(aucs_shadow_grid_access(&g, 0, wr(1, 0), &ob), 0);
  assert_int_equal(aucs_shadow_grid_access(&g, 0, wr(1, 5), &ob), 0);
  aucs_shadow_rec o = aucs_shadow_grid_access(&g, 3, rd(2, 0), &ob);
  assert_int_equal(aucs_shadow_rec_pc(o), 1);
  assert_int_equal(ob, 0);
}

static void test_shadow_grid_reads_and_atomics_do_not_conflict(void **state) {
  (void)state;
  aucs_shadow_grid_cell g = {0};
  aucs_shadow_grid_access(&g, 0, rd(1, 0), NULL);
  assert_int_equal(aucs_shadow_grid_access(&g, 1, rd(1, 0), NULL), 0);
  aucs_shadow_grid_cell h = {0};
  aucs_shadow_grid_access(&h, 0, at(1, 0), NULL);
  assert_int_equal(aucs_shadow_grid_access(&h, 1, at(1, 0), NULL), 0);
}

static void test_shadow_grid_write_after_two_readers(void **state) {
  (void)state;
  aucs_shadow_grid_cell g = {0};
  aucs_shadow_grid_access(&g, 0, rd(1, 0), NULL);
  aucs_shadow_grid_access(&g, 1, rd(2, 0), NULL);
  uint32_t ob;
  /* block 0 writes: its own read is fine, block 1's is not */
  aucs_shadow_rec o = aucs_shadow_grid_access(&g, 0, wr(3, 0), &ob);
  assert_int_equal(aucs_shadow_rec_pc(o), 2);
  assert_int_equal(ob, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shadow_rec_round_trip),
      cmocka_unit_test(test_shadow_rec_locked_bit_is_its_own),
      cmocka_unit_test(test_shadow_same_thread_never_races),
      cmocka_unit_test(test_shadow_read_read_is_no_race),
      cmocka_unit_test(test_shadow_write_then_read_races),
      cmocka_unit_test(test_shadow_write_finds_a_reader_of_another_thread),
      cmocka_unit_test(test_shadow_atomics_never_race_with_atomics),
      cmocka_unit_test(test_shadow_previous_epoch_is_ordered_not_race),
      cmocka_unit_test(test_shadow_older_epochs_are_forgotten),
      cmocka_unit_test(test_shadow_lockstep_excuses_only_one_warp),
      cmocka_unit_test(test_shadow_syncwarp_phase_orders_a_warp),
      cmocka_unit_test(test_shadow_grid_blocks_conflict),
      cmocka_unit_test(test_shadow_grid_reads_and_atomics_do_not_conflict),
      cmocka_unit_test(test_shadow_grid_write_after_two_readers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
