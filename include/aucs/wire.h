/*
 * wire: one kernel's report (report.h) as bytes, for a worker process to
 * hand its result to the process that forked it (jobs.h).
 *
 * The format is private to one executable and one address space: structs
 * are copied as they lie in memory, and pointers into the module (the
 * kernel, the findings' instructions) and to static strings (proof names,
 * the search's end) are sent as they are. That is only valid between a
 * process and its fork()ed child, whose module is the same object at the
 * same addresses, which is the only use.
 *
 * Limitation: not a file format (no version, no endianness); never store
 * or send these bytes elsewhere.
 */
#ifndef AUCS_WIRE_H
#define AUCS_WIRE_H

#include "aucs/report.h"
#include <stddef.h>

/* A growable byte string. Zero-initialise; free data with free(). */
typedef struct aucs_wire {
  unsigned char *data;
  size_t len, cap;
} aucs_wire;

/* Append k to w. */
void aucs_wire_put_kernel(aucs_wire *w, const aucs_report_kernel *k);
/* Read a kernel from data[0..len) into *k (which it owns afterwards: free
 * with aucs_report_kernel_free). 0 on success; nonzero when the bytes are
 * short or malformed (*k is then zeroed). */
int aucs_wire_get_kernel(const unsigned char *data, size_t len,
                         aucs_report_kernel *k);

#endif
