/*
 * options: the one parser of detect's options, shared by every way they
 * arrive: the command line (aucs detect, fix, check), the plugin's
 * $AUCS_OPTIONS, and the reproduce lines findings print (which are command
 * lines again). It fills aucs_detect_options (options.h) and nothing else:
 * what an option means is the detector's (detect.c) and the search's.
 *
 * Steps, per word: an input option (--arg, --buffer, --inputs ...;
 * inputs.c) first, then the flags that take no value, then "--flag V" or
 * "--flag=V" for the rest, each value checked for its range here, so a bad
 * value is a usage error that names the flag and what it wants.
 */
#include "aucs/options.h"

#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

/* The value of flag at argv[*i] ("--flag V" or "--flag=V"): 1 and *v set,
 * 0 when argv[*i] is another option, -1 when the value is missing. */
static int flag_value(int argc, char **argv, int *i, const char *flag,
                      const char **v) {
  const char *arg = argv[*i];
  size_t n = strlen(flag);
  if (strncmp(arg, flag, n) != 0)
    return 0;
  if (arg[n] == '=')
    return *v = arg + n + 1, 1;
  if (arg[n] != '\0')
    return 0;
  if (*i + 1 >= argc)
    return -1;
  *v = argv[++*i];
  return 1;
}

/* "X[,Y[,Z]]": missing dims are 1; an empty component is an error. */
static int parse_dim3(const char *s, aucs_dim3 *d) {
  uint32_t v[3] = {1, 1, 1};
  char *copy = aucs_xstrdup(s), *w = copy;
  int n = 0, bad = 0;
  while (w && !bad) {
    char *comma = strchr(w, ',');
    if (comma)
      *comma = '\0';
    uint64_t x;
    bad = n == 3 || aucs_parse_u64(w, &x) || x == 0 || x > UINT32_MAX;
    if (!bad)
      v[n++] = (uint32_t)x;
    w = comma ? comma + 1 : NULL;
  }
  free(copy);
  if (bad)
    return -1;
  *d = (aucs_dim3){v[0], v[1], v[2]};
  return 0;
}

/* --fill NAME: one of the interpreter's fills, by the name reproduce lines
 * print (aucs_interp_fill_name). */
static int fill_value(const char *v, aucs_fill *out) {
  for (unsigned f = 0; f < AUCS_FILL_NMODES; f++)
    if (!strcmp(v, aucs_interp_fill_name((aucs_fill)f)))
      return *out = (aucs_fill)f, 0;
  return -1;
}

static int bad(char **err, const char *flag, const char *v, const char *want) {
  *err = aucs_xasprintf("%s: bad value '%s' (%s)", flag, v ? v : "", want);
  return -1;
}

/* --time-budget S: decimal seconds ("30", "0.5"), more than 0, at most a
 * day. */
static int seconds_value(aucs_detect_options *o, const char *flag,
                         const char *v, char **err) {
  size_t whole = strspn(v, "0123456789");
  size_t frac = v[whole] == '.' ? strspn(v + whole + 1, "0123456789") : 0;
  size_t len = whole + (v[whole] == '.') + frac;
  double s = whole || frac ? strtod(v, NULL) : 0;
  if (v[len] || whole > 6 || s <= 0 || s > 86400)
    return bad(err, flag, v, "seconds, more than 0 and at most 86400");
  o->time_budget = s;
  return 1;
}

