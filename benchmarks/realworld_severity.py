#!/usr/bin/env python3
"""Severity-aware figures on ../shared/realworld (the development set).

The set's runner counts every JSON finding as an alarm; natural-input and
data-dependent warnings (docs/inputs.md, "Natural inputs", "Data-dependent findings")
are not findings but sit in the kernel's `warnings` array, which the runner
does not read. This reuses the runner's own compile,
launch and classification and prints, per original kernel, the race and
divergence kinds that are errors, the kinds that are warnings, and the
filled buffers behind data-dependent ones; then the count of originals with
a race/divergence error.

    benchmarks/realworld_severity.py AUCS [SUBSTRING...]
"""
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RW = os.environ.get("AUCS_REALWORLD",
                    os.path.join(HERE, "..", "..", "shared", "realworld"))


def runner():
    loader = importlib.machinery.SourceFileLoader("rw", os.path.join(RW, "run"))
    spec = importlib.util.spec_from_loader("rw", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rw, aucs, subs = runner(), sys.argv[1], sys.argv[2:] or [""]
    manifest = json.load(open(os.path.join(RW, "manifest.json")))
    n = bad = 0
    for e in manifest:
        if e.get("mutant_of") or not any(s in e["id"] for s in subs):
            continue
        tmp = tempfile.mkdtemp(prefix="rw-sev-")
        try:
            bc = os.path.join(tmp, "k.bc")
            flags = []
            for f in e.get("compile_flags", []):
                flags += ["-I", f[2:]] if f.startswith("-I") else ["--clang-arg=" + f]
            rw.sh([aucs, "compile"] + flags +
                  [os.path.join(RW, e["dir"], "kernel.cu"), "-o", bc], 120)
            rc, out, err, secs = rw.detect(aucs, bc, e, 120,
                                           with_struct=bool(e.get("struct_args")))
            status, k, _ = rw.classify(rc, out, err, e["kernel"])
            # findings (what counts) and warnings (found only with searched
            # inputs or filled data; in findings with --strict)
            fs = rw.real_findings(k) + (k.get("warnings") or []) if k else []
            errors = sorted({f["kind"] for f in fs if f.get("severity") == "error"
                             and f["kind"] in rw.RACE_KINDS})
            warnings = sorted({f["kind"] for f in fs if f.get("severity") == "warning"})
            data = sorted({b for f in fs for b in (f.get("data_dependent") or [])})
            n += 1
            bad += bool(errors)
            print("%-50s %-9s errors=%s warnings=%s data=%s %.1fs" %
                  (e["id"], status, ",".join(errors) or "-",
                   ",".join(warnings) or "-", ",".join(data) or "-", secs),
                  flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    print("originals with a race/divergence error: %d/%d" % (bad, n))


if __name__ == "__main__":
    main()
