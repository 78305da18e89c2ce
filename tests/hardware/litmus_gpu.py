#!/usr/bin/env python3
"""Runs PTX litmus tests on a real GPU: translates each test into a CUDA kernel (every cell an inline-PTX
instruction on 32-bit global locations) and writes one program that runs them all and prints, per test, how
often each final state was observed. tests/hardware/check_litmus.py then asks `ptxcheck litmus --states` whether
the model (memmodel/models/ptx.cat) allows every state the hardware showed.

  litmus_gpu.py gen OUT.cu ROOT FILE...   write the program; FILEs relative to ROOT (names in the output)

Each test runs as many instances at once: instance k's threads are lane 0 of one warp each; threads the test
places in one CTA share a block (different warps), threads of different CTAs are in different blocks, and the
blocks of one launch are at most one per multiprocessor, so all are resident. Every instance has its own
locations, 128 bytes apart, interleaved over the instances by a permutation that changes per launch, and its
threads meet at a spin barrier before the test's cells. Tests the translation cannot express (several GPUs,
clusters, branches, barriers, other proxies, addresses in registers) are listed as skipped with the reason.
"""
import re
import sys

SEMS = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile"}
SCOPES = {"cta", "cluster", "gpu", "sys"}
ATOM_OPS = {"add", "exch", "cas", "sub", "and", "or", "xor", "min", "max", "inc", "dec"}
ARITH = {"add", "sub", "mul", "and", "or", "xor", "mov"}


class Skip(Exception):
    """The test uses something the translation does not express; the message says what."""


def parse(text):
    """The litmus test's name, initial values, thread places, cells per thread and condition text."""
    lines = text.splitlines()
    head = lines[0].split()
    if not head or head[0] != "PTX":
        raise Skip("not a PTX litmus test")
    name = head[1] if len(head) > 1 else "unnamed"
    body = "\n".join(lines[1:])
    init_m = re.search(r"\{(.*?)\}", body, re.S)
    if not init_m:
        raise Skip("no initial-state block")
    init = {}
    for item in init_m.group(1).replace("\n", " ").split(";"):
        item = item.strip()
        if not item:
            continue
        key, _, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not re.fullmatch(r"-?\d+", value):
            raise Skip(f"initial value '{item}' is no integer (an address in a register)")
        init[key] = int(value)
    rest = body[init_m.end():]
    rows, cond = [], []
    for line in rest.splitlines():
        s = line.strip()
        if not s or s.startswith('"'):
            continue
        if ("|" in s or s.endswith(";")) and not cond and not re.match(r"^(~?exists|forall)", s):
            rows.append([c.strip() for c in s.rstrip(";").split("|")])
        else:
            cond.append(s)
    if not rows:
        raise Skip("no thread rows")
    places = []
    for col in rows[0]:
        m = re.fullmatch(r"P(\d+)@(.*)", col)
        if not m:
            raise Skip(f"thread header '{col}'")
        place = dict(p.strip().split() for p in m.group(2).split(","))
        if set(place) - {"cta", "gpu"}:
            raise Skip(f"thread place '{col}' (clusters)")
        if int(place.get("gpu", 0)) != 0:
            raise Skip("threads on several GPUs (one GPU here)")
        places.append(int(place.get("cta", 0)))
    threads = [[] for _ in places]
    for row in rows[1:]:
        for i, cell in enumerate(row):
            if cell:
                threads[i].append(cell)
    return name, init, places, threads, " ".join(cond)


def qualifiers(opcode):
    """(sem, scope, other words) of a dotted opcode."""
    words = opcode.split(".")[1:]
    sem = next((w for w in words if w in SEMS), None)
    scope = next((w for w in words if w in SCOPES), None)
    other = [w for w in words if w not in SEMS and w not in SCOPES and w != "global"]
    return sem, scope, other


