/*
 * inputs: the one description of a kernel's inputs (DESIGN.md section 8).
 *
 * A kernel's parameters are flattened into leaves: each scalar and pointer
 * parameter is one leaf; an aggregate passed by value (`byval`) is
 * flattened field by field, recursively, at the byte offsets of the data
 * layout, into integer, floating-point and pointer leaves ("t.ptr",
 * "t.dims[0]", "t.inner.n"). Names come from the IR, else from the debug
 * info (the DILocalVariable of each argument, the DICompositeType members
 * of its type), else from positions ("arg2", "arg2.f1[0]").
 *
 * The user's values (--arg, --buffer, --dynamic-shared, --inputs FILE.json)
 * are parsed here (aucs_inputs_option) and bound to a kernel's leaves
 * (aucs_inputs_bind); the search, the runs, the reproduce commands and the
 * reports read the leaves and their values.
 *
 * Limitation: aggregates passed directly (not byval), vectors and unions
 * are one leaf of kind AGGREGATE whose bytes come from the fill; arrays
 * of more than AUCS_INPUTS_MAX_ARRAY elements are flattened to that many.
 */
#ifndef AUCS_INPUTS_H
#define AUCS_INPUTS_H

#include "aucs/finding.h"
#include "aucs/interp.h"
#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

/* The largest --buffer-data or --inputs file read (regular files only). */
#define AUCS_INPUTS_MAX_FILE ((size_t)1 << 30)

enum { AUCS_INPUTS_MAX_ARRAY = 64, AUCS_INPUTS_MAX_LEAVES = 512 };

/* One leaf of a kernel's inputs. */
typedef struct aucs_input {
  aucs_param p;        /* name ("n", "t.dims[0]"), kind, bits */
  unsigned param;      /* the kernel parameter it belongs to */
  int field;           /* a field of an aggregate parameter */
  uint64_t offset;     /* fields: byte offset in the aggregate */
  uint64_t elem_bytes; /* pointers: pointee size from debug info; 0 unknown */
} aucs_input;

typedef struct aucs_inputs {
  size_t nparams;
  const char **param_names; /* per kernel parameter */
  /* Per kernel parameter: the struct type whose debug info is only a
   * declaration (so its fields are named by position: "arg.f1[0]"), or
   * NULL. */
  const char **declared_only;
  size_t n;
  aucs_input *v; /* the leaves, in parameter and field order */
  void *arena;   /* owns the names */
} aucs_inputs;

/* Describe fn's parameters. Never fails; free with aucs_inputs_free. */
aucs_inputs *aucs_inputs_describe(LLVMValueRef fn);
void aucs_inputs_free(aucs_inputs *in);
/* The index of the leaf named name[0..len), or -1. */
long aucs_inputs_find(const aucs_inputs *in, const char *name, size_t len);

/* ---- the user's values ---------------------------------------------------*/

/* "NAME=VALUE" as given (owned copies). */
typedef struct aucs_inputs_setting {
  char *name, *value;
} aucs_inputs_setting;

typedef struct aucs_inputs_user {
  aucs_inputs_setting *args; /* --arg */
  size_t nargs;
  aucs_inputs_setting *buffers; /* --buffer */
  size_t nbuffers;
  aucs_inputs_setting *data; /* --buffer-data NAME=FILE */
  size_t ndata;
  /* --texture TEX=PARAM: texture TEX (a texture-object parameter or a
   * texture reference) reads the buffer of pointer parameter PARAM */
  aucs_inputs_setting *textures;
  size_t ntextures;
  int has_dynamic_shared;
  uint64_t dynamic_shared; /* --dynamic-shared BYTES */
  /* --replay: no input is searched; one the options do not set is 0 (or
   * the host code's constant), as in the run of a reproduce line that
   * left out the inputs that run never read */
  int replay;
  /* From --inputs FILE.json: the launch (the command line's wins). */
  int has_grid, has_block;
  aucs_dim3 grid, block;
} aucs_inputs_user;

/* Parse the inputs option at argv[*i] (--arg, --buffer, --buffer-data,
 * --dynamic-shared, --texture, --inputs, --replay), moving *i past its
 * value: 1 when it
 * was one, 0 when it is another option, -1 with *err (free with free()) when
 * its value is bad. */
int aucs_inputs_option(aucs_inputs_user *u, int argc, char **argv, int *i,
                       char **err);
/* Read FILE.json (schema in docs/inputs.md, "--inputs FILE.json") into u. 0 or -1 with *err. */
int aucs_inputs_read_json(aucs_inputs_user *u, const char *path, char **err);
void aucs_inputs_user_free(aucs_inputs_user *u);

/* A kernel's values, one entry per leaf of its aucs_inputs. */
typedef struct aucs_inputs_values {
  size_t n;             /* leaves */
  uint64_t *vals;       /* raw bits of integer and float leaves */
  unsigned char *fixed; /* not searched: the user's value, the host code's
                           or --replay's default */
  unsigned char *given; /* the user set it (--arg, --inputs) */
  uint64_t *bytes;      /* pointers: the buffer's size in bytes, 0: unbounded */
  const char **buffer_as; /* pointers: the --buffer value as given (owned),
                            or NULL */
  unsigned char **data; /* pointers: the --buffer-data contents, or NULL */
  uint64_t *data_bytes; /* their length */
  const char **data_as; /* the FILE as given (owned), or NULL */
} aucs_inputs_values;

void aucs_inputs_values_init(aucs_inputs_values *v, const aucs_inputs *in);
void aucs_inputs_values_free(aucs_inputs_values *v);

/* Bind the user's settings to the kernels' leaves: ins[k] and vals[k] for
 * the n kernels named names[k]. A setting must match a leaf of at least one
 * kernel; 0, or -1 with *err (a usage error listing the parameter's
 * fields, or every kernel's inputs). */
int aucs_inputs_bind(const aucs_inputs *const *ins, const char *const *names,
                     aucs_inputs_values *vals, size_t n,
                     const aucs_inputs_user *u, char **err);

/* Whether a run writes leaf i's value: scalar parameters and integer fields
 * always (they are searched), float fields only when the user set them
 * (else their bytes come from the fill); never pointers. */
int aucs_inputs_settable(const aucs_inputs *in, const aucs_inputs_values *v,
                         size_t i);
/* Whether a run's lines list leaf i: settable, and the user gave it or
 * the run read it (read: per leaf, aucs_run_result.leaf_read; NULL: every
 * settable leaf). A leaf the run never read could have held anything. */
int aucs_inputs_listed(const aucs_inputs *in, const aucs_inputs_values *v,
                       const unsigned char *read, size_t i);
/* "n=100 t.dims[0]=4": the values a run used (the listed leaves). Free
 * with free(). */
char *aucs_inputs_format(const aucs_inputs *in, const aucs_inputs_values *v,
                         const uint64_t *vals, const unsigned char *read);
/* " --arg n=100 --arg t.dims[0]=4 --buffer a=64 --dynamic-shared 4096":
 * the options that replay those values; " --replay" after the --arg
 * options when a settable leaf is left out (its value did not matter, and
 * it must not be searched). Free with free(). */
char *aucs_inputs_command(const aucs_inputs *in, const aucs_inputs_values *v,
                          const uint64_t *vals, const unsigned char *read,
                          const aucs_inputs_user *u);
/* The text of leaf p's value v ("4", "-1", "0.5"). Free with free(). */
char *aucs_inputs_value_text(const aucs_param *p, uint64_t v);

#endif
