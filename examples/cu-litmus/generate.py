#!/usr/bin/env python3
# Generates the compiled-litmus suite (*.cu.litmus) of this folder: classic shapes (MP, SB, LB, IRIW, WRC,
# CoRR, 2+2W, fenced MP/SB, RMW MP) across memory orders and scope/placement configurations. Run it here.
import itertools, os

# order configurations: (name, order of "writes", order of "reads")
ORDERS = [("rlx", "rlx", "rlx"), ("ra", "rel", "acq"), ("sc", "sc", "sc")]
# placements: (name, scope, cta of thread i)
PLACES = [("dev", "dev", lambda i: i), ("blk", "blk", lambda i: 0), ("blkx", "blk", lambda i: i)]
PLACE_DOC = {"dev": "device scope, threads in different CTAs",
             "blk": "block scope, all threads in one CTA",
             "blkx": "block scope but threads in different CTAs (scope too narrow: no synchronisation)"}

# Source-level verdict of each test's condition under scoped RC11 (memmodel/models/scoped-c11.cat), derived
# by hand from the C++ rules, independently of PTX: "forbidden", "allowed", or "racy" (a consistent
# execution has a data race, or atomics whose scopes do not include each other: undefined behaviour).
VERDICTS = {}
SOURCE = {  # shape -> verdict per order configuration (rlx, ra, sc), for inclusive placements
    "MP": ("allowed", "forbidden", "forbidden"),     # release/acquire (and sc) synchronise
    "SB": ("allowed", "allowed", "forbidden"),       # only psc forbids SB
    "LB": ("forbidden", "forbidden", "forbidden"),   # RC11: po | rf acyclic (no-thin-air axiom)
    "IRIW": ("allowed", "allowed", "forbidden"),     # acquire reads are not multi-copy atomic; psc
    "WRC": ("allowed", "forbidden", "forbidden"),    # hb is transitive through the middle thread
    "CoRR": ("forbidden", "forbidden", "forbidden"), # coherence
    "2+2W": ("allowed", "allowed", "forbidden"),     # only psc orders the four writes
}

def test(name, doc, locs, threads, cond, place, verdict=None):
    _, _, cta = place
    if verdict is None:
        shape, order, pn = name.rsplit("+", 2)
        verdict = "racy" if pn == "blkx" else SOURCE[shape][["rlx", "ra", "sc"].index(order)]
    VERDICTS[name] = verdict
    out = [f"CUDA {name}", f'"{doc}"', "{ " + " ".join(f"{l}=0;" for l in locs) + " }"]
    for i, body in enumerate(threads):
        out.append(f"P{i}@cta {cta(i)},gpu 0:")
        out += ["  " + s for s in body]
    out.append(cond)
    with open(f"{name}.cu.litmus", "w") as f:
        f.write("\n".join(out) + "\n")

def st(s, loc, v, o): return f"at<{s}>({loc}).store({v}, {o});"
def ld(s, r, loc, o): return f"{r} = at<{s}>({loc}).load({o});"

