#!/usr/bin/env python3
"""tests/cli/footprint.py PTXCHECK SOURCE_DIR: `ptxcheck parse` keeps its footprint near the input's size (issue 37).

A ~6 MB module from bench/footprint/gen.py must parse with a peak RSS below base + 4 x its size, base being the peak
of the same binary parsing a 64 KB module of the same shape (the executable, libraries and allocator: measured here,
not assumed). main's ptxcheck before this change peaked at ~32x the input. Also: the streamed summary (`--json`, one
body at a time) equals the one built from the whole module's AST (`--print --json`), kernel by kernel, and `race`
without --kernel reports the same whether it checks the kernels in batches or all at once.
"""
import json, os, subprocess, sys, tempfile

ptxcheck, src = sys.argv[1], sys.argv[2]
gen = os.path.join(src, "bench", "footprint", "gen.py")
failed = 0

def check(name, ok, detail=""):
    global failed
    print(("ok: " if ok else "FAILED: ") + name + (f" ({detail})" if detail else ""))
    failed += not ok

def peak(cmd):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    return usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status), err

with tempfile.TemporaryDirectory() as tmp:
    small, big, mid = (os.path.join(tmp, n) for n in ("small.ptx", "big.ptx", "mid.ptx"))
    for size, path in (("64k", small), ("6M", big), ("300k", mid)):
        subprocess.run([sys.executable, gen, size, path], check=True, stderr=subprocess.DEVNULL)
    base, rc_small, err = peak([ptxcheck, "parse", small])
    check("the small module parses", rc_small == 0, err.strip()[:200])
    rss, rc_big, err = peak([ptxcheck, "parse", big])
    check("the 6 MB module parses", rc_big == 0, err.strip()[:200])
    size = os.path.getsize(big)
    bound = base + 4 * size
    check("parse peak RSS <= base + 4 x input", rss <= bound,
          f"peak {rss / 1e6:.1f} MB, base {base / 1e6:.1f} MB, input {size / 1e6:.1f} MB, bound {bound / 1e6:.1f} MB, "
          f"{(rss - base) / size:.2f}x the input above base")

    def summary(extra):
        out = subprocess.run([ptxcheck, "parse", "--json"] + extra + [mid], capture_output=True, text=True)
        if out.returncode != 0:
            return out.returncode, None
        # With --print the canonical PTX comes first; the summary is the object whose first key is address_size.
        start = out.stdout.find('{\n  "address_size"')
        return out.returncode, json.loads(out.stdout[start:])
    rc_stream, streamed = summary([])
    rc_whole, whole = summary(["--print"])
    check("--json exits 0 both ways", rc_stream == 0 and rc_whole == 0)
    if streamed and whole:
        check("streamed summary == whole-module summary", streamed == whole)
        check("every function has its instructions counted", all(f["instructions"] > 0 for f in streamed["functions"]),
              f"{len(streamed['functions'])} functions, {streamed['instruction_count']} instructions")

    # race without --kernel checks a large module's kernels in batches, each batch's bodies built again and dropped
    # (checker/race/run.cpp): the report must not depend on the batches. PTXCHECK_RACE_BATCH="BYTES,INSTRUCTIONS":
    # no batching; batches of ~2,000 instructions; one kernel a batch.
    def untimed(j):  # the report less its timings ("seconds"), which differ from run to run
        if isinstance(j, dict):
            return {k: untimed(v) for k, v in j.items() if k != "seconds"}
        return [untimed(v) for v in j] if isinstance(j, list) else j
    def race(batch, fmt):
        env = dict(os.environ, PTXCHECK_RACE_BATCH=batch)
        out = subprocess.run([ptxcheck, "race", mid, "--blockDim=64", "--gridDim=2", "--format", fmt],
                             capture_output=True, text=True, env=env)
        return out.returncode, untimed(json.loads(out.stdout)) if fmt == "json" and out.stdout else out.stdout
    whole_run = race("1000000000,1", "json")
    kernels = len(whole_run[1]["kernels"]) if whole_run[0] in (0, 1, 3) else 0
    check("race checks every kernel of the module", kernels > 1, f"exit {whole_run[0]}, {kernels} kernels")
    for batch in ("0,2000", "0,1"):
        check(f"race report with batches {batch} == without batches", race(batch, "json") == whole_run)
    check("race text report with one kernel a batch == without batches", race("0,1", "text") == race("1000000000,1", "text"))

print(f"{'FAILED' if failed else 'passed'}: footprint")
sys.exit(1 if failed else 0)
