#!/usr/bin/env python3
"""Patch coverage (issue 16): `aucs fix --patch` on every repair scenario
and every detected real-world mutant.

For each case: copy the .cu into a temporary directory, run
`aucs fix K.cu --patch k.diff` there with the case's launch (a scenario's
`// LAUNCH:` line; a mutant's manifest launch, as the real-world runner
passes it), and record
  - the edits by kind, and which of them stay "IR only" and why (the
    `aucs: source patch: edit N (KIND): IR only: REASON` lines);
  - whether the patch was written (aucs checked it: recompiled, detected);
  - whether `git apply --check` takes it (in a fresh git repository
    holding the original file);
  - whether the patched file, applied with `git apply` and detected again
    by a separate `aucs detect` (same launch, seed 7), has no race or
    barrier divergence left.
Prints a markdown report: one row per case, the exact share per edit kind,
and the IR-only reasons by count.

usage: patch_coverage.py --aucs BIN [--root DIR] [--realworld DIR]
         [--rw-results FILE] [--only SUBSTR] [--no-realworld]
A mutant is "detected" as the real-world runner counts it: `aucs detect`
reports a race, inter-block race or barrier divergence that is not
`possible` (or, with --rw-results, its row in a runner output lists one).
"""
import argparse, json, os, re, shlex, shutil, subprocess, sys, tempfile
from collections import Counter, defaultdict

RACE_KINDS = {"race", "inter-block-race", "barrier-divergence"}
KINDS = ["insert-barrier", "delete-barrier", "flatten-exit", "flatten-region",
         "split-block", "uniformize-loop", "inline-call", "insert-fence",
         "widen-scope", "make-atomic"]
TIMEOUT = 300
FIX_ONLY = {"--trust-dynamic"}


