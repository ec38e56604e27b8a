/*
 * aucs: the command-line front end.
 *
 *   aucs facts   k.cu|k.bc|k.ll       CFG facts and block uniformity
 *   aucs detect  k.cu|k.bc|k.ll       find races and barrier bugs
 *   aucs fix     k.bc -o out.bc       repair them (--review: as a diff)
 *   aucs compile k.cu -o k.bc         the exact module the others analyse
 *   aucs check   PATH...              detect over files, folders, a
 *                                     compile_commands.json (check.c)
 *
 * main reads as the pipeline: parse arguments, load the module, run the
 * subcommand's pipeline, print, exit with the pipeline's code.
 */
#include "aucs/budget.h"
#include "aucs/check.h"
#include "aucs/detect.h"
#include "aucs/hostlaunch.h"
#include "aucs/module.h"
#include "aucs/pipeline.h"
#include "aucs/tempfiles.h"

#include <llvm-c/Core.h>
#include <llvm-c/ErrorHandling.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: aucs <command> [options] <input>\n"
    "\n"
    "aucs finds and repairs CUDA synchronization bugs (data races, barrier\n"
    "divergence, redundant barriers) in NVPTX LLVM IR.\n"
    "\n"
    "commands:\n"
    "  facts     print per kernel and block: uniform or divergent (and why),\n"
    "            topological index, loop depth, dominator, post-dominator;\n"
    "            with --conditions, each block's entry condition too\n"
    "  detect    report races and barrier bugs (exit 1 when any is found)\n"
    "  fix       repair them and write the repaired module (-o)\n"
    "  compile   write the module aucs analyses for an input (-o), e.g. to\n"
    "            feed a .cu to opt -load-pass-plugin=AuCS.so\n"
    "  check     detect on every kernel of many inputs: aucs check PATH...\n"
    "            (files, folders walked for .cu/.bc/.ll, or a\n"
    "            compile_commands.json), then a summary table per file\n"
    "\n"
    "input: .bc (bitcode), .ll (textual IR) or .cu (CUDA, compiled for the\n"
    "device with clang; see the .cu options)\n"
    "\n"
    "options:\n"
    "  -o FILE            output file (.ll: textual IR, otherwise bitcode)\n"
    "  -h, --help         this help\n"
    "  --max-input-size B largest input file read, in bytes (suffix K, M or\n"
    "                     G: binary units; default 1G); only regular files\n"
    "                     are read\n"
    "  --version          print the version\n"
    "\n"
    ".cu options:\n"
    "  -O0 (default), -O1, -O2, -O3\n"
    "                     clang optimisation level; -O0 is followed by\n"
    "                     sroa,simplifycfg so values are in SSA form\n"
    "  --gpu-arch=SM      GPU architecture (default sm_70)\n"
    "  --cuda-path=DIR    CUDA SDK to compile against (default $CUDA_PATH,\n"
    "                     else /usr/local/cuda when present)\n"
    "  --no-cuda-sdk      use the small SDK-free header aucs ships instead\n"
    "  -I DIR, -D NAME[=V], --clang-arg=ARG\n"
    "                     passed to clang\n"
    "\n"
    "detect options (without them, an evolutionary search chooses the launch,\n"
    "the scalar arguments and the fill of memory; every finding prints the\n"
    "command that reproduces the one run that found it):\n"
    "  --grid X[,Y[,Z]]   grid dimensions\n"
    "  --block X[,Y[,Z]]  block dimensions\n"
    "  --arg NAME=VALUE   a scalar kernel argument or a field of a struct\n"
    "                     passed by value: n=5, t.dims[0]=4 (repeatable)\n"
    "  --buffer NAME=N    a pointer's buffer size (argument or field): N\n"
    "                     elements of its pointee type when the debug info\n"
    "                     gives it, else N bytes; beyond it is out of bounds\n"
    "  --dynamic-shared B bytes of extern __shared__ memory (default 49152)\n"
    "  --buffer-data NAME=FILE  a pointer's contents: FILE's raw bytes\n"
    "  --texture TEX=PARAM\n"
    "                     texture TEX (a texture-object parameter or a\n"
    "                     texture<> reference) reads pointer PARAM's buffer:\n"
    "                     a fetch of an element the launch writes is a\n"
    "                     texture-incoherent finding (repeatable)\n"
    "  --inputs FILE.json launch, args, buffers, dynamic_shared, textures,\n"
    "                     buffer_data from a file\n"
    "  --kernel NAME      check only this kernel (mangled or demangled name)\n"
    "  --seed N           seed of every random choice (default 1)\n"
    "  --fill MODE        what unwritten memory reads as: random (bytes),\n"
    "                     small (a 0..15 per 4-byte word) or zero\n"
    "  --population N, --generations N\n"
    "                     search size (default 4 and at most 6: the search\n"
    "                     stops when a generation finds nothing new)\n"
    "  --search-budget MS CPU time of the search per kernel (default\n"
    "                     10000)\n"
    "  --exhaustive-search\n"
    "                     run every generation (no adaptive stop)\n"
    "  -j N, --jobs N     kernels checked at once, in worker processes\n"
    "                     (default: the number of processors)\n"
    "  --step-budget N    instructions per thread per run (default 10000000)\n"
    "  --memory-budget B  bytes of modelled memory per run (default 256 MiB)\n"
    "  --run-budget N     thread instructions per run, all threads (default\n"
    "                     131072 per thread of the launch, at least 2^27;\n"
    "                     0: unbounded)\n"
    "  --time-budget S    wall-clock seconds per kernel, every phase, counted\n"
    "                     from the command's start for the first kernel\n"
    "                     (loading included; default 30; fix: the whole\n"
    "                     command, default 120; decimals allowed: 0.5)\n"
    "  --max-findings N   findings listed per kernel (default 100; 0: all);\n"
    "                     the rest are counted, and the exit code and the\n"
    "                     counts cover them\n"
    "  --memory-limit B   resident bytes of the process (default 4 GiB)\n"
    "  --warp-lockstep    pre-Volta warps: one warp never races with itself\n"
    "  --format=json      JSON report on stdout instead of text on stderr\n"
    "  --format=sarif     SARIF 2.1.0 log on stdout (code scanning, review)\n"
    "  --stats            add run counts, thread instructions and time, and\n"
    "                     the solver's queries, answers and time\n"
    "  --static           static checker (Z3) only: prove pairs race-free,\n"
    "                     replay only its witnesses (default: static, then\n"
    "                     the search)\n"
    "  --no-static        no static checker: the search only\n"
    "  --possible         list every possible race (a solver witness no run\n"
    "                     confirmed), not only their count\n"
    "  --strict           warnings (a race, divergence or out-of-bounds\n"
    "                     access seen only for searched inputs, not for\n"
    "                     natural ones) count: exit code, and fix repairs "
    "them;\n"
    "                     a call of a function the module only declares\n"
    "                     is unsupported (default: an arbitrary result,\n"
    "                     no memory written, noted on every finding)\n"
    "  --library-kernels  check the kernels defined in the CUDA SDK's headers\n"
    "                     too (CUB's, Thrust's; default: listed, not checked)\n"
    "  --smt-timeout MS   per solver query (default 2000)\n"
    "  --static-budget MS all solver queries of one kernel (default 10000);\n"
    "                     both in nominal ms of Z3 work (resource units,\n"
    "                     4000 per ms): the same on a loaded machine\n"
    "  --replays N        runs replaying solver witnesses per kernel\n"
    "                     (default 24; 1..1000)\n"
    "  --may-alias        static: pointer arguments may overlap each other\n"
    "                     (default: distinct arguments are distinct buffers,\n"
    "                     as in the search's runs; __restrict__ always is)\n"
    "\n"
    "\n"
    "fix options (the detect options above choose the runs that check\n"
    "every edit):\n"
    "  -o FILE            write the repaired module (.ll: textual IR)\n"
    "  -i                 rewrite the input (.bc/.ll) in place instead\n"
    "                     (without -o or -i, fix writes no module)\n"
    "  --review           print a unified diff of the IR of each changed\n"
    "                     function, annotated with the finding each hunk\n"
    "                     fixes and the equivalent source edit\n"
    "  --patch FILE       .cu only: write the checked source patch (a\n"
    "                     unified diff for git apply / patch -p1; - for\n"
    "                     stdout) of the edits with an exact source form\n"
    "  --trust-dynamic    delete redundant barriers on dynamic evidence\n"
    "  --max-rounds N     detect-repair rounds (default 8)\n"
    "\n"
    "check options (and every detect and .cu option, for every file):\n"
    "  -j N               files checked at once (default: the cores)\n"
    "  -o FILE            write the JSON or SARIF report to FILE\n"
    "  a compile_commands.json entry adds its own -I, -isystem, -D, -U,\n"
    "  -std= and --cuda-gpu-arch (as --gpu-arch) to its file's options\n"
    "\n"
    "exit codes: 0 clean, 1 findings (fix: some remain; fix --review: edits\n"
    "proposed), 2 usage or input error (or nothing could be checked),\n"
    "3 internal error\n";

