#!/usr/bin/env python3
"""speed: what checking a kernel costs beside compiling it (issue 15).

usage: speed.py --root DIR --aucs BIN [--plugin SO] [--bench BIN]
                [--prev-bench BIN] [--old-aucs BIN] [--realworld DIR]
                [--only SUBSTR] [--sections files,shipped,plugin,throughput]
                [--plugin-files corpus|all] [--timeout S] [--cold]

One run per file, side by side. Section "files" is the issue's definition,
a user's plain commands: every tests/kernels/*.cu (the file's AUCS-LAUNCH
options) and every original of the real-world set (its manifest's launch,
args, struct_args and compile flags), both with the installed CUDA SDK
(/usr/local/cuda; aucs's default). A corpus file that plain clang cannot
compile with the SDK (written for the shipped header: legacy texture<>
references, surface helpers) is listed with clang's first error and left
out of that section's ratios; it is measured in section "shipped".
Section "shipped" is the stricter one: tests/kernels with the shipped
minimal header (aucs --no-cuda-sdk; clang -nocudainc -include
aucs_cuda.h), as the corpus tests run them, where clang's compile is
little more than its process start. Per file:
  t_compile  clang-22 -x cuda --cuda-device-only -O2 of the .cu with the
             include and arch flags aucs compiles it with, through the
             NVPTX backend to PTX (-S: the installed ptxas does not take
             sm_70, so `-c` cannot finish; ptxas is left out);
  t_detect   aucs detect FILE.cu (its own compile included);
  t_fix      aucs fix FILE.cu -o TMP.bc, for files whose detect exits 1;
  t_old      (with --old-aucs) aucs detect with that binary, run just
             before t_detect, for a before/after in one run.
Every aucs uses a private cache of precompiled preludes (aucs/pch.h),
filled before each section by one `aucs compile` per file of it
(reported; --cold: not). Ratios leave out files whose compile failed.
CPU columns: user + sys seconds of the command and its children.
plugin: clang -fpass-plugin=AuCS.so with AUCS_MODE=detect (AUCS_OPTIONS =
  the launch options) at -O0 and -O2 against the same compile without it,
  on the files of section "files" that compile (--plugin-files corpus:
  tests/kernels only).
throughput: bench on benchmarks/kernels/throughput.cu (one core, taskset
  -c 0) at -O0 and -O2, this binary and --prev-bench interleaved, 3 rounds.
Prints Markdown on stdout. A benchmark: it asserts nothing.
"""
import argparse, glob, json, os, re, shlex, statistics, subprocess, sys
import resource, tempfile, time

NICE = ["nice", "-n", "10"]


CPU = {}  # the CPU seconds (user + sys, children included) of the last run