def sh(cmd, cwd=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                           timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def fmt(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return repr(v) if isinstance(v, float) else str(v)


def rw_launch(e):
    L = e["launch"]
    o = ["--kernel", e["kernel"],
         "--grid", ",".join(str(v) for v in L["grid"]),
         "--block", ",".join(str(v) for v in L["block"])]
    for k, v in e.get("args", {}).items():
        o += ["--arg", "%s=%s" % (k, fmt(v))]
    for p, fields in e.get("struct_args", {}).items():
        for f, v in fields.items():
            o += ["--arg", "%s.%s=%s" % (p, f, fmt(v))]
    return o


def rw_flags(e):
    flags = []
    for f in e.get("compile_flags", []):
        flags += ["-I", f[2:]] if f.startswith("-I") else ["--clang-arg=" + f]
    return flags


def racy(out):
    try:
        rep = json.loads(out)
    except ValueError:
        return None
    fs = [f for k in rep.get("kernels", []) for f in (k.get("findings") or [])
          if f.get("confidence") != "possible"]
    return any(f.get("kind") in RACE_KINDS for f in fs)


def run_case(aucs, name, src, opts):
    """One case -> a dict of what happened."""
    d = tempfile.mkdtemp(prefix="aucs-pcov-")
    row = {"case": name, "edits": Counter(), "ir": Counter(), "reasons": [],
           "written": False, "applies": False, "clean": None, "verdict": ""}
    try:
        cu = os.path.basename(src)
        shutil.copy(src, os.path.join(d, cu))
        rc, out, err = sh([aucs, "fix", cu, "--patch", "k.diff", "-o",
                           "out.bc"] + opts, cwd=d)
        if rc is None or rc not in (0, 1):
            row["verdict"] = "fix failed (%s)" % ("timeout" if rc is None
                                                   else "exit %d" % rc)
            return row
        for m in re.finditer(r"^edit \d+: (\S+)", err, re.M):
            row["edits"][m.group(1)] += 1
        for m in re.finditer(r"^aucs: source patch: edit \d+ \((\S+)\): IR only: (.*)$",
                             err, re.M):
            row["ir"][m.group(1)] += 1
            row["reasons"].append((m.group(1), m.group(2)))
        v = re.findall(r"^aucs: source patch (?:checked|not written): .*$", err, re.M)
        row["verdict"] = v[-1][len("aucs: source patch "):] if v else ""
        diff = os.path.join(d, "k.diff")
        row["written"] = os.path.exists(diff)
        if not row["written"]:
            return row
        sh(["git", "init", "-q", "."], cwd=d)
        row["applies"] = sh(["git", "apply", "--check", "k.diff"], cwd=d)[0] == 0
        if row["applies"] and sh(["git", "apply", "k.diff"], cwd=d)[0] == 0:
            det = [o for o in opts if o not in FIX_ONLY]
            rc, out, _ = sh([aucs, "detect", "--format=json", "--seed", "7", cu]
                            + det, cwd=d)
            row["clean"] = racy(out) is False
        return row
    finally:
        shutil.rmtree(d, ignore_errors=True)


def scenario_cases(root, only):
    sdir = os.path.join(root, "benchmarks", "scenarios")
    for f in sorted(os.listdir(sdir)):
        if not f.endswith(".cu") or (only and only not in f):
            continue
        path = os.path.join(sdir, f)
        launch = ""
        for line in open(path):
            if line.startswith("// LAUNCH:"):
                launch = line.split(":", 1)[1].strip()
        yield f, path, ["--no-cuda-sdk"] + shlex.split(launch)


def rw_detected_from(results):
    ids = set()
    for line in open(results):
        cols = line.split()
        if len(cols) > 3 and "__nosync" in cols[0] and \
                set(cols[2].split(",")) & RACE_KINDS:
            ids.add(cols[0])
    return ids


def rw_cases(aucs, rw, only, results):
    man = json.load(open(os.path.join(rw, "manifest.json")))
    known = rw_detected_from(results) if results else None
    for e in man:
        if not e.get("mutant_of") or (only and only not in e["id"]):
            continue
        src = os.path.join(rw, e["dir"], "kernel.cu")
        opts = rw_flags(e) + rw_launch(e)
        if known is not None:
            if e["id"] not in known:
                continue
        else:
            rc, out, _ = sh([aucs, "detect", "--format=json", src] + opts)
            if not racy(out):
                continue
        yield e["id"], src, opts


def cell(row):
    if not row["written"]:
        return "not written"
    return "%s, %s" % ("applies" if row["applies"] else "does not apply",
                       "clean" if row["clean"] else "NOT clean")


def table(title, rows):
    print("## %s\n" % title)
    print("| case | edits | IR only | patch | aucs's verdict |")
    print("|---|---|---|---|---|")
    for r in rows:
        edits = ", ".join("%s %d" % (k, n) for k, n in sorted(r["edits"].items()))
        ir = ", ".join("%s %d" % (k, n) for k, n in sorted(r["ir"].items()))
        print("| %s | %s | %s | %s | %s |" % (r["case"], edits or "-",
                                              ir or "-", cell(r),
                                              r["verdict"].replace("|", "/")))
    print()


def summary(title, rows):
    tot, ir = Counter(), Counter()
    for r in rows:
        tot.update(r["edits"])
        ir.update(r["ir"])
    print("### %s: exact share per edit kind\n" % title)
    print("| edit kind | exact | all |")
    print("|---|---|---|")
    for k in [k for k in KINDS if tot[k]] + sorted(set(tot) - set(KINDS)):
        print("| %s | %d | %d |" % (k, tot[k] - ir[k], tot[k]))
    core = ("insert-barrier", "delete-barrier", "flatten-exit")
    ct, ci = sum(tot[k] for k in core), sum(ir[k] for k in core)
    print("\ninsert-barrier, delete-barrier and flatten-exit edits exact: %d/%d;"
          " all edits: %d/%d"
          % (ct - ci, ct, sum(tot.values()) - sum(ir.values()), sum(tot.values())))
    with_edits = [r for r in rows if sum(r["edits"].values())]
    good = [r for r in with_edits if r["written"] and r["applies"] and r["clean"]]
    print("cases with edits: %d; a checked patch written, applying and "
          "detecting clean: %d" % (len(with_edits), len(good)))
    others = [r for r in with_edits if r not in good]
    if others:
        print("without one: " + ", ".join(
            "%s (%s)" % (r["case"], r["verdict"] or cell(r)) for r in others))
    why = Counter((k, w) for r in rows for k, w in r["reasons"])
    print("\n| IR-only reason | edit kind | edits |")
    print("|---|---|---|")
    for (k, w), n in why.most_common():
        print("| %s | %s | %d |" % (w.replace("|", "/"), k, n))
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aucs", required=True)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap.add_argument("--realworld")
    ap.add_argument("--rw-results")
    ap.add_argument("--only")
    ap.add_argument("--no-realworld", action="store_true")
    a = ap.parse_args()
    aucs = os.path.abspath(a.aucs)
    rw = a.realworld or os.path.join(a.root, "..", "shared", "realworld")
    sc = [run_case(aucs, n, p, o) for n, p, o in scenario_cases(a.root, a.only)]
    table("Scenarios (benchmarks/scenarios)", sc)
    summary("Scenarios", sc)
    sys.stdout.flush()
    if a.no_realworld or not os.path.isdir(rw):
        return
    rows = []
    for n, p, o in rw_cases(aucs, rw, a.only, a.rw_results):
        rows.append(run_case(aucs, n, p, o))
        print("<!-- %s: %s -->" % (n, cell(rows[-1])), file=sys.stderr,
              flush=True)
    table("Real-world mutants detected (../shared/realworld)", rows)
    summary("Real-world mutants", rows)


if __name__ == "__main__":
    main()
