#!/usr/bin/env python3
"""Which qualifier words ptxas accepts on an opcode that semantics/ir/syntax_words.def does not list for it.

For every opcode with a form in `ptxcheck coverage --emit-ptx`, each flag of semantics/ir/flags.def and each state
space that the table lacks for the opcode is inserted after the opcode's first word of that form, and ptxas judges
the result. A word ptxas accepts is a place where the IR checker refuses what ptxas takes: either the ISA text omits
the word (the table follows the text, docs/front-end.md) or the generator missed it. A measurement, not a test.

Usage: ptxas_syntax_words.py PTXCHECK SOURCE_DIR OUT.tsv [ARCH]
"""
import glob, os, re, subprocess, sys, tempfile

SPACES = ['const', 'global', 'local', 'param', 'shared', 'shared::cta', 'shared::cluster']


def main():
    ptxcheck, src, out_path = sys.argv[1:4]
    arch = sys.argv[4] if len(sys.argv) > 4 else 'sm_100a'
    table = {m.group(1): set(m.group(2).split()) for m in
             re.finditer(r'PTX_SYNTAX_WORDS\((\w+), "(.*)"\)', open(os.path.join(src, 'semantics/ir/syntax_words.def')).read())}
    flags = re.findall(r'PTX_FLAG\(\w+, "([^"]+)"\)', open(os.path.join(src, 'semantics/ir/flags.def')).read())
    work = tempfile.mkdtemp(prefix='ptxas-words-')
    subprocess.run([ptxcheck, 'coverage', '--emit-ptx', work], capture_output=True, check=True)
    first_form = {}
    for form in sorted(glob.glob(os.path.join(work, 'form*.ptx'))):
        lines = open(form).read().split('\n')
        end = next(i for i, l in enumerate(lines) if l.strip() == 'done:')
        m = re.match(r'(\s*)([a-z][a-z0-9_]*)(\.[^\s]*)(.*)', lines[end - 1])
        if m and m.group(2) in table and m.group(2) not in first_form:
            first_form[m.group(2)] = (form, lines, end - 1, m)
    accepted, tried = [], 0
    probe = os.path.join(work, 'probe.ptx')
    for op, (form, lines, at, m) in sorted(first_form.items()):
        indent, opcode, quals, rest = m.groups()
        for word in flags + SPACES:
            if word in table[op] or ('.' + word) in quals:
                continue
            changed = list(lines)
            changed[at] = indent + opcode + '.' + word + quals + rest
            open(probe, 'w').write('\n'.join(changed))
            tried += 1
            if subprocess.run(['ptxas', '-arch=' + arch, probe, '-o', '/dev/null'], capture_output=True).returncode == 0:
                accepted.append((op, word, changed[at].strip()))
    with open(out_path, 'w') as out:
        for row in accepted:
            out.write('\t'.join(row) + '\n')
    print(f'{tried} words tried on {len(first_form)} opcodes; ptxas accepts {len(accepted)} the table lacks')


if __name__ == '__main__':
    main()