class Thread:
    """One test thread translated to inline-PTX statements over C variables r_NAME (registers) and loc_NAME
    (pointers to this instance's locations). In an asm text, @o0.. are output operands and @i0.. inputs."""

    def __init__(self, locations):
        self.locations, self.regs, self.code = locations, [], []

    def reg(self, text):
        name = text.lstrip("%")
        if not re.fullmatch(r"[A-Za-z_]\w*", name) or name in self.locations:
            raise Skip(f"operand '{text}' is no register")
        if name not in self.regs:
            self.regs.append(name)
        return f"r_{name}"

    def location(self, text):
        name = text.strip("[]")
        if name not in self.locations:
            raise Skip(f"'{text}' is no location")
        return f"loc_{name}"

    def value(self, text, ins):
        """An input value: the immediate itself, or a register made input operand @iN."""
        if re.fullmatch(r"-?\d+", text):
            return str(int(text) & 0xffffffff)
        ins.append(("r", self.reg(text)))
        return f"@i{len(ins) - 1}"

    def emit(self, asm, outs, ins):
        for n in range(len(outs)):
            asm = asm.replace(f"@o{n}", f"%{n}")
        for n in range(len(ins)):
            asm = asm.replace(f"@i{n}", f"%{len(outs) + n}")
        out_s = ", ".join(f'"={k}"({e})' for k, e in outs)
        in_s = ", ".join(f'"{k}"({e})' for k, e in ins)
        self.code.append(f'asm volatile("{asm}" : {out_s} : {in_s} : "memory");')

    def cell(self, text):
        parts = text.split(None, 1)
        opcode = parts[0]
        args = [a.strip() for a in parts[1].split(",")] if len(parts) > 1 else []
        base = opcode.split(".")[0]
        sem, scope, other = qualifiers(opcode)
        if base in ("fence", "membar"):
            self.fence(opcode, base, sem, scope, other)
        elif base in ("ld", "mov") and len(args) == 2 and args[1].strip("[]") not in self.locations:
            ins = []
            v = self.value(args[1], ins)
            self.emit(f"mov.u32 @o0, {v};", [("r", self.reg(args[0]))], ins)
        elif base == "ld" and len(args) == 2:
            self.emit("ld" + order(sem, scope) + ".global.u32 @o0, [@i0];",
                      [("r", self.reg(args[0]))], [("l", self.location(args[1]))])
        elif base == "st" and len(args) == 2:
            ins = [("l", self.location(args[0]))]
            v = self.value(args[1], ins)
            self.emit("st" + order(sem, scope) + f".global.u32 [@i0], {v};", [], ins)
        elif base in ("atom", "red"):
            self.atomic(base, sem, scope, other, args)
        elif base in ARITH and len(args) == 3 and not set(other) - {"u32", "s32", "b32", "lo"}:
            ins = []
            a, b = self.value(args[1], ins), self.value(args[2], ins)
            op = "mul.lo" if base == "mul" else base
            typ = "b32" if base in ("and", "or", "xor") else "u32"
            self.emit(f"{op}.{typ} @o0, {a}, {b};", [("r", self.reg(args[0]))], ins)
        else:
            raise Skip(f"cell '{text}'")

    def fence(self, opcode, base, sem, scope, other):
        if "proxy" in other:
            raise Skip(f"'{opcode}' (proxy fences: only the generic proxy is run here)")
        if base == "membar":
            self.emit(f"membar.{opcode.split('.')[1]};", [], [])
        else:  # 9.7.13.4: .acq_rel is the default semantics
            self.emit(f"fence.{sem or 'acq_rel'}.{scope or 'sys'};", [], [])

    def atomic(self, base, sem, scope, other, args):
        ops = [w for w in other if w in ATOM_OPS]
        if len(ops) != 1 or set(other) - ATOM_OPS - {"u32", "s32", "b32"}:
            raise Skip(f"'{base}' with qualifiers {other}")
        op = ops[0]
        if base == "red" and sem not in (None, "relaxed", "release"):
            raise Skip(f"'red.{sem}' (9.7.13.6: red takes .relaxed or .release; ptxas refuses it)")
        if op in ("min", "max", "inc", "dec"):
            raise Skip(f"'{base}.{op}' (typed comparisons are not translated)")
        outs = [("r", self.reg(args[0]))] if base == "atom" else []
        args = args[1:] if base == "atom" else args
        ins = [("l", self.location(args[0]))]
        vals = [self.value(a, ins) for a in args[1:]]
        if op == "sub":  # PTX has no atom.sub: add the negated amount (the dialect's meaning)
            if not vals[0].isdigit():
                raise Skip("sub of a register amount")
            op, vals = "add", [str((-int(vals[0])) & 0xffffffff)]
        typ = "b32" if op in ("exch", "cas", "and", "or", "xor") else "u32"
        sq = (f".{sem}" if sem and sem != "weak" else "") + f".{scope or 'gpu'}"  # 9.7.13.5: .gpu by default
        dst = "@o0, " if base == "atom" else ""
        self.emit(f"{base}{sq}.global.{op}.{typ} {dst}[@i0], " + ", ".join(vals) + ";", outs, ins)


