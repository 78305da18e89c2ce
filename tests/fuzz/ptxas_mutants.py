#!/usr/bin/env python3
"""Accept/reject agreement of `ptxcheck parse` with ptxas on mutated instruction forms.

Writes every form of `ptxcheck coverage --emit-ptx` (semantics/ir/isa_forms.def), then mutates the qualifier
words of each form's last instruction: each word dropped, each word doubled, and each of eight common words
appended. Both tools judge every mutant; the disagreements are written as TSV (form, mutant, ptxas, ptxcheck,
first message) and counted. ptxas is the reference here only for what it refuses (its CUDA version's reading);
docs/front-end.md says where ptxcheck follows the ISA text instead. A measurement, not a test.

Usage: ptxas_mutants.py PTXCHECK OUT.tsv [ARCH]
"""
import glob, os, re, subprocess, sys, tempfile

EXTRA = ['relaxed', 'sys', 'acquire', 'shared', 'global', 'sync', 'u32', 'f32']


def mutants(opcode):
    words = opcode.split('.')
    for k in range(1, len(words)):
        yield '.'.join(words[:k] + words[k + 1:])
    for k in range(1, len(words)):
        yield '.'.join(words[:k + 1] + [words[k]] + words[k + 1:])
    for extra in EXTRA:
        if extra not in words:
            yield '.'.join(words + [extra])


def last_instruction(lines):
    start = next(i for i, l in enumerate(lines) if l.strip() == '.shared .align 8 .b64 mbar;') + 1
    end = next(i for i, l in enumerate(lines) if l.strip() == 'done:')
    body = [i for i in range(start, end) if lines[i].strip() and not lines[i].strip().endswith(':')]
    return body[-1] if body else None


def main():
    ptxcheck, out_path = sys.argv[1], sys.argv[2]
    arch = sys.argv[3] if len(sys.argv) > 3 else 'sm_100a'
    work = tempfile.mkdtemp(prefix='ptxas-mutants-')
    subprocess.run([ptxcheck, 'coverage', '--emit-ptx', work], capture_output=True, check=True)
    seen, total, counts = set(), 0, {'ptxas only refuses': 0, 'ptxcheck only refuses': 0}
    mutant_file = os.path.join(work, 'mutant.ptx')
    with open(out_path, 'w') as out:
        for form in sorted(glob.glob(os.path.join(work, 'form*.ptx'))):
            lines = open(form).read().split('\n')
            at = last_instruction(lines)
            m = at is not None and re.match(r'(\s*)(@!?%p\d+\s+)?([A-Za-z0-9_.:]+)(.*)', lines[at])
            if not m:
                continue
            indent, guard, opcode, rest = m.groups()
            for mutant in mutants(opcode):
                if (mutant, rest) in seen:
                    continue
                seen.add((mutant, rest))
                total += 1
                changed = list(lines)
                changed[at] = indent + (guard or '') + mutant + rest
                open(mutant_file, 'w').write('\n'.join(changed))
                a = subprocess.run(['ptxas', '-arch=' + arch, mutant_file, '-o', '/dev/null'], capture_output=True, text=True)
                b = subprocess.run([ptxcheck, 'parse', mutant_file], capture_output=True, text=True)
                if (a.returncode == 0) == (b.returncode == 0):
                    continue
                key = 'ptxas only refuses' if a.returncode else 'ptxcheck only refuses'
                counts[key] += 1
                why = (a.stderr if a.returncode else b.stderr + b.stdout).strip().split('\n')[0]
                out.write('\t'.join([os.path.basename(form), mutant + rest, key, why[:200]]) + '\n')
    print(f'{total} mutants; ' + '; '.join(f'{k}: {v}' for k, v in counts.items()))


if __name__ == '__main__':
    main()
