/*
 * ptx: inline asm text read as PTX statements (aucs/ptx.h has the form).
 *
 * Steps:
 *   1. A scanner over the text: blanks, `{` `}` between statements and
 *      `//` comments are skipped; LLVM's `$$` is a `$` of a name.
 *   2. A statement is a `.reg` declaration (its type token, then names,
 *      each a new local) or an optional `@guard`, the dotted opcode (a
 *      `::` qualifier such as `L1::no_allocate` stays inside its token),
 *      and operands up to `;`.
 *   3. An operand is an element, `{e, ...}`, `[e]`, `[e+k]` or `e|e`.
 *
 * Limitation: one name space for locals (a name declared in two scopes is
 * the later one from there on); at most AUCS_PTX_MAX_* of everything.
 */
#include "aucs/ptx.h"

#include <ctype.h>
#include <string.h>

typedef struct scan {
  const char *s;
  size_t n, at;
  aucs_ptx *out;
} scan;

static int peek(const scan *c) { return c->at < c->n ? c->s[c->at] : 0; }

static void blanks(scan *c) {
  while (c->at < c->n) {
    if (isspace((unsigned char)c->s[c->at]))
      c->at++;
    else if (c->s[c->at] == '/' && c->at + 1 < c->n && c->s[c->at + 1] == '/')
      while (c->at < c->n && c->s[c->at] != '\n')
        c->at++;
    else
      return;
  }
}

/* Between statements: blanks and scope braces. */
static void between(scan *c) {
  for (;;) {
    blanks(c);
    if (peek(c) != '{' && peek(c) != '}')
      return;
    c->at++;
  }
}

static int name_char(int ch, int first) {
  return isalpha(ch) || ch == '_' || ch == '%' || ch == '$' ||
         (!first && isdigit(ch));
}

/* A name at c (letters, digits, _, %, $$ as $): its length in the text. */
static unsigned name_len(const scan *c) {
  size_t i = c->at;
  while (i < c->n && name_char((unsigned char)c->s[i], i == c->at)) {
    if (c->s[i] == '$' && (i + 1 >= c->n || c->s[i + 1] != '$'))
      break; /* a lone $ starts an operand number */
    i += c->s[i] == '$' ? 2 : 1;
  }
  return (unsigned)(i - c->at);
}

int aucs_ptx_is(aucs_ptx_token t, const char *word) {
  return strlen(word) == t.n && !memcmp(t.s, word, t.n);
}

unsigned aucs_ptx_has(const aucs_ptx_stmt *s, const char *word) {
  for (unsigned i = 1; i < s->ntok; i++)
    if (aucs_ptx_is(s->tok[i], word))
      return i;
  return 0;
}

/* ---- elements ---- */

static int hexval(int ch) {
  return isdigit(ch) ? ch - '0' : isxdigit(ch) ? tolower(ch) - 'a' + 10 : -1;
}

/* An immediate: [-]digits, 0x hex, 0f/0d hex float bits; a U suffix. */
static int number(scan *c, aucs_ptx_elem *e) {
  int neg = peek(c) == '-';
  c->at += neg;
  if (!isdigit(peek(c)))
    return 1;
  uint64_t v = 0;
  int base = 10;
  if (peek(c) == '0' && c->at + 1 < c->n && strchr("xXfFdD", c->s[c->at + 1])) {
    base = 16;
    c->at += 2;
  }
  unsigned digits = 0;
  for (int d; c->at < c->n && (d = hexval((unsigned char)c->s[c->at])) >= 0 &&
              d < base;
       c->at++, digits++)
    v = v * (uint64_t)base + (uint64_t)d;
  if (!digits && base == 16)
    return 1;
  if (peek(c) == 'U' || peek(c) == 'u')
    c->at++;
  *e = (aucs_ptx_elem){.kind = AUCS_PTX_IMM, .imm = neg ? 0 - v : v};
  return 0;
}

static int find_local(const aucs_ptx *p, const char *s, unsigned n) {
  for (int i = (int)p->nlocal - 1; i >= 0; i--)
    if (p->local[i].len == n && !memcmp(p->local[i].name, s, n))
      return i;
  return -1;
}

