/*
 * tempfiles: remove aucs's temp files when a signal stops the command
 * (see aucs/tempfiles.h).
 *
 * A table of atomic slots: track claims an empty slot with a
 * compare-and-swap, forget clears it; the handler walks the table with
 * plain atomic loads, so nothing it calls can deadlock or allocate.
 */
#include "aucs/tempfiles.h"

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { SLOTS = 128 };

/* [0]: files, [1]: folders. */
static _Atomic(const char *) paths[2][SLOTS];

void aucs_temp_track(const char *path, int dir) {
  for (size_t i = 0; i < SLOTS; i++) {
    const char *none = NULL;
    if (atomic_compare_exchange_strong(&paths[dir != 0][i], &none, path))
      return;
  }
}

void aucs_temp_forget(const char *path) {
  for (int d = 0; d < 2; d++)
    for (size_t i = 0; i < SLOTS; i++) {
      const char *p = path;
      if (atomic_compare_exchange_strong(&paths[d][i], &p, NULL))
        return;
    }
}

static atomic_int children[SLOTS];

void aucs_temp_track_child(pid_t pid) {
  for (size_t i = 0; i < SLOTS; i++) {
    int none = 0;
    if (atomic_compare_exchange_strong(&children[i], &none, (int)pid))
      return;
  }
}

void aucs_temp_forget_child(pid_t pid) {
  for (size_t i = 0; i < SLOTS; i++) {
    int p = (int)pid;
    if (atomic_compare_exchange_strong(&children[i], &p, 0))
      return;
  }
}

/* SIGTERM to each child, up to a second for it to go (clang removes its
 * own temp files then, and cannot rename one over a path removed below),
 * then SIGKILL. */
static void stop_children(void) {
  for (size_t i = 0; i < SLOTS; i++) {
    pid_t pid = (pid_t)atomic_load(&children[i]);
    if (pid <= 0)
      continue;
    kill(pid, SIGTERM);
    struct timespec tick = {0, 10 * 1000 * 1000};
    int n = 0;
    while (waitpid(pid, NULL, WNOHANG) == 0 && n++ < 100)
      nanosleep(&tick, NULL);
    if (n > 100) {
      kill(pid, SIGKILL);
      waitpid(pid, NULL, 0);
    }
  }
}

/* Files first, then folders, so a folder is empty when it goes. */
void aucs_temp_remove_all(void) {
  for (size_t i = 0; i < SLOTS; i++) {
    const char *p = atomic_load(&paths[0][i]);
    if (p)
      unlink(p);
  }
  for (size_t i = 0; i < SLOTS; i++) {
    const char *p = atomic_load(&paths[1][i]);
    if (p)
      rmdir(p);
  }
}

static void on_signal(int sig) {
  stop_children();
  aucs_temp_remove_all();
  signal(sig, SIG_DFL);
  raise(sig);
}

void aucs_temp_install_handlers(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction old;
    /* A signal the caller ignores (nohup, a background job) stays so. */
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    sigaction(sigs[i], &sa, NULL);
  }
}
