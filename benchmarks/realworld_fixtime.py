#!/usr/bin/env python3
"""fix time against detect time on the real-world kernels that need an edit.

usage: realworld_fixtime.py AUCS [--realworld DIR] [--only SUBSTR]
                            [--timeout S] [--repeat N]

For every entry of DIR/manifest.json (default $AUCS_REALWORLD, else
../shared/realworld beside the project) whose id contains SUBSTR: `AUCS
compile` of its kernel.cu, then `AUCS detect` with
the launch options the real-world runner uses (DIR/run: --kernel, --grid,
--block, --arg, struct fields as --arg p.f=v); when detect reports a race,
inter-block race or barrier divergence (the kernels that need an edit, as
the runner's "mutants detected"), `AUCS fix` with the same options. Both
are timed in CPU seconds of the child (user + system; the machine is
shared, so wall clock is printed beside it only for the slowest fix).
A kernel whose detect takes under a second is timed N times (--repeat,
default 3), detect and fix taken in turn, and each column is the median:
a tenth of a second of CPU time moves by several percent between two runs
of the same command on a shared machine.

Prints a Markdown table (id, detect s, fix s, fix/detect, fix exit code)
and a summary: median and max of fix/detect, the slowest fix. A benchmark:
it prints numbers and asserts nothing.
"""
import argparse
import importlib.machinery
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def load_runner(root):
    """The real-world runner as a module, for its launch options."""
    loader = importlib.machinery.SourceFileLoader("rw_run", os.path.join(root, "run"))
    spec = importlib.util.spec_from_loader("rw_run", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def timed(cmd, timeout):
    """(rc, stdout, cpu seconds, wall seconds); rc None on timeout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        rc, out = None, ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return rc, out, cpu, time.time() - t0


def needs_edit(rw, out, kernel):
    k = rw.parse_report(out, kernel)
    if not k or k.get("status") != "checked":
        return False
    return any(f.get("kind") in rw.RACE_KINDS for f in rw.real_findings(k))


def median_of(runs):
    """(rc, cpu, wall) of runs [(rc, out, cpu, wall)]: the median cpu, the
    first run's rc and the wall time of the run with the median cpu."""
    order = sorted(runs, key=lambda r: r[2])
    mid = order[len(order) // 2]
    return runs[0][0], mid[2], mid[3]


def one(aucs, rw, root, e, tmp, timeout, repeat):
    """A table row's values for entry e, or None when it needs no edit."""
    d = os.path.join(root, e["dir"])
    bc = os.path.join(tmp, e["id"] + ".bc")
    flags = []
    for f in e.get("compile_flags", []):
        if f.startswith("-I"):
            flags += ["-I", f[2:]]
    rc, _, _, _ = timed([aucs, "compile"] + flags + [os.path.join(d, "kernel.cu"), "-o", bc], timeout)
    if rc != 0:
        return None
    opts = rw.launch_opts(e, True)
    rc, out, dcpu, _ = timed([aucs, "detect", "--format=json"] + opts + [bc], timeout)
    if rc is None or not needs_edit(rw, out, e["kernel"]):
        return None
    det = [aucs, "detect", "--format=json"] + opts + [bc]
    fix = [aucs, "fix"] + opts + [bc, "-o", os.path.join(tmp, "out.bc")]
    druns, fruns = [(rc, out, dcpu, 0.0)], [timed(fix, timeout)]
    for _ in range(1, repeat if dcpu < 1.0 else 1):
        druns.append(timed(det, timeout))
        fruns.append(timed(fix, timeout))
    _, dcpu, _ = median_of(druns)
    rc, fcpu, fwall = median_of(fruns)
    return {"id": e["id"], "detect": dcpu, "fix": fcpu, "wall": fwall,
            "rc": "timeout" if rc is None else str(rc)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("aucs")
    ap.add_argument("--realworld", default=os.environ.get(
        "AUCS_REALWORLD", os.path.join(os.path.dirname(os.path.abspath(
            __file__)), "..", "..", "shared", "realworld")))
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    aucs = os.path.abspath(a.aucs)
    rw = load_runner(a.realworld)
    with open(os.path.join(a.realworld, "manifest.json")) as f:
        man = [e for e in json.load(f) if a.only in e["id"]]
    rows = []
    print("| kernel | detect s | fix s | fix/detect | fix exit |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="rw-fixtime-") as tmp:
        for e in man:
            r = one(aucs, rw, a.realworld, e, tmp, a.timeout, max(1, a.repeat))
            if not r:
                continue
            r["ratio"] = r["fix"] / r["detect"] if r["detect"] > 0 else 0.0
            rows.append(r)
            print("| %s | %.3f | %.3f | %.2f | %s |" % (r["id"], r["detect"], r["fix"], r["ratio"], r["rc"]))
            sys.stdout.flush()
    print()
    if not rows:
        print("realworld fix/detect: no kernel needed an edit")
        return
    ratios = [r["ratio"] for r in rows]
    slow = max(rows, key=lambda r: r["fix"])
    over = sum(1 for x in ratios if x > 2.0)
    print("realworld fix/detect (CPU): %d kernels needing an edit: median %.2f, max %.2f; %d above 2"
          % (len(rows), statistics.median(ratios), max(ratios), over))
    print("slowest fix: %s, %.2f s CPU (%.2f s wall, fix/detect %.2f)"
          % (slow["id"], slow["fix"], slow["wall"], slow["ratio"]))


if __name__ == "__main__":
    main()