def cpu_now():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, timeout, env=None):
    """-> (exit code or None on timeout, seconds, stdout); CPU["last"],
    CPU["err"] (the first line of stderr that says error)."""
    t0, c0 = time.time(), cpu_now()
    try:
        p = subprocess.run(NICE + cmd, capture_output=True, text=True,
                           timeout=timeout, env=env, errors="replace")
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = None, "", "timeout"
    CPU["last"] = cpu_now() - c0
    lines = err.splitlines()
    CPU["err"] = next((l for l in lines if "error" in l), lines[0] if lines
                      else "")
    return rc, time.time() - t0, out


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, max(0, int(round(p / 100.0 * (len(xs) - 1)))))]


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def fmt(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return repr(v) if isinstance(v, float) else str(v)


# --- the files and their options -------------------------------------------

SDK = "/usr/local/cuda"


def corpus_files(root, shipped):
    """tests/kernels: with the shipped header (shipped) or the CUDA SDK."""
    inc = os.path.join(root, "include", "cuda")
    hdr = ["-nocudainc", "--cuda-path=" + inc, "-Xclang", "-target-feature",
           "-Xclang", "+ptx70", "-include", "aucs_cuda.h", "-I", inc]
    clang, aucs = (hdr, ["--no-cuda-sdk"]) if shipped else \
        (["--cuda-path=" + SDK], [])
    out = []
    for f in sorted(glob.glob(os.path.join(root, "tests", "kernels", "*.cu"))):
        launch = []
        for line in open(f, errors="replace"):
            m = re.match(r"\s*//\s*AUCS-LAUNCH:(.*)", line)
            if m:
                launch = shlex.split(m.group(1))
        out.append({"name": os.path.basename(f), "cu": f, "clang": clang,
                    "aucs": aucs, "launch": launch})
    return out


def realworld_files(rw):
    man = json.load(open(os.path.join(rw, "manifest.json")))
    out = []
    for e in man:
        if e.get("mutant_of"):
            continue
        L = e["launch"]
        launch = ["--kernel", e["kernel"],
                  "--grid", ",".join(str(v) for v in L["grid"]),
                  "--block", ",".join(str(v) for v in L["block"])]
        for k, v in e.get("args", {}).items():
            launch += ["--arg", "%s=%s" % (k, fmt(v))]
        for p, fields in e.get("struct_args", {}).items():
            for fld, v in fields.items():
                launch += ["--arg", "%s.%s=%s" % (p, fld, fmt(v))]
        flags = e.get("compile_flags", [])
        aucs = []
        for fl in flags:
            aucs += ["-I", fl[2:]] if fl.startswith("-I") else ["--clang-arg=" + fl]
        out.append({"name": e["id"], "cu": os.path.join(rw, e["dir"], "kernel.cu"),
                    "clang": ["--cuda-path=" + SDK] + flags,
                    "aucs": aucs, "launch": launch})
    return out


CLANG = ["clang-22", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_70",
         "-nocudalib", "-Wno-unknown-cuda-version"]


# --- sections ---------------------------------------------------------------

def time_file(a, f, tmp):
    r = {"name": f["name"]}
    rc, r["compile"], _ = run(CLANG + ["-O2", "-S"] + f["clang"] +
                              [f["cu"], "-o", os.path.join(tmp, "k.s")], a.timeout)
    r["compile_ok"], r["c_cpu"] = rc == 0, CPU["last"]
    r["compile_err"] = CPU["err"]
    if a.old_aucs:
        rc, r["old"], _ = run([a.old_aucs, "detect"] + f["aucs"] + f["launch"] +
                              [f["cu"]], a.timeout)
        r["old_rc"], r["o_cpu"] = rc, CPU["last"]
    rc, r["detect"], _ = run([a.aucs, "detect"] + f["aucs"] + f["launch"] +
                             [f["cu"]], a.timeout)
    r["rc"], r["d_cpu"] = rc, CPU["last"]
    if rc == 1:
        rc2, r["fix"], _ = run([a.aucs, "fix"] + f["aucs"] + f["launch"] +
                               [f["cu"], "-o", os.path.join(tmp, "fixed.bc")],
                               a.timeout)
        r["fix_rc"] = rc2
    return r


def secs(v, rc=0):
    return "timeout" if rc is None else "%.2f" % v


def warm_up(a, files, tmp):
    """Fill the private prelude cache (aucs/pch.h) as earlier runs would."""
    cache = os.environ["AUCS_CACHE_DIR"]
    t0, c0 = time.time(), cpu_now()
    for f in files:
        run([a.aucs, "compile"] + f["aucs"] + [f["cu"], "-o",
                                              os.path.join(tmp, "w.bc")], a.timeout)
    n = len([x for x in os.listdir(cache) if x.endswith(".pch")]) \
        if os.path.isdir(cache) else 0
    print("Warm-up: `aucs compile` of every file once, filling a fresh cache of "
          "precompiled preludes as earlier runs would: %d preludes, %.1f s "
          "(%.1f s CPU) for %d files. The times below are with the cache warm.\n"
          % (n, time.time() - t0, cpu_now() - c0, len(files)))


def files_section(a, files, tmp, title, intro):
    print("## %s\n" % title)
    print(intro + "\n")
    if not a.cold:
        warm_up(a, files, tmp)
    hdr = ("| file | t_compile | t_detect | exit | t_fix | fix exit | "
           "detect/compile | fix/compile | cpu compile | cpu detect | cpu d/c |")
    sep = "|---|---|---|---|---|---|---|---|---|---|---|"
    if a.old_aucs:
        hdr += " t_detect old | old exit | new/old |"
        sep += "---|---|---|"
    print(hdr)
    print(sep)
    rows = []
    for f in files:
        r = time_file(a, f, tmp)
        rows.append(r)
        c = r["compile"]
        line = "| %s | %.2f%s | %s | %s | %s | %s | %.2f | %s |" % (
            r["name"], c, "" if r["compile_ok"] else " (failed)",
            secs(r["detect"], r["rc"]), r["rc"],
            secs(r["fix"], r["fix_rc"]) if "fix" in r else "-",
            r.get("fix_rc", "-"), r["detect"] / c,
            "%.2f" % (r["fix"] / c) if "fix" in r else "-")
        line += " %.2f | %.2f | %.2f |" % (r["c_cpu"], r["d_cpu"],
                                           r["d_cpu"] / max(r["c_cpu"], 1e-3))
        if a.old_aucs:
            line += " %s | %s | %.2f |" % (secs(r["old"], r["old_rc"]),
                                           r["old_rc"], r["detect"] / r["old"])
        print(line, flush=True)
    return rows


FILES_TITLE = "Per file: compile, detect, fix (the issue's definition: CUDA SDK)"
FILES_INTRO = ("tests/kernels and the real-world originals as a user runs them: "
               "`clang-22 ... --cuda-path=%s -O2` and plain `aucs detect` / "
               "`aucs fix` (the SDK by default, with aucs's cache of "
               "precompiled preludes)." % SDK)
SHIPPED_TITLE = "Per file with the shipped header (--no-cuda-sdk): the stricter one"
SHIPPED_INTRO = ("tests/kernels as the corpus tests compile them: clang with "
                 "`-nocudainc -include aucs_cuda.h` (a compile that is little "
                 "more than clang's start), `aucs detect --no-cuda-sdk`.")


def failed_compiles(rows):
    bad = [r for r in rows if not r["compile_ok"]]
    if not bad:
        return
    print("\nLeft out of the ratios below, %d files clang-22 does not compile "
          "here (t_compile undefined; aucs detect's exit is in the table):\n"
          % len(bad))
    for r in bad:
        print("- %s: %s" % (r["name"], r["compile_err"][:160] or "failed"))


def files_summary(a, title, groups):
    print("\n### Summary: %s\n" % title)
    for label, rows in groups:
        left_out = sum(1 for r in rows if not r["compile_ok"])
        rows = [r for r in rows if r["compile_ok"]]
        if not rows:
            if left_out:
                print("- %s: no file compiled (%d left out)" % (label, left_out))
            continue
        if left_out:
            label += " (%d more left out: compile failed)" % left_out
        d = [r["detect"] / r["compile"] for r in rows]
        fx = [r["fix"] / r["compile"] for r in rows if "fix" in r]
        over = sum(1 for r in rows if r["rc"] is None or r["detect"] > 10)
        print("- %s, %d files: t_detect/t_compile median %.2f, p90 %.2f, max %.2f; "
              "t_fix/t_compile median %.2f over %d files needing an edit; "
              "t_detect > 10 s: %d; t_compile median %.2f s, t_detect median %.2f s"
              % (label, len(rows), median(d), pct(d, 90), max(d), median(fx),
                 len(fx), over, median([r["compile"] for r in rows]),
                 median([r["detect"] for r in rows])))
        dc = [r["d_cpu"] / max(r["c_cpu"], 1e-3) for r in rows]
        print("  - CPU time (user + sys, children included; less sensitive to "
              "load): detect/compile median %.2f, p90 %.2f, max %.2f"
              % (median(dc), pct(dc, 90), max(dc)))
        if a.old_aucs:
            ratio = [r["detect"] / r["old"] for r in rows]
            same = sum(1 for r in rows if r["rc"] == r["old_rc"])
            print("  - before/after (--old-aucs): t_detect new/old median %.2f, "
                  "p90 %.2f; totals old %.1f s, new %.1f s; same exit code on "
                  "%d/%d; t_detect_old/t_compile median %.2f, p90 %.2f"
                  % (median(ratio), pct(ratio, 90), sum(r["old"] for r in rows),
                     sum(r["detect"] for r in rows), same, len(rows),
                     median([r["old"] / r["compile"] for r in rows]),
                     pct([r["old"] / r["compile"] for r in rows], 90)))
            oc = [r["d_cpu"] / max(r["o_cpu"], 1e-3) for r in rows]
            odc = [r["o_cpu"] / max(r["c_cpu"], 1e-3) for r in rows]
            print("  - before/after in CPU time: new/old median %.2f, p90 %.2f; "
                  "totals old %.1f s, new %.1f s; old detect/compile median "
                  "%.2f, p90 %.2f"
                  % (median(oc), pct(oc, 90), sum(r["o_cpu"] for r in rows),
                     sum(r["d_cpu"] for r in rows), median(odc), pct(odc, 90)))


def plugin_section(a, files, tmp):
    print("\n## Plugin: clang -fpass-plugin with AUCS_MODE=detect\n")
    print("| file | level | without | with | with/without | exit |")
    print("|---|---|---|---|---|---|")
    ratios = {0: [], 2: []}
    for f in files:
        for lvl in (0, 2):
            cmd = CLANG + ["-O%d" % lvl, "-S", "-g"] + f["clang"] + \
                [f["cu"], "-o", os.path.join(tmp, "p.s")]
            _, t0, _ = run(cmd, a.timeout)
            env = dict(os.environ, AUCS_MODE="detect",
                       AUCS_OPTIONS=" ".join(shlex.quote(x) for x in f["launch"]))
            rc, t1, _ = run(cmd[:1] + ["-fpass-plugin=" + a.plugin] + cmd[1:],
                            a.timeout, env)
            ratios[lvl].append(t1 / t0)
            print("| %s | -O%d | %.2f | %s | %.2f | %s |" % (
                f["name"], lvl, t0, secs(t1, rc), t1 / t0, rc), flush=True)
    print()
    for lvl in (0, 2):
        print("- -O%d: median with/without %.2f, p90 %.2f, max %.2f (%d files)"
              % (lvl, median(ratios[lvl]), pct(ratios[lvl], 90),
                 max(ratios[lvl]) if ratios[lvl] else float("nan"),
                 len(ratios[lvl])))


def mips(bench, kernel, lvl):
    cmd = ["taskset", "-c", "0", bench, "--options",
           "--grid 1 --block 1024 --arg iters=600 --fill random --no-static",
           kernel]
    _, _, out = run(cmd, 600)
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 9 and cells[2] == "-O%d" % lvl:
            return float(cells[8])
    return float("nan")


def throughput_section(a):
    kernel = os.path.join(a.root, "benchmarks", "kernels", "throughput.cu")
    print("\n## Interpreter throughput (M thread-instructions/s, one core)\n")
    print("benchmarks/kernels/throughput.cu, one 1024-thread block, no static "
          "checker; this build and the previous commit's, interleaved, 3 rounds.\n")
    print("| round | -O0 this | -O0 previous | -O2 this | -O2 previous |")
    print("|---|---|---|---|---|")
    got = {k: [] for k in ("t0", "p0", "t2", "p2")}
    for i in range(3):
        vals = []
        for lvl in (0, 2):
            t = mips(a.bench, kernel, lvl)
            p = mips(a.prev_bench, kernel, lvl) if a.prev_bench else float("nan")
            got["t%d" % lvl].append(t)
            got["p%d" % lvl].append(p)
            vals += [t, p]
        print("| %d | %.1f | %.1f | %.1f | %.1f |" % tuple([i + 1] + vals), flush=True)
    print("| median | %.1f | %.1f | %.1f | %.1f |" % tuple(
        median(got[k]) for k in ("t0", "p0", "t2", "p2")))


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("--root", required=True)
    ap.add_argument("--aucs", required=True)
    ap.add_argument("--plugin")
    ap.add_argument("--bench")
    ap.add_argument("--prev-bench")
    ap.add_argument("--old-aucs")
    ap.add_argument("--realworld", default=os.environ.get(
        "AUCS_REALWORLD", os.path.join(os.path.dirname(os.path.abspath(
            __file__)), "..", "..", "shared", "realworld")))
    ap.add_argument("--only")
    ap.add_argument("--sections", default="files,shipped,plugin,throughput")
    ap.add_argument("--plugin-files", default="corpus")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--cold", action="store_true",
                    help="no warm-up of the prelude cache")
    a = ap.parse_args()
    sections = a.sections.split(",")
    corpus = corpus_files(a.root, shipped=False)
    shipped = corpus_files(a.root, shipped=True)
    rw = realworld_files(a.realworld) if os.path.isdir(a.realworld) else []
    if a.only:
        corpus = [f for f in corpus if a.only in f["name"]]
        shipped = [f for f in shipped if a.only in f["name"]]
        rw = [f for f in rw if a.only in f["name"]]
    with tempfile.TemporaryDirectory(prefix="aucs-speed-") as tmp:
        os.environ["AUCS_CACHE_DIR"] = os.path.join(tmp, "cache")
        ok = {f["name"] for f in corpus + rw}
        if "files" in sections:
            rows = files_section(a, corpus + rw, tmp, FILES_TITLE, FILES_INTRO)
            failed_compiles(rows)
            ok = {r["name"] for r in rows if r["compile_ok"]}
            files_summary(a, "the issue's definition (CUDA SDK)",
                          [("all", rows), ("tests/kernels", rows[:len(corpus)]),
                           ("realworld originals", rows[len(corpus):])])
        if "shipped" in sections:
            rows = files_section(a, shipped, tmp, SHIPPED_TITLE, SHIPPED_INTRO)
            failed_compiles(rows)
            files_summary(a, "tests/kernels with the shipped header",
                          [("tests/kernels, --no-cuda-sdk", rows)])
        if "plugin" in sections and a.plugin:
            pf = corpus + (rw if a.plugin_files == "all" else [])
            plugin_section(a, [f for f in pf if f["name"] in ok], tmp)
        if "throughput" in sections and a.bench:
            throughput_section(a)


if __name__ == "__main__":
    main()
