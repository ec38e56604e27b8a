/*
 * srcloc: source locations from `!dbg`, with the `@kernel %block #n`
 * fallback when an instruction carries none (STYLE.md rule 7).
 */
#ifndef AUCS_SRCLOC_H
#define AUCS_SRCLOC_H

#include <llvm-c/Types.h>

typedef struct aucs_srcloc {
  const char *file; /* NULL when the instruction has no !dbg; owned by LLVM
                       and not NUL-terminated: print with "%.*s", file_len */
  unsigned file_len;
  const char *dir; /* the DIFile's directory (a relative file is in it), as
                      file; NULL or empty when unknown */
  unsigned dir_len;
  unsigned line, col;
} aucs_srcloc;

/* The !dbg location of instruction I (file NULL, line 0 when absent). The
 * file is the DIFile's filename as recorded: the name the user compiled. */
aucs_srcloc aucs_srcloc_of(LLVMValueRef I);

/* "k.cu:12:5" when I has a location; otherwise "@kernel %block #n" where n
 * is the block's index in its function. Free with free(). */
char *aucs_srcloc_format(LLVMValueRef I);

/* The smallest and largest source line among bb's instructions that carry a
 * location (terminators and debug intrinsics included). 0 when none. */
void aucs_srcloc_block_lines(LLVMBasicBlockRef bb, unsigned *first,
                             unsigned *last);

/* Operand i of metadata node md (a DI node or a tuple); NULL when md is
 * NULL, has fewer operands or the operand is null. */
LLVMMetadataRef aucs_md_operand(LLVMContextRef cx, LLVMMetadataRef md,
                                unsigned i);

/* The name of the function (DISubprogram) that debug scope `scope` belongs
 * to, through its lexical blocks; *len its length. NULL when unknown. The
 * name is LLVM's, not NUL-terminated: print with "%.*s". */
const char *aucs_srcloc_scope_name(LLVMContextRef cx, LLVMMetadataRef scope,
                                   unsigned *len);

#endif