def order(sem, scope):
    """An ld/st's semantics and scope words (8.4: weak by default; .relaxed/.acquire/.release need a scope)."""
    if sem == "volatile":
        return ".volatile"
    if sem in (None, "weak"):
        return ""
    return f".{sem}.{scope or 'gpu'}"


def translate(text):
    """(name, initial values, CTA of each thread, Thread objects, locations) of a litmus test, or Skip."""
    name, init, places, threads, _ = parse(text)
    for cells in threads:
        for cell in cells:
            if re.match(r"^(LC\d+:|goto|bne|beq|bra|@|bar|barrier|mbarrier)", cell):
                raise Skip(f"cell '{cell}' (branches and barriers are not translated)")
    locations = sorted({k for k in init if ":" not in k} |
                       {n for cells in threads for c in cells for n in re.findall(r"\[([A-Za-z_]\w*)\]", c)})
    translated = []
    for cells in threads:
        t = Thread(locations)
        for cell in cells:
            t.cell(cell)
        translated.append(t)
    return name, init, places, translated, locations


HOST = r'''
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>
#include <cuda_runtime.h>

typedef void (*Kernel)(unsigned*, unsigned*, unsigned*, int, int, int, int, int);

__device__ __forceinline__ void meet(unsigned* counter, unsigned threads) {
  atomicAdd(counter, 1u);
  for (int spins = 0; spins < (1 << 20); ++spins) {
    unsigned seen;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(counter) : "memory");
    if (seen >= threads) break;
  }
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) { std::printf("error %s: %s\n", what, cudaGetErrorString(e)); std::exit(2); }
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

// Runs one test `iterations` times over all its instances; prints each final state and how often it was seen.
static void run_test(const char* name, Kernel kernel, int groups, int rmax, int nloc, const unsigned* init,
                     int nregs, const char* const* keys, int iterations, int sms) {
  const int G = sms / groups, S = 32 / rmax, n = G * S;
  std::vector<unsigned> host_mem(size_t(nloc) * n * 32, 0), mem(host_mem.size()), out(size_t(n) * nregs);
  for (int v = 0; v < nloc; ++v)
    for (int slot = 0; slot < n; ++slot) host_mem[(size_t(v) * n + slot) * 32] = init[v];
  unsigned *d_mem, *d_out, *d_sync;
  check(cudaMalloc(&d_mem, host_mem.size() * 4), "cudaMalloc");
  check(cudaMalloc(&d_out, out.size() * 4 + 4), "cudaMalloc");
  check(cudaMalloc(&d_sync, size_t(n) * 4), "cudaMalloc");
  static const int muls[] = {1, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43};
  std::map<std::vector<unsigned>, long> seen;
  for (int it = 0; it < iterations; ++it) {
    int mul = muls[it % 12];
    while (gcd(mul, n) != 1) mul += 2;
    check(cudaMemcpy(d_mem, host_mem.data(), host_mem.size() * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemset(d_sync, 0, size_t(n) * 4), "memset");
    kernel<<<groups * G, 32 * rmax * S>>>(d_mem, d_out, d_sync, n, mul, it % G, G, S);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(out.data(), d_out, out.size() * 4, cudaMemcpyDeviceToHost), "copy back");
    check(cudaMemcpy(mem.data(), d_mem, mem.size() * 4, cudaMemcpyDeviceToHost), "copy back");
    for (int k = 0; k < n; ++k) {
      const int slot = int((long long)k * mul % n);
      std::vector<unsigned> state(out.begin() + size_t(k) * nregs, out.begin() + size_t(k + 1) * nregs);
      for (int v = 0; v < nloc; ++v) state.push_back(mem[(size_t(v) * n + slot) * 32]);
      ++seen[state];
    }
  }
  std::printf("test %s instances %ld\n", name, long(iterations) * n);
  for (const auto& [state, count] : seen) {
    std::printf("state %ld", count);
    for (size_t i = 0; i < state.size(); ++i) std::printf(" %s=%u;", keys[i], state[i]);
    std::printf("\n");
  }
  std::fflush(stdout);
  cudaFree(d_mem), cudaFree(d_out), cudaFree(d_sync);
}
'''