typedef struct args {
  const char *command, *input, *output;
  aucs_load_options load;
  const char **clang_args;
  int n_clang_args;
  aucs_detect_options detect;
  aucs_fix_options fix;
  int in_place;        /* fix -i */
  aucs_buf load_words; /* the load options as typed, for reproduce lines */
  int conditions;      /* facts --conditions */
  const char **inputs; /* check: every path */
  size_t ninputs;
  unsigned jobs; /* check -j */
  aucs_host_launches host; /* detect, fix of a .cu: its host code's launches */
  double started; /* when main started (aucs_budget_now()) */
} args;

static int fail_usage(const char *fmt, const char *what) {
  fputs("aucs: error: ", stderr);
  fprintf(stderr, fmt, what);
  fputs("\nrun 'aucs --help' for usage\n", stderr);
  return AUCS_EXIT_USAGE;
}

static void clang_arg(args *a, const char *arg) {
  a->clang_args = realloc(a->clang_args, sizeof(*a->clang_args) *
                                             (size_t)(a->n_clang_args + 1));
  if (!a->clang_args)
    abort();
  a->clang_args[a->n_clang_args++] = arg;
}

static const char *value(const char *arg, const char *flag) {
  size_t n = strlen(flag);
  return strncmp(arg, flag, n) == 0 ? arg + n : NULL;
}

