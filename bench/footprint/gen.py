#!/usr/bin/env python3
"""bench/footprint/gen.py SIZE OUT.ptx: a large PTX module shaped like nvcc's output for template-heavy code.

Kernels and .func's with long mangled names, dozens of registers, ld/st/arithmetic/branches, a loop over a shared
array with bar.sync, a call sequence, .loc lines with inlined_at chains, and the .file/.section .debug_str tail
that nvcc -lineinfo writes. SIZE is the target size in bytes (suffix k or M: 10M, 100M); the module grows by
kernel+func pairs until it reaches it. Deterministic: the same SIZE gives the same bytes. Every kernel is the
same program (a block-wide shared-memory sum, a call, a store), so `ptxcheck run`/`race` on any one of them is
meaningful; `--kernel` takes the PTX name printed by `--list`, e.g. kernel 0's.
"""
import sys

def kernel_name(k):
    # cub::detail::DeviceReduceSingleTileKernel<256, k, cub::SumType<k % 97>, float>(float const*, float*, int)
    return f"_ZN3cub6detail28DeviceReduceSingleTileKernelILi256ELi{k}EN3cub7SumTypeILi{k % 97}EEEfEEvPKfPfi"

def func_name(k):
    # cub::detail::ThreadReduce<k, cub::SumType<k % 97>>(float, int)
    return f"_ZN3cub6detail12ThreadReduceILi{k}ENS_7SumTypeILi{k % 97}EEEEEffi"

def func(k):
    f = func_name(k)
    lines = [f".func  (.param .b32 func_retval0) {f}(", f"\t.param .b32 {f}_param_0,", f"\t.param .b32 {f}_param_1", ")",
             "{", "\t.reg .b32 \t%r<24>;", "\t.reg .f32 \t%f<24>;", "",
             f"\tld.param.f32 \t%f1, [{f}_param_0];", f"\tld.param.u32 \t%r1, [{f}_param_1];",
             f"\t.loc\t2 {40 + k % 50} 5, function_name $L__info_string1, inlined_at 1 {100 + k % 300} 9"]
    # A chain of integer and float steps, as an inlined functor leaves behind.
    for j in range(2, 20):
        lines.append(f"\txor.b32 \t%r{j}, %r{j - 1}, {(k * 2654435761 + j) % 65536};")
        lines.append(f"\tfma.rn.f32 \t%f{j}, %f{j - 1}, 0f3F000000, 0f3E800000;")
    lines += ["\tcvt.rn.f32.u32 \t%f20, %r19;", "\tmul.rn.f32 \t%f21, %f20, 0f00000000;",
              "\tadd.f32 \t%f22, %f19, %f21;", "\tst.param.f32 \t[func_retval0], %f22;", "\tret;", "", "}", ""]
    return "\n".join(lines)

