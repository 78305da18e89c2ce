#!/usr/bin/env python3
"""ptxcheck's types-per-operation rule (semantics/ir/operation_types.hpp) against ptxas, pair by pair.

Every comparison operator of setp and set on every type setp takes, every operation of atom and red on every scalar
type of their syntax blocks (plus the half types, with and without .noftz), the vector forms of atom and red, and
the red.async operations (mbarrier and .release forms): each form goes into a one-instruction kernel that ptxas and `ptxcheck parse` judge.
Prints the number of forms and each form the two judge differently. A measurement, not a test.

Usage: ptxas_operation_types.py PTXCHECK [ARCH]   (ARCH defaults to sm_100a)
"""
import os, subprocess, sys, tempfile

COMPARISONS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'lo', 'ls', 'hi', 'hs', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu',
               'num', 'nan']
SETP_TYPES = ['b16', 'b32', 'b64', 'u16', 'u32', 'u64', 's16', 's32', 's64', 'f16', 'bf16', 'f32', 'f64']
ATOMIC_OPS = ['and', 'or', 'xor', 'cas', 'exch', 'add', 'inc', 'dec', 'min', 'max']
ATOMIC_TYPES = ['b16', 'b32', 'b64', 'b128', 'u32', 'u64', 's32', 's64', 'f32', 'f64', 'f16', 'bf16', 'f16x2', 'bf16x2']
VECTOR_TYPES = ['f32', 'f16', 'bf16', 'f16x2', 'bf16x2']


def reg(t, n):
    bits = {'f16x2': 32, 'bf16x2': 32, 'bf16': 16}.get(t) or int(t[1:])
    return {16: '%h', 32: '%r', 64: '%rd', 128: '%q'}[bits] + str(n)


def forms():
    for c in COMPARISONS:
        for t in SETP_TYPES:
            yield f'setp.{c}.{t} %p1, {reg(t, 1)}, {reg(t, 2)};'
            yield f'set.{c}.u32.{t} %r1, {reg(t, 1)}, {reg(t, 2)};'
    for op in ATOMIC_OPS:
        for t in ATOMIC_TYPES:
            for noftz in ([False, True] if t in ('f16', 'bf16', 'f16x2', 'bf16x2') else [False]):
                q = f'{op}{".noftz" if noftz else ""}.{t}'
                extra = f', {reg(t, 3)}' if op == 'cas' else ''
                yield f'atom.global.{q} {reg(t, 1)}, [%rd1], {reg(t, 2)}{extra};'
                yield f'red.global.{q} [%rd1], {reg(t, 2)};'
        for t in VECTOR_TYPES:
            for width in (2, 4, 8):
                vec = '{' + ', '.join(reg(t, 1) for _ in range(width)) + '}'
                q = f'{op}{"" if t == "f32" else ".noftz"}.v{width}.{t}'
                yield f'atom.global.{q} {vec}, [%rd1], {vec};'
                yield f'red.global.{q} [%rd1], {vec};'
        for t in ('b32', 'u32', 's32', 'u64', 's64', 'b64'):
            yield (f'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{op}.{t} [%r1], {reg(t, 2)}, '
                   f'[%r3];')
            yield f'red.async.release.gpu.global.{op}.{t} [%rd1], {reg(t, 2)};'


def main():
    ptxcheck = sys.argv[1]
    arch = sys.argv[2] if len(sys.argv) > 2 else 'sm_100a'
    probe = os.path.join(tempfile.mkdtemp(prefix='ptxas-optypes-'), 'probe.ptx')
    total, differ = 0, []
    for form in forms():
        open(probe, 'w').write(
            f'.version 8.7\n.target {arch}\n.address_size 64\n.visible .entry k(.param .u64 a)\n{{\n'
            ' .reg .pred %p<4>; .reg .b16 %h<4>; .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .b128 %q<4>;\n'
            f' ld.param.u64 %rd1, [a];\n {form}\n ret;\n}}\n')
        total += 1
        ptxas = subprocess.run(['ptxas', '-arch=' + arch, probe, '-o', '/dev/null'], capture_output=True).returncode == 0
        ours = subprocess.run([ptxcheck, 'parse', probe], capture_output=True).returncode == 0
        if ptxas != ours:
            differ.append(('ptxas' if ptxas else 'ptxcheck') + ' only accepts: ' + form)
    for line in differ:
        print(line)
    print(f'{total} forms; the two agree on {total - len(differ)}, differ on {len(differ)}')


if __name__ == '__main__':
    main()