def kernel_source(index, places, threads, locations, init):
    """One test's kernel: instance k's thread `role` finds its locations, meets its partners, runs its cells."""
    groups = sorted(set(places))
    by_group = [[r for r, p in enumerate(places) if p == g] for g in groups]
    rmax = max(len(g) for g in by_group)
    lines = [f"__global__ void litmus_{index}(unsigned* mem, unsigned* out, unsigned* sync, int n, int mul, "
             "int shift, int G, int S) {",
             "  if (threadIdx.x % 32) return;",
             "  const int warp = threadIdx.x / 32, group = blockIdx.x / G, g = blockIdx.x % G;",
             f"  const int k = ((g + G - (group * shift) % G) % G) * S + warp / {rmax}, j = warp % {rmax};",
             "  if (k >= n) return;",
             f"  static const int roles[{len(groups)}][{rmax}] = {{" +
             ", ".join("{" + ", ".join(str(r) for r in g + [-1] * (rmax - len(g))) + "}" for g in by_group) + "};",
             "  const int role = roles[group][j];",
             "  if (role < 0) return;",
             "  const size_t slot = size_t((long long)k * mul % n);"]
    for v, name in enumerate(locations):
        lines.append(f"  unsigned* loc_{name} = mem + ({v} * size_t(n) + slot) * 32; (void)loc_{name};")
    nregs = sum(len(t.regs) for t in threads)
    lines.append(f"  meet(sync + k, {len(threads)});")
    lines.append("  switch (role) {")
    base = 0
    for r, t in enumerate(threads):
        decl = " ".join(f"unsigned r_{x} = {init.get(f'P{r}:{x}', 0) & 0xffffffff}u;" for x in t.regs)
        lines.append(f"  case {r}: {{ {decl}")
        lines += ["    " + c for c in t.code]
        lines += [f"    out[size_t(k) * {max(nregs, 1)} + {base + i}] = r_{x};" for i, x in enumerate(t.regs)]
        lines.append("    break; }")
        base += len(t.regs)
    lines += ["  }", "}"]
    return "\n".join(lines), len(groups), rmax, nregs


def generate(out_path, root, files):
    kernels, calls, skipped = [], [], []
    for path in files:
        try:
            text = open(f"{root}/{path}", encoding="utf-8", errors="replace").read()
            name, init, places, threads, locations = translate(text)
        except Skip as why:
            skipped.append((path, str(why)))
            continue
        index = len(calls)
        src, groups, rmax, nregs = kernel_source(index, places, threads, locations, init)
        keys = [f"P{r}:{x}" for r, t in enumerate(threads) for x in t.regs] + locations
        kernels.append(src)
        init_values = ", ".join(str(init.get(l, 0) & 0xffffffff) + "u" for l in locations) or "0u"
        key_list = ", ".join(f'"{k}"' for k in keys)
        calls.append(f'  if (!filter || std::strstr("{path}", filter)) {{ static const unsigned init[] = {{{init_values}}};'
                     f' static const char* const keys[] = {{{key_list}}};'
                     f' run_test("{path}", litmus_{index}, {groups}, {rmax}, {len(locations)}, init, {max(nregs, 1) if nregs else 0},'
                     f' keys, iterations, sms); }}')
    main = ["int main(int argc, char** argv) {",
            "  const int iterations = argc > 1 ? std::atoi(argv[1]) : 200;",
            "  const char* filter = argc > 2 ? argv[2] : nullptr;",
            "  int sms = 0; check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), \"attribute\");",
            "  cudaDeviceProp prop; check(cudaGetDeviceProperties(&prop, 0), \"properties\");",
            "  std::printf(\"device %s sm_%d%d multiprocessors %d iterations %d\\n\", prop.name, prop.major, prop.minor, sms, iterations);"]
    main += calls + ["  return 0;", "}"]
    with open(out_path, "w") as f:
        f.write("// Generated by tests/hardware/litmus_gpu.py: do not edit.\n")
        for path, why in skipped:
            f.write(f"// skipped {path}: {why}\n")
        f.write(HOST + "\n" + "\n\n".join(kernels) + "\n\n" + "\n".join(main) + "\n")
    print(f"{len(calls)} tests translated, {len(skipped)} skipped")
    for path, why in skipped:
        print(f"skipped {path}: {why}")


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] != "gen":
        sys.exit(__doc__)
    generate(sys.argv[2], sys.argv[3], sys.argv[4:])