/* A detect option at argv[*i]: 1 taken, 0 not one, else an exit code. */
static int detect_option(args *a, int argc, char **argv, int *i) {
  char *err = NULL;
  int got;
  if (strcmp(a->command, "fix") == 0)
    got = aucs_pipeline_fix_option(&a->fix, argc, argv, i, &err);
  else if (!strcmp(a->command, "detect") || !strcmp(a->command, "check"))
    got = aucs_options_arg(&a->detect, argc, argv, i, &err);
  else
    return 0;
  if (got >= 0)
    return got;
  fail_usage("%s", err);
  free(err);
  return AUCS_EXIT_USAGE;
}

static int load_option(args *a, int argc, char **argv, int *i);

/* check's -j N and -o FILE (kept out of the reproduce commands): 1 taken,
 * 0 not one, -1 after a usage error. */
static int check_option(args *a, int argc, char **argv, int *i) {
  const char *arg = argv[*i], *v = value(arg, "-j");
  if (!v && !strcmp(arg, "--jobs"))
    v = "";
  else if (!v)
    v = value(arg, "--jobs=");
  if (!strcmp(arg, "-o") && *i + 1 < argc)
    return a->output = argv[++*i], 1;
  if (!v)
    return 0;
  if (!*v)
    v = *i + 1 < argc ? argv[++*i] : "";
  char *end;
  long n = strtol(v, &end, 10);
  if (*end || end == v || n < 1 || n > 1024)
    return fail_usage("-j: bad value '%s' (1..1024)", v), -1;
  a->jobs = (unsigned)n;
  return 1;
}

