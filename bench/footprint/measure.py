#!/usr/bin/env python3
"""bench/footprint/measure.py PTXCHECK [BASELINE] [--sizes 10M,100M] [--dir DIR]: peak memory (RSS) and wall time of
`ptxcheck parse` on generated modules (gen.py), and of `run` and `race` on one kernel of the largest, each as a
ratio to the input's size. BASELINE (another ptxcheck binary, e.g. main's) is measured in the same run, alternately.
Each measurement is a fresh child process: its peak RSS is ru_maxrss from wait4(), its time the wall clock.
"""
import argparse, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

def measure(cmd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    rc = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss * 1024, wall, rc, err

def generate(size_text, directory):
    path = os.path.join(directory, f"footprint-{size_text}.ptx")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), size_text, path], check=True)
    return path

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptxcheck")
    ap.add_argument("baseline", nargs="?")
    ap.add_argument("--sizes", default="10M,100M")
    ap.add_argument("--dir", default="/tmp")
    a = ap.parse_args()
    bins = [("this", a.ptxcheck)] + ([("baseline", a.baseline)] if a.baseline else [])
    files = [generate(s, a.dir) for s in a.sizes.split(",")]
    big = files[-1]
    kernel = gen.kernel_name(3)
    jobs = [(f"parse {os.path.basename(f)}", f, ["parse", f]) for f in files]
    jobs.append((f"run 1 kernel of {os.path.basename(big)}", big,
                 ["run", big, "--kernel", kernel, "--grid", "2", "--block", "64", "--param", "buffer:in", "--param",
                  "buffer:out", "--param", "u32:128", "--buffer", "in=f32[128]", "--buffer", "out=f32[128]"]))
    jobs.append((f"race 1 kernel of {os.path.basename(big)}", big,
                 ["race", big, "--kernel", kernel, "--blockDim=64", "--gridDim=2"]))
    print(f"{'what':<36} {'input MB':>9} | " + " | ".join(f"{n + ' peak MB':>16} {'x input':>8} {'s':>6}" for n, _ in bins))
    for title, f, args in jobs:
        size = os.path.getsize(f)
        cells = []
        for name, exe in bins:
            rss, wall, rc, err = measure([exe] + args)
            if rc not in (0,):
                print(f"  {name}: exit {rc}: {err.strip()[:300]}", file=sys.stderr)
            cells.append(f"{rss / 1e6:>16.1f} {rss / size:>8.2f} {wall:>6.1f}")
        print(f"{title:<36} {size / 1e6:>9.1f} | " + " | ".join(cells), flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
