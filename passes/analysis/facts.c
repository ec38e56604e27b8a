/*
 * facts: print CFG facts and block uniformity, one line per block.
 *
 *   kernel @k: 6 blocks, 1 loop, 0 irreducible cycles
 *   (a C++ kernel with its demangled name: "kernel @_Z1kPi (k(int*)): ...")
 *     loop %for.cond depth 1: %for.cond %for.body; latches %for.body; exits
 *       %for.cond; exit divergent at %for.cond
 *     %entry #0: uniform; topo 0; depth 0; idom -; ipdom %for.end; lines k.cu:3-5
 *     %if.then #2: divergent, control-dependent on divergent branch in %entry (%cmp varies with tid.x); ...
 *
 * The same text is what the tests match, so its shape changes only with them.
 */
#include "aucs/facts.h"

#include "aucs/cfg.h"
#include "aucs/cond.h"
#include "aucs/demangle.h"
#include "aucs/names.h"
#include "aucs/srcloc.h"
#include "aucs/uniform.h"

#include <llvm-c/Core.h>
#include <stdlib.h>

typedef struct printer {
  aucs_buf *out;
  const aucs_cfg *cfg;
  const aucs_uniformity *uni;
  aucs_names *names;
  aucs_conds *conds; /* with AUCS_FACTS_CONDITIONS, else NULL */
} printer;

static const char *block(printer *p, int b) {
  if (b == AUCS_CFG_EXIT)
    return "exit";
  if (b < 0)
    return "-";
  return aucs_names_block(p->names, p->cfg->blocks[b]);
}

static void block_list(printer *p, const char *label, const int *bs, int n) {
  aucs_buf_printf(p->out, "%s", label);
  for (int i = 0; i < n; i++)
    aucs_buf_printf(p->out, " %s", block(p, bs[i]));
}

static void print_loop(printer *p, const aucs_loop *l) {
  aucs_buf_printf(p->out, "  loop %s depth %d:", block(p, l->header),
                  l->depth);
  block_list(p, "", l->blocks, l->nblocks);
  block_list(p, "; latches", l->latches, l->nlatches);
  block_list(p, "; exits", l->exiting, l->nexiting);
  int header, exiting;
  if (aucs_uniform_why(p->uni, l->header, &header, &exiting) ==
          AUCS_WHY_LOOP &&
      header == l->header)
    aucs_buf_printf(p->out, "; exit divergent at %s\n", block(p, exiting));
  else
    aucs_buf_puts(p->out, "; exit uniform\n");
}

static void print_cycle(printer *p, const aucs_cycle *c) {
  block_list(p, "  irreducible cycle:", c->blocks, c->nblocks);
  block_list(p, "; entries", c->entries, c->nentries);
  aucs_buf_puts(p->out, "\n");
}

/* "%cmp varies with tid.x" for the condition of b's terminator. */
static void condition(printer *p, int b) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(p->cfg->blocks[b]);
  LLVMValueRef c = LLVMGetOperand(term, 0);
  const char *origin = aucs_uniform_origin(p->uni, c);
  aucs_buf_printf(p->out, " (%s varies with %s)", aucs_names_value(p->names, c),
                  origin ? origin : "?");
}

static void why(printer *p, int b) {
  int wb, aux;
  switch (aucs_uniform_why(p->uni, b, &wb, &aux)) {
  case AUCS_WHY_BRANCH:
    aucs_buf_printf(p->out, ", control-dependent on divergent branch in %s",
                    block(p, wb));
    condition(p, wb);
    break;
  case AUCS_WHY_NONUNIFORM:
    aucs_buf_printf(p->out,
                    ", control-dependent on branch in non-uniform block %s",
                    block(p, wb));
    break;
  case AUCS_WHY_LOOP:
    aucs_buf_printf(p->out, ", in loop %s with divergent exit at %s",
                    block(p, wb), block(p, aux));
    break;
  default:
    break;
  }
}

static void lines(printer *p, int b) {
  LLVMBasicBlockRef bb = p->cfg->blocks[b];
  unsigned first, last;
  aucs_srcloc_block_lines(bb, &first, &last);
  if (!first)
    return;
  aucs_srcloc loc = {0};
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !loc.file;
       i = LLVMGetNextInstruction(i))
    loc = aucs_srcloc_of(i);
  aucs_buf_printf(p->out, "; lines %.*s:%u", loc.file ? (int)loc.file_len : 0,
                  loc.file ? loc.file : "", first);
  if (last != first)
    aucs_buf_printf(p->out, "-%u", last);
}

static void cond(printer *p, int b) {
  if (!p->conds)
    return;
  aucs_buf_puts(p->out, "; cond ");
  aucs_cond_print(p->conds, b, p->out);
}

static void print_block(printer *p, int b) {
  const aucs_cfg *cfg = p->cfg;
  aucs_buf_printf(p->out, "  %s #%d: ", block(p, b), b);
  if (!cfg->reachable[b]) {
    aucs_buf_puts(p->out, "unreachable");
    cond(p, b);
    aucs_buf_puts(p->out, "\n");
    return;
  }
  int uniform = aucs_uniform_block(p->uni, b);
  aucs_buf_puts(p->out, uniform ? "uniform" : "divergent");
  why(p, b);
  aucs_buf_printf(p->out, "; topo %d; depth %d; idom %s; ipdom %s",
                  cfg->topo_index[b], aucs_cfg_loop_depth(cfg, b),
                  block(p, cfg->idom[b]), block(p, cfg->ipdom[b]));
  lines(p, b);
  cond(p, b);
  aucs_buf_puts(p->out, "\n");
}

void aucs_facts_print(aucs_buf *out, LLVMValueRef fn) {
  aucs_facts_print_with(out, fn, 0);
}

void aucs_facts_print_with(aucs_buf *out, LLVMValueRef fn, unsigned flags) {
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *uni = aucs_uniform_compute(cfg);
  printer p = {out, cfg, uni, aucs_names_build(fn), NULL};
  if (flags & AUCS_FACTS_CONDITIONS)
    p.conds = aucs_cond_compute(cfg, 0);
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char *dem = aucs_demangle(name);
  aucs_buf_printf(out,
                  "kernel @%s%s%s%s: %d block%s, %d loop%s, %d "
                  "irreducible cycle%s\n",
                  name, dem ? " (" : "", dem ? dem : "", dem ? ")" : "",
                  cfg->nblocks, cfg->nblocks == 1 ? "" : "s", cfg->nloops,
                  cfg->nloops == 1 ? "" : "s", cfg->ncycles,
                  cfg->ncycles == 1 ? "" : "s");
  free(dem);
  for (int i = 0; i < cfg->nloops; i++)
    print_loop(&p, &cfg->loops[i]);
  for (int i = 0; i < cfg->ncycles; i++)
    print_cycle(&p, &cfg->cycles[i]);
  for (int b = 0; b < cfg->nblocks; b++)
    print_block(&p, b);
  aucs_cond_free(p.conds);
  aucs_names_free(p.names);
  aucs_uniform_free(uni);
  aucs_cfg_free(cfg);
}
