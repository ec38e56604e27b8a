/*
 * tempfiles: the temp files and folders aucs has made and not yet removed,
 * so that a command stopped by a signal (Ctrl-C, SIGTERM from a CI runner's
 * timeout, SIGHUP) or by LLVM's fatal error handler removes them on its
 * way out instead of leaving /tmp/aucs-cu-* behind (its clang children
 * are stopped first). SIGKILL cannot be
 * caught: a temp file may still be left then.
 *
 * Tracking is cheap and thread-safe (a fixed table of atomic slots); only
 * the CLI installs the signal handlers (the plugin lives in clang's
 * process and leaves its signals alone).
 */
#ifndef AUCS_TEMPFILES_H
#define AUCS_TEMPFILES_H

#include <sys/types.h>

/* Remember path (a file, or with dir != 0 a folder, removed with rmdir
 * after the files). path must stay valid until aucs_temp_forget. When the
 * table is full the path is simply not tracked. */
void aucs_temp_track(const char *path, int dir);
void aucs_temp_forget(const char *path);

/* A child process (clang) writing to a tracked path: on a signal it is
 * stopped before the paths are removed. */
void aucs_temp_track_child(pid_t pid);
void aucs_temp_forget_child(pid_t pid);

/* Remove every tracked path (async-signal-safe: unlink and rmdir only). */
void aucs_temp_remove_all(void);

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT: remove the tracked paths, then die
 * of the signal as before (the default action, re-raised). */
void aucs_temp_install_handlers(void);

#endif