static int option_value(aucs_detect_options *o, const char *flag, const char *v,
                        char **err) {
  uint64_t x;
  if (!strcmp(flag, "--grid") || !strcmp(flag, "--block")) {
    int grid = flag[2] == 'g';
    if (parse_dim3(v, grid ? &o->grid : &o->block))
      return bad(err, flag, v, "X[,Y[,Z]], positive integers");
    return *(grid ? &o->has_grid : &o->has_block) = 1;
  }
  if (!strcmp(flag, "--kernel"))
    return o->kernel = v, 1;
  if (!strcmp(flag, "--fill")) {
    if (fill_value(v, &o->fill))
      return bad(err, flag, v, "random, small or zero");
    return o->has_fill = 1;
  }
  if (!strcmp(flag, "--format")) {
    if (strcmp(v, "json") && strcmp(v, "text") && strcmp(v, "sarif"))
      return bad(err, flag, v, "json, sarif or text");
    o->sarif = !strcmp(v, "sarif");
    return o->json = !strcmp(v, "json"), 1;
  }
  if (!strcmp(flag, "--time-budget"))
    return seconds_value(o, flag, v, err);
  if (!strcmp(flag, "--max-findings")) /* 0: all */
    return aucs_parse_u64(v, &x) ? bad(err, flag, v, "a count, 0 for all")
                                 : (o->max_findings = x ? x : UINT64_MAX, 1);
  if (aucs_parse_u64(v, &x))
    return bad(err, flag, v, "a non-negative integer");
  if (!strcmp(flag, "--search-budget")) {
    if (x == 0 || x > 86400000)
      return bad(err, flag, v, "1..86400000 milliseconds");
    return o->search_budget = (unsigned)x, 1;
  }
  if (!strcmp(flag, "--smt-timeout") || !strcmp(flag, "--static-budget")) {
    if (x == 0 || x > 86400000)
      return bad(err, flag, v, "1..86400000 milliseconds");
    return *(flag[2] == 's' && flag[3] == 'm' ? &o->smt_timeout
                                              : &o->static_budget) =
               (unsigned)x,
           1;
  }
  if (!strcmp(flag, "--seed"))
    return o->seed = x, o->has_seed = 1;
  if (!strcmp(flag, "--step-budget"))
    return o->step_budget = x, 1;
  if (!strcmp(flag, "--memory-budget"))
    return o->memory_budget = (size_t)x, 1;
  if (!strcmp(flag, "--run-budget"))
    return o->run_budget = x, o->has_run_budget = 1;
  if (!strcmp(flag, "--memory-limit"))
    return x ? (o->memory_limit = x, 1) : bad(err, flag, v, "bytes, >= 1");
  if (x == 0 || x > 1000)
    return bad(err, flag, v, "1..1000");
  if (!strcmp(flag, "--jobs") || !strcmp(flag, "-j"))
    return o->jobs = (unsigned)x, 1;
  if (!strcmp(flag, "--population"))
    return o->population = (unsigned)x, 1;
  if (!strcmp(flag, "--replays"))
    return o->replays = (unsigned)x, 1;
  return o->generations = (unsigned)x, 1;
}

/* The launch of an --inputs file, where the command line gave none. */
static void inputs_launch(aucs_detect_options *o) {
  if (o->user.has_grid && !o->has_grid)
    o->grid = o->user.grid, o->has_grid = 1;
  if (o->user.has_block && !o->has_block)
    o->block = o->user.block, o->has_block = 1;
}

int aucs_options_arg(aucs_detect_options *o, int argc, char **argv, int *i,
                       char **err) {
  static const char *const flags[] = {
      "--grid",        "--block",         "--kernel",      "--seed",
      "--step-budget", "--memory-budget", "--population",  "--generations",
      "--format",      "--fill",          "--smt-timeout", "--static-budget",
      "--replays",     "--time-budget",   "--memory-limit", "--search-budget",
      "--jobs",        "-j",              "--max-findings", "--run-budget"};
  int in = aucs_inputs_option(&o->user, argc, argv, i, err);
  if (in)
    return inputs_launch(o), in;
  if (!strcmp(argv[*i], "--static"))
    return o->static_only = 1;
  if (!strcmp(argv[*i], "--no-static"))
    return o->no_static = 1;
  if (!strcmp(argv[*i], "--may-alias"))
    return o->may_alias = 1;
  if (!strcmp(argv[*i], "--warp-lockstep"))
    return o->warp_lockstep = 1;
  if (!strcmp(argv[*i], "--stats"))
    return o->stats = 1;
  if (!strcmp(argv[*i], "--exhaustive-search"))
    return o->exhaustive = 1;
  if (!strncmp(argv[*i], "-j", 2) && argv[*i][2] >= '0' && argv[*i][2] <= '9')
    return option_value(o, "-j", argv[*i] + 2, err); /* -j2 */
  if (!strcmp(argv[*i], "--possible"))
    return o->possible = 1;
  if (!strcmp(argv[*i], "--strict"))
    return o->strict = 1;
  if (!strcmp(argv[*i], "--library-kernels"))
    return o->library_kernels = 1;
  for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
    const char *v = NULL;
    int got = flag_value(argc, argv, i, flags[f], &v);
    if (got < 0) {
      *err = aucs_xasprintf("%s needs a value", flags[f]);
      return -1;
    }
    if (got)
      return option_value(o, flags[f], v, err);
  }
  return 0;
}

int aucs_options_parse(aucs_detect_options *o, const char *text,
                              char **err) {
  free(o->text);
  o->text = aucs_xstrdup(text ? text : "");
  char **words = NULL, *save = NULL;
  int n = 0, rc = 0;
  for (char *w = strtok_r(o->text, " \t\n", &save); w;
       w = strtok_r(NULL, " \t\n", &save)) {
    words = aucs_xrealloc(words, (size_t)(n + 1) * sizeof(*words));
    words[n++] = w;
  }
  for (int i = 0; i < n && !rc; i++) {
    int got = aucs_options_arg(o, n, words, &i, err);
    if (got == 0)
      *err = aucs_xasprintf("unknown option '%s'", words[i]);
    rc = got != 1;
  }
  free(words);
  return rc;
}

void aucs_options_free(aucs_detect_options *o) {
  aucs_inputs_user_free(&o->user);
  free(o->text);
  *o = (aucs_detect_options){0};
}