def kernel(k):
    n, f = kernel_name(k), func_name(k)
    smem = f"_ZZN3cub6detail28DeviceReduceSingleTileKernelILi256ELi{k}EN3cub7SumTypeILi{k % 97}EEEfEEvPKfPfiE12temp_storage"
    src = 100 + k % 300
    L = f"$L__BB{k}_"
    body = [f"\t// .globl\t{n}", f".visible .entry {n}(", f"\t.param .u64 {n}_param_0,", f"\t.param .u64 {n}_param_1,",
            f"\t.param .u32 {n}_param_2", ")", ".maxntid 256, 1, 1", "{",
            "\t.reg .pred \t%p<8>;", "\t.reg .b32 \t%r<48>;", "\t.reg .f32 \t%f<24>;", "\t.reg .b64 \t%rd<16>;",
            "\t// demoted variable", f"\t.shared .align 4 .b8 {smem}[1024];", "", f"\t.loc\t1 {src} 0",
            f"\tld.param.u64 \t%rd1, [{n}_param_0];", f"\tld.param.u64 \t%rd2, [{n}_param_1];",
            f"\tld.param.u32 \t%r1, [{n}_param_2];", f"\t.loc\t1 {src + 2} 13",
            "\tmov.u32 \t%r2, %tid.x;", "\tmov.u32 \t%r3, %ctaid.x;", "\tmov.u32 \t%r4, %ntid.x;",
            "\tmad.lo.s32 \t%r5, %r3, %r4, %r2;", f"\t.loc\t1 {src + 3} 5", "\tsetp.ge.s32 \t%p1, %r5, %r1;",
            "\tmov.f32 \t%f1, 0f00000000;", f"\t@%p1 bra \t{L}2;", f"\t.loc\t1 {src + 4} 9",
            "\tcvta.to.global.u64 \t%rd3, %rd1;", "\tmul.wide.s32 \t%rd4, %r5, 4;", "\tadd.s64 \t%rd5, %rd3, %rd4;",
            "\tld.global.nc.f32 \t%f1, [%rd5];", f"{L}2:", f"\t.loc\t3 {200 + k % 40} 7, function_name $L__info_string0, inlined_at 1 {src + 5} 3",
            "\tshl.b32 \t%r6, %r2, 2;", f"\tmov.u32 \t%r7, {smem};", "\tadd.s32 \t%r8, %r7, %r6;",
            "\tst.shared.f32 \t[%r8], %f1;", "\tbar.sync \t0;", "\tmov.u32 \t%r9, 0;", "\tmov.f32 \t%f2, 0f00000000;",
            f"{L}3:", f"\t.loc\t3 {210 + k % 40} 11, function_name $L__info_string0, inlined_at 1 {src + 5} 3",
            "\tadd.s32 \t%r10, %r2, %r9;", "\trem.u32 \t%r11, %r10, %r4;", "\tshl.b32 \t%r12, %r11, 2;",
            "\tadd.s32 \t%r13, %r7, %r12;", "\tld.shared.f32 \t%f3, [%r13];", "\tadd.f32 \t%f2, %f2, %f3;",
            "\tadd.s32 \t%r9, %r9, 1;", "\tsetp.lt.u32 \t%p2, %r9, 4;", f"\t@%p2 bra \t{L}3;",
            f"\t.loc\t1 {src + 7} 3", "\tbar.sync \t0;"]
    # Unrolled arithmetic on many registers, as template instantiation leaves it.
    for j in range(14, 40):
        body.append(f"\tmul.lo.s32 \t%r{j}, %r{j - 1}, {(k + j) * 7 % 1000 + 3};")
        if j % 3 == 0:
            body.append(f"\t.loc\t1 {src + 8 + j % 5} {j}")
        body.append(f"\tshr.u32 \t%r{j}, %r{j}, {j % 31};")
    body += ["\t{ // callseq 0, 0", "\t.param .b32 param0;", "\tst.param.f32 \t[param0], %f2;", "\t.param .b32 param1;",
             "\tst.param.b32 \t[param1], %r39;", "\t.param .b32 retval0;",
             f"\tcall.uni (retval0),\n\t{f},\n\t(\n\tparam0,\n\tparam1\n\t);", "\tld.param.f32 \t%f4, [retval0];",
             "\t} // callseq 0", f"\t@%p1 bra \t{L}5;", f"\t.loc\t1 {src + 14} 5", "\tcvta.to.global.u64 \t%rd6, %rd2;",
             "\tmul.wide.s32 \t%rd7, %r5, 4;", "\tadd.s64 \t%rd8, %rd6, %rd7;", "\tst.global.f32 \t[%rd8], %f4;",
             f"{L}5:", f"\t.loc\t1 {src + 16} 1", "\tret;", "", "}"]
    return "\n".join(body) + "\n"

HEADER = """//
// Generated by bench/footprint/gen.py (the shape of NVIDIA NVVM Compiler output, -lineinfo)
//

.version 9.0
.target sm_90
.address_size 64

"""

TAIL = """\t.file\t1 "/src/cub/device/dispatch/dispatch_reduce.cuh"
\t.file\t2 "/src/cub/thread/thread_reduce.cuh"
\t.file\t3 "/src/cub/block/block_reduce.cuh"
\t.section\t.debug_str
\t{
$L__info_string0:
.b8 95,90,78,51,99,117,98,54,100,101,116,97,105,108,49,49,66,108,111,99,107,82,101,100,117,99,101,69,0
$L__info_string1:
.b8 95,90,78,51,99,117,98,54,100,101,116,97,105,108,49,50,84,104,114,101,97,100,82,101,100,117,99,101,69,0

\t}
"""

def parse_size(text):
    scale = {"k": 1 << 10, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1], 1)
    return int(float(text.rstrip("kKMG")) * scale)

def main():
    if len(sys.argv) < 3 or sys.argv[1] == "--list":
        print(__doc__ if len(sys.argv) < 3 else kernel_name(int(sys.argv[2])))
        return 0 if len(sys.argv) >= 3 else 2
    target = parse_size(sys.argv[1])
    with open(sys.argv[2], "w") as out:
        out.write(HEADER)
        size, k = len(HEADER) + len(TAIL), 0
        while size < target:
            chunk = func(k) + "\n" + kernel(k) + "\n"
            out.write(chunk)
            size += len(chunk)
            k += 1
        out.write(TAIL)
    print(f"{sys.argv[2]}: {size} bytes, {k} kernels, {k} funcs", file=sys.stderr)
    return 0

if __name__ == "__main__":
    sys.exit(main())