/* One option at argv[*i]; 0 on success, else an exit code. */
static int option(args *a, int argc, char **argv, int *i) {
  int start = *i, rc;
  /* check's own -j/--jobs (its pool of files) before detect's */
  if (!strcmp(a->command, "check") && (rc = check_option(a, argc, argv, i)))
    return rc > 0 ? 0 : AUCS_EXIT_USAGE;
  rc = detect_option(a, argc, argv, i);
  if (rc)
    return rc == 1 ? 0 : rc;
  if (!strcmp(a->command, "fix") && !strcmp(argv[*i], "-i"))
    return a->in_place = 1, 0;
  if (!strcmp(a->command, "fix") && !strcmp(argv[*i], "--patch"))
    return *i + 1 < argc
               ? (a->fix.patch = argv[++*i], 0)
               : fail_usage("%s: needs a FILE (or - for stdout)", "--patch");
  if (!strcmp(a->command, "facts") && !strcmp(argv[*i], "--conditions"))
    return a->conditions = 1, 0;
  rc = load_option(a, argc, argv, i);
  for (int k = start; !rc && k <= *i; k++)
    aucs_buf_shell_word(&a->load_words, argv[k]);
  return rc;
}

/* "N", "NK", "NM" or "NG" (binary units) in bytes; 0 when malformed. */
static size_t size_value(const char *s) {
  size_t n = 0, digits = strspn(s, "0123456789");
  if (!digits || digits > 12)
    return 0;
  for (size_t i = 0; i < digits; i++)
    n = n * 10 + (size_t)(s[i] - '0');
  const char *unit = s + digits;
  int shift = !*unit               ? 0
              : !strcmp(unit, "K") ? 10
              : !strcmp(unit, "M") ? 20
              : !strcmp(unit, "G") ? 30
                                   : -1;
  return shift < 0 || n > (SIZE_MAX >> shift) ? 0 : n << shift;
}

/* A load option (how the input becomes a module) at argv[*i]. */
static int load_option(args *a, int argc, char **argv, int *i) {
  const char *arg = argv[*i], *v;
  int has_next = *i + 1 < argc;
  if (strcmp(arg, "-o") == 0 && has_next)
    a->output = argv[++*i];
  else if (strlen(arg) == 3 && strncmp(arg, "-O", 2) == 0 && arg[2] >= '0' &&
           arg[2] <= '3')
    a->load.opt_level = arg[2] - '0';
  else if ((v = value(arg, "--gpu-arch=")))
    a->load.gpu_arch = v;
  else if ((v = value(arg, "--cuda-path=")))
    a->load.cuda_path = v;
  else if (strcmp(arg, "--no-cuda-sdk") == 0)
    a->load.no_cuda_sdk = 1;
  else if (strcmp(arg, "--max-input-size") == 0 && has_next) {
    if (!(a->load.max_input_size = size_value(argv[++*i])))
      return fail_usage("--max-input-size: '%s' is not a size in bytes "
                        "(e.g. 4096, 64M, 2G)",
                        argv[*i]);
  } else if ((v = value(arg, "--clang-arg=")))
    clang_arg(a, v);
  else if ((strcmp(arg, "-I") == 0 || strcmp(arg, "-D") == 0) && has_next) {
    clang_arg(a, arg);
    clang_arg(a, argv[++*i]);
  } else if (value(arg, "-I") || value(arg, "-D"))
    clang_arg(a, arg);
  else
    return fail_usage("unknown option '%s'", arg);
  return 0;
}

static int parse(args *a, int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    if (argv[i][0] != '-' && !strcmp(a->command, "check")) {
      a->inputs = aucs_xrealloc(a->inputs, (a->ninputs + 1) * sizeof(char *));
      a->inputs[a->ninputs++] = a->input = argv[i];
    } else if (argv[i][0] != '-') {
      if (a->input)
        return fail_usage("more than one input ('%s')", argv[i]);
      a->input = argv[i];
    } else if (option(a, argc, argv, &i))
      return AUCS_EXIT_USAGE;
  }
  a->load.extra_args = a->clang_args;
  a->load.n_extra_args = a->n_clang_args;
  if (!a->input)
    return fail_usage("%s: no input file", a->command);
  a->detect.input = a->input;
  a->fix.detect.input = a->input;
  a->detect.sdk = a->fix.detect.sdk = aucs_module_sdk(&a->load);
  if (a->in_place && a->output)
    return fail_usage("%s: -i and -o exclude each other", a->command);
  size_t len = strlen(a->input);
  if (a->in_place && len > 3 && !strcmp(a->input + len - 3, ".cu"))
    return fail_usage("fix -i: cannot rewrite '%s' (CUDA source); write the "
                      "repaired module with -o FILE.bc",
                      a->input);
  a->fix.load = &a->load;
  if (a->fix.patch && (len < 3 || strcmp(a->input + len - 3, ".cu")))
    return fail_usage("fix --patch: '%s' is not CUDA source; a source patch "
                      "needs the .cu input",
                      a->input);
  if (strcmp(a->command, "compile") == 0 && !a->output)
    return fail_usage("%s: needs -o FILE", a->command);
  return 0;
}

