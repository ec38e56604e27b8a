#!/usr/bin/env python3
"""projects_speed: `aucs check FILE` beside clang's device compile of FILE,
over the real applications of ../shared/projects (issue 33).

usage: projects_speed.py --aucs BIN [--old-aucs BIN] [--root DIR]
                         [--apps N] [--only APP,...] [--time-budget S]
                         [--timeout S] [--out FILE.md]
       projects_speed.py --compare BEFORE.md AFTER.md

For each app folder (*-cuda) of --root (default ../shared/projects/hecbench
beside the project), each .cu file that `aucs check DIR` would check (a .cu
that another .cu of the folder includes as `#include "x.cu"` is a fragment
of that one, left out), in one run, side by side:
  t_compile  clang-22 -x cuda --cuda-device-only -O2 -S of the file, with
             the SDK flags aucs compiles it with (--cuda-path, the SDK's
             cccl include dir), through the NVPTX backend to PTX;
  t_check    aucs check FILE --format=json --time-budget S -j 1 (its own
             compiles, the host side's included);
  t_old      (with --old-aucs) the same command with that binary, run just
             before t_check: a before/after in one run.
From the JSON: kernels (a file with none, host code only, is left out), checked (status checked: a kernel whose budget ran
out still counts), budget (checked kernels whose budget.reached is true),
library kernels (listed, not checked). A file clang or aucs does not compile,
or with no kernel, is listed and left out of the ratios. CPU: user + sys of
the command and its children. Every command under nice -n 10.
Writes Markdown to --out (and stdout). A benchmark: it asserts nothing.
--compare: the summary of two such tables (or the rows a cut-short run
printed) over the files both list with a kernel, side by side.
"""
import argparse, json, os, re, resource, subprocess, sys
import tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speed import median, pct  # noqa: E402 (one definition of each)

NICE = ["nice", "-n", "10"]
SDK = "/usr/local/cuda"
CLANG = ["clang-22", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_70",
         "-nocudalib", "-Wno-unknown-cuda-version", "-O2", "-S"]


def cpu_now():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, timeout, cwd=None):
    """-> (exit code or None on timeout, wall s, cpu s, stdout, stderr)"""
    t0, c0 = time.time(), cpu_now()
    try:
        p = subprocess.run(NICE + cmd, capture_output=True, text=True,
                           timeout=timeout, errors="replace", cwd=cwd)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = None, "", "timeout"
    return rc, time.time() - t0, cpu_now() - c0, out, err


INCLUDE = re.compile(r'\s*#\s*include\s*"([^"]+\.cu)"')


def app_files(app):
    """The .cu files of app (recursively) less those another one includes."""
    cus = []
    for d, _, names in os.walk(app):
        cus += [os.path.join(d, n) for n in names if n.endswith(".cu")]
    cus.sort()
    included = set()
    for f in cus:
        for line in open(f, errors="replace"):
            m = INCLUDE.match(line)
            if m:
                included.add(os.path.realpath(
                    os.path.join(os.path.dirname(f), m.group(1))))
    return [f for f in cus if os.path.realpath(f) not in included]