static int element(scan *c, aucs_ptx_elem *e) {
  blanks(c);
  int negated = peek(c) == '!';
  c->at += negated;
  int ch = peek(c);
  if (ch == '$' && c->at + 1 < c->n &&
      isdigit((unsigned char)c->s[c->at + 1])) {
    unsigned v = 0;
    for (c->at++; isdigit(peek(c)); c->at++)
      v = v * 10 + (unsigned)(peek(c) - '0');
    *e = (aucs_ptx_elem){.kind = AUCS_PTX_ARG, .n = v};
  } else if (isdigit(ch) || ch == '-') {
    if (number(c, e))
      return 1;
  } else {
    unsigned n = name_len(c);
    const char *s = c->s + c->at;
    if (!n)
      return 1;
    c->at += n;
    int local = find_local(c->out, s, n);
    if (n == 1 && *s == '_')
      *e = (aucs_ptx_elem){.kind = AUCS_PTX_SINK};
    else if (local >= 0)
      *e = (aucs_ptx_elem){.kind = AUCS_PTX_LOCAL, .n = (unsigned)local};
    else if (*s == '%' || (n == 7 && !memcmp(s, "WARP_SZ", 7))) {
      size_t end = c->at; /* %tid.x: the dotted suffix is the register's */
      while (*s == '%' && end < c->n &&
             (c->s[end] == '.' || isalnum((unsigned char)c->s[end])))
        end++;
      c->at = end;
      *e = (aucs_ptx_elem){.kind = AUCS_PTX_SREG,
                           .text = s + (*s == '%'),
                           .len = (unsigned)(end - (size_t)(s - c->s)) -
                                  (*s == '%')};
    } else {
      return 1; /* an unknown name */
    }
  }
  e->negated = negated;
  return 0;
}

/* ---- operands and statements ---- */

static int list(scan *c, aucs_ptx_operand *o, char close) {
  o->kind = AUCS_PTX_VECTOR;
  for (;;) {
    if (o->n == AUCS_PTX_MAX_ELEMS || element(c, &o->e[o->n++]))
      return 1;
    blanks(c);
    if (peek(c) == close) {
      c->at++;
      return 0;
    }
    if (peek(c) != ',')
      return 1;
    c->at++;
  }
}

static int address(scan *c, aucs_ptx_operand *o) {
  o->kind = AUCS_PTX_ADDRESS;
  o->n = 1;
  if (element(c, &o->e[0]))
    return 1;
  blanks(c);
  if (peek(c) == '+' || peek(c) == '-') {
    int neg = peek(c) == '-';
    c->at++;
    blanks(c);
    aucs_ptx_elem k;
    if (number(c, &k))
      return 1;
    o->offset = neg ? -(int64_t)k.imm : (int64_t)k.imm;
    blanks(c);
  }
  if (peek(c) != ']')
    return 1;
  c->at++;
  return 0;
}

static int operand(scan *c, aucs_ptx_operand *o) {
  *o = (aucs_ptx_operand){0};
  blanks(c);
  if (peek(c) == '{') {
    c->at++;
    return list(c, o, '}');
  }
  if (peek(c) == '[') {
    c->at++;
    return address(c, o);
  }
  o->n = 1;
  if (element(c, &o->e[0]))
    return 1;
  blanks(c);
  if (peek(c) != '|')
    return 0;
  c->at++;
  o->kind = AUCS_PTX_PAIR;
  o->n = 2;
  return element(c, &o->e[1]);
}

/* The dotted opcode: tokens up to a blank or `;`. */
static int opcode(scan *c, aucs_ptx_stmt *st) {
  while (c->at < c->n && !isspace(peek(c)) && peek(c) != ';') {
    if (st->ntok == AUCS_PTX_MAX_TOKENS)
      return 1;
    size_t i = c->at;
    while (i < c->n && !isspace((unsigned char)c->s[i]) && c->s[i] != ';' &&
           (c->s[i] != '.' || i == c->at))
      i += c->s[i] == ':' && i + 1 < c->n && c->s[i + 1] == ':' ? 2 : 1;
    size_t from = c->at + (c->s[c->at] == '.');
    st->tok[st->ntok++] = (aucs_ptx_token){c->s + from, (unsigned)(i - from)};
    c->at = i;
  }
  return st->ntok == 0;
}

/* `.reg .TYPE a, b, c;` */
static int declaration(scan *c) {
  blanks(c);
  if (peek(c) != '.')
    return 1;
  size_t t = ++c->at;
  while (c->at < c->n && isalnum(peek(c)))
    c->at++;
  aucs_ptx_token type = {c->s + t, (unsigned)(c->at - t)};
  for (;;) {
    blanks(c);
    unsigned n = name_len(c);
    if (!n || c->out->nlocal == AUCS_PTX_MAX_LOCALS)
      return 1;
    c->out->local[c->out->nlocal++] = (aucs_ptx_local){c->s + c->at, n, type};
    c->at += n;
    blanks(c);
    if (peek(c) == ';')
      return 0;
    if (peek(c) != ',')
      return 1;
    c->at++;
  }
}