count = 0
for (on, w, r), place in itertools.product(ORDERS, PLACES):
    pn, s, _ = place
    d = f"{on} orders, {PLACE_DOC[pn]}"
    test(f"MP+{on}+{pn}", "message passing; " + d, "xy",
         [[st(s, "x", 1, "rlx"), st(s, "y", 1, w)], [ld(s, "r0", "y", r), ld(s, "r1", "x", "rlx")]],
         "exists (P1:r0 == 1 /\\ P1:r1 == 0)", place)
    test(f"SB+{on}+{pn}", "store buffering; " + d, "xy",
         [[st(s, "x", 1, w), ld(s, "r0", "y", r)], [st(s, "y", 1, w), ld(s, "r0", "x", r)]],
         "exists (P0:r0 == 0 /\\ P1:r0 == 0)", place)
    test(f"LB+{on}+{pn}", "load buffering; " + d, "xy",
         [[ld(s, "r0", "x", r), st(s, "y", 1, w)], [ld(s, "r0", "y", r), st(s, "x", 1, w)]],
         "exists (P0:r0 == 1 /\\ P1:r0 == 1)", place)
    count += 3
    if pn == "blk":
        continue
    test(f"IRIW+{on}+{pn}", "independent reads of independent writes; " + d, "xy",
         [[st(s, "x", 1, w)], [st(s, "y", 1, w)], [ld(s, "r0", "x", r), ld(s, "r1", "y", r)],
          [ld(s, "r0", "y", r), ld(s, "r1", "x", r)]],
         "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)", place)
    test(f"WRC+{on}+{pn}", "write-to-read causality; " + d, "xy",
         [[st(s, "x", 1, w)], [ld(s, "r0", "x", r), st(s, "y", 1, w)], [ld(s, "r0", "y", r), ld(s, "r1", "x", r)]],
         "exists (P1:r0 == 1 /\\ P2:r0 == 1 /\\ P2:r1 == 0)", place)
    test(f"CoRR+{on}+{pn}", "coherence of read-read; " + d, "x",
         [[st(s, "x", 1, w)], [ld(s, "r0", "x", r), ld(s, "r1", "x", r)]],
         "exists (P1:r0 == 1 /\\ P1:r1 == 0)", place)
    test(f"2+2W+{on}+{pn}", "two writes each to two locations; " + d, "xy",
         [[st(s, "x", 1, w), st(s, "y", 2, w)], [st(s, "y", 1, w), st(s, "x", 2, w)]],
         "exists (x == 1 /\\ y == 1)", place)
    count += 4
for place in PLACES:
    pn, s, _ = place
    test(f"MP+fences+{pn}", "message passing with release and acquire fences; " + PLACE_DOC[pn], "xy",
         [[st(s, "x", 1, "rlx"), f"fence(rel, {s});", st(s, "y", 1, "rlx")],
          [ld(s, "r0", "y", "rlx"), f"fence(acq, {s});", ld(s, "r1", "x", "rlx")]],
         "exists (P1:r0 == 1 /\\ P1:r1 == 0)", place, "racy" if pn == "blkx" else "forbidden")
    test(f"SB+fence.sc+{pn}", "store buffering with seq_cst fences; " + PLACE_DOC[pn], "xy",
         [[st(s, "x", 1, "rlx"), f"fence(sc, {s});", ld(s, "r0", "y", "rlx")],
          [st(s, "y", 1, "rlx"), f"fence(sc, {s});", ld(s, "r0", "x", "rlx")]],
         "exists (P0:r0 == 0 /\\ P1:r0 == 0)", place, "racy" if pn == "blkx" else "forbidden")
    test(f"MP+rmw+{pn}", "message passing through fetch_add (release) and exchange (acquire); " + PLACE_DOC[pn], "xy",
         [[st(s, "x", 1, "rlx"), f"at<{s}>(y).fetch_add(1, rel);"], [f"r0 = at<{s}>(y).exchange(5, acq);", ld(s, "r1", "x", "rlx")]],
         "exists (P1:r0 == 1 /\\ P1:r1 == 0)", place, "racy" if pn == "blkx" else "forbidden")
    test(f"MP+plain+{pn}", "message passing of plain data under a release/acquire flag; " + PLACE_DOC[pn], "xy",
         [["*x = 1;", st(s, "y", 1, "rel")], [ld(s, "r0", "y", "acq"), "r1 = *x;"]],
         "exists (P1:r0 == 1 /\\ P1:r1 == 0)", place, "racy")  # x is read whatever the flag: a data race
    count += 4
with open("MANIFEST.tsv", "w") as f:
    f.write("test\tsource_verdict\n")
    for name in sorted(VERDICTS):
        f.write(f"{name}\t{VERDICTS[name]}\n")
print(count, "tests")