static int write_module(LLVMModuleRef m, const char *path) {
  char *err = NULL;
  if (aucs_module_write(m, path, &err)) {
    fprintf(stderr, "aucs: error: %s\n", err);
    free(err);
    return AUCS_EXIT_USAGE;
  }
  return AUCS_EXIT_OK;
}

/* "aucs detect <input> <load options>": how reproduce commands start. */
static char *reproduce_prefix(const args *a) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "aucs detect");
  aucs_buf_shell_word(&b, a->input);
  if (a->load_words.len)
    aucs_buf_puts(&b, a->load_words.data);
  return aucs_buf_take(&b);
}

static int detect(args *a, LLVMModuleRef m, aucs_buf *out, aucs_buf *diag) {
  char *prefix = reproduce_prefix(a);
  a->detect.command = prefix;
  int rc = aucs_pipeline_detect(m, &a->detect, out, diag);
  a->detect.command = NULL;
  free(prefix);
  return rc;
}

/* Repair m; write it to -o or, with -i, over the input, unless the
 * repair failed (a 2 for a kernel not checked beside repaired ones is
 * partial: written). */
static int fix(args *a, LLVMModuleRef m, aucs_buf *out, aucs_buf *diag) {
  int partial = 0;
  a->fix.partial = &partial;
  int rc = aucs_pipeline_fix(m, &a->fix, out, diag);
  a->fix.partial = NULL;
  const char *to = a->in_place ? a->input : a->output;
  if (rc > AUCS_EXIT_FINDINGS && !(rc == AUCS_EXIT_USAGE && partial))
    return rc;
  if (to) {
    int w = write_module(m, to);
    if (!w && partial)
      aucs_buf_puts(diag, "aucs: note: fix: the module is written with every "
                          "repair made; exit 2: a kernel was not checked "
                          "(see the warning above)\n");
    return w ? w : rc;
  }
  if (!a->fix.review && !a->fix.patch)
    aucs_buf_puts(diag, "aucs: note: no module written (give -o FILE, or "
                        "-i to rewrite the input)\n");
  return rc;
}

static int run(args *a, LLVMModuleRef m) {
  aucs_buf out = {0}, diag = {0};
  int rc;
  if (strcmp(a->command, "facts") == 0 && a->conditions)
    rc = aucs_pipeline_conditions(m, &out, &diag);
  else if (strcmp(a->command, "facts") == 0)
    rc = aucs_pipeline_facts(m, &out, &diag);
  else if (strcmp(a->command, "detect") == 0)
    rc = detect(a, m, &out, &diag);
  else if (strcmp(a->command, "fix") == 0)
    rc = fix(a, m, &out, &diag);
  else
    rc = write_module(m, a->output);
  if (out.len)
    fputs(out.data, stdout);
  fflush(stdout); /* before diag: one order in a pipe (2>&1) too */
  if (diag.len)
    fputs(diag.data, stderr);
  aucs_buf_free(&out);
  aucs_buf_free(&diag);
  return rc;
}

/* LLVM's fatal errors (report_fatal_error) end the process: while the
 * input loads they mean a corrupt input (exit 2), later an internal error
 * (exit 3); one line either way, never an abort. */
static const char *loading_input;

static void on_llvm_fatal(const char *reason) {
  if (loading_input)
    fprintf(stderr, "aucs: error: %s: corrupt input: LLVM error: %s\n",
            loading_input, reason);
  else
    fprintf(stderr, "aucs: internal error: LLVM error: %s\n", reason);
  fflush(stderr);
  aucs_temp_remove_all();
  _Exit(loading_input ? AUCS_EXIT_USAGE : AUCS_EXIT_INTERNAL);
}