static int statement(scan *c) {
  if (c->n - c->at >= 4 && !memcmp(c->s + c->at, ".reg", 4)) {
    c->at += 4;
    return declaration(c);
  }
  if (c->out->n == AUCS_PTX_MAX_STMTS)
    return 1;
  aucs_ptx_stmt *st = &c->out->s[c->out->n++];
  *st = (aucs_ptx_stmt){0};
  if (peek(c) == '@') {
    c->at++;
    st->guarded = 1;
    if (element(c, &st->guard))
      return 1;
    blanks(c);
  }
  if (opcode(c, st))
    return 1;
  for (;;) {
    blanks(c);
    if (peek(c) == ';')
      return 0;
    if (st->nop == AUCS_PTX_MAX_OPERANDS || operand(c, &st->op[st->nop++]))
      return 1;
    blanks(c);
    if (peek(c) == ',')
      c->at++;
    else if (peek(c) != ';')
      return 1;
  }
}

int aucs_ptx_parse(const char *text, size_t n, aucs_ptx *out) {
  scan c = {text, n, 0, out};
  out->n = out->nlocal = 0;
  for (;;) {
    between(&c);
    if (c.at >= c.n)
      return 0;
    if (statement(&c))
      return 1;
    c.at++; /* the ; */
  }
}

/* ---- what the static checker asks ---- */

static unsigned type_bytes(aucs_ptx_token t) {
  if (t.n < 2 || !strchr("bsuf", t.s[0]) || !isdigit((unsigned char)t.s[1]))
    return 0;
  unsigned bits = 0;
  for (unsigned i = 1; i < t.n; i++) {
    if (!isdigit((unsigned char)t.s[i]))
      return 0;
    bits = bits * 10 + (unsigned)(t.s[i] - '0');
  }
  return bits % 8 || bits > 128 ? 0 : bits / 8;
}

static const struct {
  const char *opcode;
  int memory;
} known[] = {
#define AUCS_PTX_OP(o, c, m, i, f) {o, m},
#include "aucs/ptx.def"
};

int aucs_ptx_known(const aucs_ptx *p) {
  for (unsigned i = 0; i < p->n; i++) {
    size_t k = 0;
    while (k < sizeof known / sizeof *known &&
           !aucs_ptx_is(p->s[i].tok[0], known[k].opcode))
      k++;
    if (k == sizeof known / sizeof *known)
      return 0;
  }
  return 1;
}

int aucs_ptx_access_of(const aucs_ptx_stmt *s, aucs_ptx_access *a) {
  int st = aucs_ptx_is(s->tok[0], "st");
  if (!st && !aucs_ptx_is(s->tok[0], "ld"))
    return 0;
  const aucs_ptx_operand *addr = &s->op[st ? 0 : 1];
  unsigned bytes = type_bytes(s->tok[s->ntok - 1]), lanes = 1;
  for (unsigned i = 1; i < s->ntok; i++)
    if (s->tok[i].n == 2 && s->tok[i].s[0] == 'v' &&
        isdigit((unsigned char)s->tok[i].s[1]))
      lanes = (unsigned)(s->tok[i].s[1] - '0');
  if (s->nop != 2 || addr->kind != AUCS_PTX_ADDRESS || !bytes)
    return 0;
  *a = (aucs_ptx_access){st, bytes * lanes, addr->e[0], addr->offset,
                         aucs_ptx_has(s, "relaxed") ||
                             aucs_ptx_has(s, "acquire") ||
                             aucs_ptx_has(s, "release")};
  return 1;
}

void aucs_ptx_constraints_of(const char *s, size_t n, aucs_ptx_constraints *c) {
  *c = (aucs_ptx_constraints){0};
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && s[j] != ',')
      j++;
    if (s[i] == '=') {
      c->outs++;
      c->indirect |= j > i + 1 && s[i + 1] == '*';
    } else if (s[i] != '~' && c->ins < AUCS_PTX_MAX_TIED) {
      int tied = isdigit((unsigned char)s[i]) ? 0 : -1;
      for (size_t k = i; tied >= 0 && k < j && isdigit((unsigned char)s[k]);
           k++)
        tied = tied * 10 + (s[k] - '0');
      c->tied[c->ins++] = tied;
    }
    i = j + 1;
  }
}