def clang_flags():
    """aucs's SDK flags (passes/analysis/module.c): --cuda-path, the SDK's
    version (as -target-sdk-version: CUDA 12+ launches through
    cudaLaunchKernel), its cccl include dir."""
    flags = ["--cuda-path=" + SDK]
    try:
        for line in open(os.path.join(SDK, "include", "cuda.h")):
            m = re.match(r"#define CUDA_VERSION (\d+)", line)
            if m:
                v = int(m.group(1))
                flags += ["-Xclang", "-target-sdk-version=%d.%d"
                          % (v // 1000, v % 1000 // 10)]
                break
    except OSError:
        pass
    cccl = os.path.join(SDK, "include", "cccl")
    if os.path.isdir(cccl):
        flags += ["-isystem", cccl]
    return flags


def check(aucs, f, budget, timeout):
    cmd = [aucs, "check", f, "--format=json", "--time-budget", str(budget),
           "-j", "1"]
    rc, wall, cpu, out, err = run(cmd, timeout)
    r = {"rc": rc, "wall": wall, "cpu": cpu, "kernels": 0, "checked": 0,
         "budget": 0, "library": 0, "out": [], "error": None}
    if rc is None:
        r["error"] = "timeout after %d s" % timeout
        return r
    try:
        doc = json.loads(out)
    except ValueError:
        r["error"] = "no JSON (exit %s): %s" % (rc, err.strip()[-160:])
        return r
    for fl in doc.get("files", []):
        rep = fl.get("report") or {}
        if fl.get("status") != "checked" and not rep:
            r["error"] = (fl.get("error") or "not checked").splitlines()[0][:160]
            continue
        r["library"] += len(rep.get("library_kernels") or [])
        for k in rep.get("kernels", []):
            r["kernels"] += 1
            if k.get("status") in ("unsupported", "error"):
                continue
            r["checked"] += 1
            b = k.get("budget") or {}
            if b.get("reached"):
                r["budget"] += 1
                r["out"].append((k.get("demangled") or k.get("name") or "?",
                                 b))
    return r


def table_rows(path):
    """{(app, file): (check/compile, cpu c/c, checked, budget)} of a table."""
    rows = {}
    for line in open(path, errors="replace"):
        c = [x.strip() for x in line.split("|")]
        if len(c) < 11 or not c[7].isdigit() or int(c[7]) == 0:
            continue
        rows[(c[1], c[2])] = (float(c[5]), float(c[6]), int(c[8]), int(c[9]))
    return rows


def compare(before, after):
    b, a = table_rows(before), table_rows(after)
    both = sorted(set(b) & set(a))
    print("%d files with a kernel in both tables\n" % len(both))
    for label, t in (("before", b), ("after", a)):
        cc = [t[k][0] for k in both]
        cp = [t[k][1] for k in both]
        ck = sum(t[k][2] for k in both)
        bu = sum(t[k][3] for k in both)
        print("- %s (%s): check/compile median %.2f, p90 %.2f; in CPU time "
              "median %.2f, p90 %.2f; checked kernels %d, budget ran out %d "
              "(%.1f%%)" % (label, os.path.basename(before if label ==
                                                    "before" else after),
                            median(cc), pct(cc, 90), median(cp), pct(cp, 90),
                            ck, bu, 100.0 * bu / max(ck, 1)))


def machine():
    cpu = "?"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return cpu, os.cpu_count()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        return compare(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("--aucs", required=True)
    ap.add_argument("--old-aucs")
    ap.add_argument("--root", default=os.path.join(
        here, "..", "..", "shared", "projects", "hecbench"))
    ap.add_argument("--apps", type=int, default=0)
    ap.add_argument("--only", default="")
    ap.add_argument("--time-budget", type=float, default=10)
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    apps = sorted(d for d in os.listdir(root) if d.endswith("-cuda"))
    if a.only:
        apps = [x for x in apps if x in a.only.split(",")]
    if a.apps:
        apps = apps[:a.apps]
    lines = []

    def say(s=""):
        lines.append(s)
        print(s, flush=True)

    cpu, ncores = machine()
    load0 = open("/proc/loadavg").read().split()[:3]
    say("# Projects: `aucs check FILE` beside clang's device compile (issue 33)")
    say()
    say("- date: %s" % time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()))
    say("- machine: %s, %d cores (shared with other engineers' builds and "
        "tests: read ratios, not absolute times)" % (cpu, ncores))
    say("- aucs: %s%s" % (a.aucs, ("; old: %s" % a.old_aucs) if a.old_aucs else ""))
    if a.note:
        say("- " + a.note)
    say("- apps: %d of %s; budget %g s a kernel; load average at start %s"
        % (len(apps), root, a.time_budget, " ".join(load0)))
    say("- every command under nice -n 10, one at a time; check/compile is "
        "wall-clock t_check / t_compile of the same file in the same run; "
        "cpu: user + sys with children")
    say()
    hdr = ("| app | file | t_compile | t_check | check/compile | cpu c/c | "
           "kernels | checked | budget | library |")
    sep = "|---|---|---|---|---|---|---|---|---|---|"
    if a.old_aucs:
        hdr += " t_old | old budget | new/old |"
        sep += "---|---|---|"
    say(hdr)
    say(sep)
    rows, skipped = [], []
    flags = clang_flags()
    with tempfile.TemporaryDirectory(prefix="aucs-projects-") as tmp:
        for app in apps:
            for f in app_files(os.path.join(root, app)):
                rel = os.path.relpath(f, os.path.join(root, app))
                crc, cwall, ccpu, _, cerr = run(
                    CLANG + flags + [f, "-o", os.path.join(tmp, "k.s")],
                    a.timeout)
                old = check(a.old_aucs, f, a.time_budget, a.timeout) \
                    if a.old_aucs else None
                new = check(a.aucs, f, a.time_budget, a.timeout)
                if crc != 0:
                    first = next((l for l in cerr.splitlines() if "error" in l),
                                 "failed")
                    skipped.append((app, rel, "clang: " + first[:160]))
                    continue
                if not new["kernels"]:
                    skipped.append((app, rel, "aucs: " + (new["error"] or
                                                         "no kernel")))
                    continue
                r = {"app": app, "file": rel, "compile": cwall, "ccpu": ccpu,
                     "new": new, "old": old}
                rows.append(r)
                line = "| %s | %s | %.2f | %.2f | %.2f | %.2f | %d | %d | %d | %d |" % (
                    app, rel, cwall, new["wall"], new["wall"] / cwall,
                    new["cpu"] / max(ccpu, 1e-3), new["kernels"],
                    new["checked"], new["budget"], new["library"])
                if old:
                    line += " %.2f | %d | %.2f |" % (old["wall"], old["budget"],
                                                     new["wall"] / old["wall"])
                say(line)
    say()
    say("## Summary")
    say()

    def summary(label, key):
        rs = [r for r in rows if r[key]]
        if not rs:
            return
        cc = [r[key]["wall"] / r["compile"] for r in rs]
        cp = [r[key]["cpu"] / max(r["ccpu"], 1e-3) for r in rs]
        ck = sum(r[key]["checked"] for r in rs)
        bu = sum(r[key]["budget"] for r in rs)
        say("- %s: %d files, check/compile median %.2f, p90 %.2f, max %.2f; "
            "in CPU time median %.2f, p90 %.2f; checked kernels %d, budget ran "
            "out %d (%.1f%%); total check %.0f s, compile %.0f s"
            % (label, len(rs), median(cc), pct(cc, 90), max(cc), median(cp),
               pct(cp, 90), ck, bu, 100.0 * bu / max(ck, 1),
               sum(r[key]["wall"] for r in rs), sum(r["compile"] for r in rs)))

    summary("this aucs", "new")
    if a.old_aucs:
        summary("old aucs (same run)", "old")
        ratio = [r["new"]["wall"] / r["old"]["wall"] for r in rows]
        say("- new/old t_check median %.2f, p90 %.2f" % (median(ratio),
                                                          pct(ratio, 90)))
    say("- load average at end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    out = [(r["app"], r["file"], k, b) for r in rows for k, b in r["new"]["out"]]
    if out:
        say()
        say("## Kernels whose budget ran out (this aucs)")
        say()
        for app, rel, k, b in out:
            say("- %s/%s: `%s` %s" % (app, rel, k, json.dumps(b, sort_keys=True)))
    if skipped:
        say()
        say("## Left out of the ratios (%d files)" % len(skipped))
        say()
        for app, rel, why in skipped:
            say("- %s/%s: %s" % (app, rel, why))
    if a.out:
        with open(a.out, "w") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