/* detect's and fix's budget counts from the command's start (docs/ci.md,
 * "Budgets"): the load stops when it runs out, and the first kernel (fix:
 * the repair) has what is left. */
static void start_clock(args *a, aucs_budget *b) {
  int is_fix = !strcmp(a->command, "fix");
  aucs_detect_options *d = is_fix ? &a->fix.detect : &a->detect;
  if (!is_fix && strcmp(a->command, "detect"))
    return;
  double s = d->time_budget ? d->time_budget
             : is_fix       ? AUCS_BUDGET_FIX_SECONDS
                            : AUCS_BUDGET_DETECT_SECONDS;
  aucs_budget_init_at(b, a->started, s, 0, NULL);
  d->started = a->started;
  a->load.budget = b;
}

/* detect and fix of a .cu: the launches its host code makes, so each kernel
 * is checked at its own launch (launchplan.h). Host code that does not
 * compile (no CUDA SDK) leaves the launches to the search, as a .bc's. */
static void host_launches(args *a) {
  if (!aucs_module_is_cu(a->input) ||
      (strcmp(a->command, "detect") && strcmp(a->command, "fix")))
    return;
  char *err = NULL;
  if (aucs_hostlaunch_load(a->input, &a->load, &a->host, &err)) {
    const char *d = getenv("AUCS_DEBUG"); /* AUCS_DEBUG=hostlaunch */
    if (d && strstr(d, "hostlaunch"))
      fprintf(stderr, "aucs: hostlaunch: %s\n", err);
    free(err);
    return;
  }
  a->detect.host = a->fix.detect.host = &a->host;
}

static int load(args *a, aucs_module **mod) {
  char *err = NULL;
  aucs_budget clock;
  start_clock(a, &clock);
  a->load.isolate = 1;
  loading_input = a->input;
  int rc = aucs_module_load(a->input, &a->load, mod, &err);
  loading_input = NULL;
  a->load.budget = NULL;
  if (rc)
    fprintf(stderr, "aucs: error: %s\n", err);
  else
    host_launches(a);
  free(err);
  return rc ? AUCS_EXIT_USAGE : AUCS_EXIT_OK;
}

static int check(args *a) {
  if (a->output && !a->detect.json && !a->detect.sarif)
    return fail_usage("%s: -o needs --format=json or --format=sarif",
                      a->command);
  a->load.isolate = 1; /* each file's child loads as load() does */
  a->detect.jobs = 1;   /* the files are the parallel work */
  aucs_check_options o = {.paths = a->inputs,
                          .npaths = a->ninputs,
                          .load = &a->load,
                          .load_words = a->load_words.data,
                          .detect = &a->detect,
                          .jobs = a->jobs,
                          .output = a->output};
  return aucs_check_run(&o);
}

static int known(const char *command) {
  static const char *const commands[] = {"facts", "detect", "fix", "compile",
                                         "check"};
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(command, commands[i]) == 0)
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  double started = aucs_budget_now();
  if (argc < 2)
    return fputs(usage, stderr), AUCS_EXIT_USAGE;
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
      !strcmp(argv[1], "help"))
    return fputs(usage, stdout), AUCS_EXIT_OK;
  if (!strcmp(argv[1], "--version"))
    return printf("aucs %s\n", AUCS_VERSION), AUCS_EXIT_OK;
  if (!known(argv[1]))
    return fail_usage("unknown command '%s'", argv[1]);
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
      return fputs(usage, stdout), AUCS_EXIT_OK;

  LLVMInstallFatalErrorHandler(on_llvm_fatal);
  aucs_temp_install_handlers();
  args a = {.command = argv[1], .started = started};
  int rc = parse(&a, argc, argv);
  aucs_module *mod = NULL;
  if (!rc && !strcmp(a.command, "check"))
    rc = check(&a);
  else if (!rc && !(rc = load(&a, &mod)))
    rc = run(&a, aucs_module_llvm(mod));
  aucs_module_free(mod);
  free(a.clang_args);
  free(a.inputs);
  aucs_options_free(&a.detect);
  aucs_pipeline_fix_options_free(&a.fix);
  aucs_buf_free(&a.load_words);
  aucs_hostlaunch_free(&a.host);
  return rc;
}
