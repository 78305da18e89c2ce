#!/usr/bin/env python3
"""Which type words ptxas accepts on an opcode that semantics/ir/syntax_words.def does not list for it.

The IR checker refuses a type no syntax block or example of the opcode writes (semantics/ir/build.cpp,
check_syntax_words), outside the texture, video, matrix and async groups. For every form of `ptxcheck coverage
--emit-ptx` of the other groups, each type word of its last instruction is replaced by each type of the same width
the table lacks for the opcode (so that the registers still fit), and ptxas and ptxcheck judge the result. A type
ptxas accepts is a place where ptxcheck refuses what ptxas takes: the text omits it, or the generator missed it.
A measurement, not a test.

Usage: ptxas_type_words.py PTXCHECK SOURCE_DIR OUT.tsv [ARCH]
"""
import glob, os, re, subprocess, sys, tempfile

WIDTH = {
    8: ['b8', 'u8', 's8'],
    16: ['b16', 'u16', 's16', 'f16', 'bf16'],
    32: ['b32', 'u32', 's32', 'f32', 'f16x2', 'bf16x2', 'u16x2', 's16x2', 'tf32'],
    64: ['b64', 'u64', 's64', 'f64', 'f32x2'],
}
WIDTH_OF = {t: w for w, ts in WIDTH.items() for t in ts}
SKIPPED_GROUPS = {'texture', 'video', 'matrix', 'async'}


def main():
    ptxcheck, src, out_path = sys.argv[1:4]
    arch = sys.argv[4] if len(sys.argv) > 4 else 'sm_100a'
    table = {m.group(1): set(m.group(2).split()) for m in
             re.finditer(r'PTX_SYNTAX_WORDS\((\w+), "(.*)"\)', open(os.path.join(src, 'semantics/ir/syntax_words.def')).read())}
    groups = dict(re.findall(r'^PTX_OPCODE\((\w+), \d+, \d+, (\w+),', open(os.path.join(src, 'semantics/ir/opcodes.def')).read(), re.M))
    work = tempfile.mkdtemp(prefix='ptxas-types-')
    subprocess.run([ptxcheck, 'coverage', '--emit-ptx', work], capture_output=True, check=True)
    probe = os.path.join(work, 'probe.ptx')
    tried, ptxas_only, ptxcheck_accepts, seen = 0, [], [], set()
    for form in sorted(glob.glob(os.path.join(work, 'form*.ptx'))):
        lines = open(form).read().split('\n')
        at = next(i for i, l in enumerate(lines) if l.strip() == 'done:') - 1
        m = re.match(r'(\s*(?:@!?%\w+\s+)?)([a-z][a-z0-9_]*)(\.[^\s]*)(.*)', lines[at])
        if not m or m.group(2) not in table or groups.get(m.group(2)) in SKIPPED_GROUPS:
            continue
        indent, opcode, quals, rest = m.groups()
        words = quals.split('.')[1:]
        for k, word in enumerate(words):
            for other in WIDTH.get(WIDTH_OF.get(word), []):
                if other in table[opcode] or other == word or (opcode, quals, other) in seen:
                    continue
                seen.add((opcode, quals, other))
                changed = list(lines)
                changed[at] = indent + opcode + '.' + '.'.join(words[:k] + [other] + words[k + 1:]) + rest
                open(probe, 'w').write('\n'.join(changed))
                tried += 1
                if subprocess.run(['ptxas', '-arch=' + arch, probe, '-o', '/dev/null'], capture_output=True).returncode == 0:
                    ptxas_only.append((opcode, other, changed[at].strip()))
                if subprocess.run([ptxcheck, 'parse', probe], capture_output=True).returncode == 0:
                    ptxcheck_accepts.append((opcode, other, changed[at].strip()))
    with open(out_path, 'w') as out:
        for who, rows in (('ptxas accepts', ptxas_only), ('ptxcheck accepts', ptxcheck_accepts)):
            for row in rows:
                out.write('\t'.join((who,) + row) + '\n')
    print(f'{tried} types the table lacks tried on forms of {len(set(s[0] for s in seen))} opcodes; '
          f'ptxas accepts {len(ptxas_only)}, ptxcheck accepts {len(ptxcheck_accepts)}')


if __name__ == '__main__':
    main()
