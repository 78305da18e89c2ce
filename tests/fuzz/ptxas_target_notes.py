#!/usr/bin/env python3
"""Agreement of ptxcheck's version and target requirements (semantics/ir/target_notes.def, read from the ISA's
"PTX ISA Notes" and "Target ISA Notes") with ptxas.

Writes every form of `ptxcheck coverage --emit-ptx` (each accepted by ptxas at `.version 9.0` on its own target),
then assembles each again under other `.version` / `.target` pairs: older PTX ISA versions on the form's own
target (or, before the version that introduced it, on sm_90/sm_80), and other targets ptxas 13 knows at `.version 9.0`. Both tools judge each variant; disagreements are
written as TSV (form, version, target, who refuses, first message) and counted. ptxas is a second reading, not the
spec: where they differ, docs/front-end.md says which the text supports. A measurement, not a test.

Usage: ptxas_target_notes.py PTXCHECK OUT.tsv
"""
import glob, os, re, subprocess, sys, tempfile

VERSIONS = ['7.0', '7.8', '8.0', '8.3', '8.5', '8.6', '8.7', '8.8']
TARGETS = ['sm_75', 'sm_80', 'sm_89', 'sm_90', 'sm_90a', 'sm_100', 'sm_100a', 'sm_100f', 'sm_103a', 'sm_110a', 'sm_120a']


# ISA 11.1.2: "Target string sm_80 introduced in PTX ISA version 7.0", sm_90 7.8, sm_90a 8.0, sm_100a 8.6.
INTRODUCED = {'sm_80': '7.0', 'sm_90': '7.8', 'sm_90a': '8.0'}


def older_target(version, target):
    """The form's target, or where the version predates it the newest of sm_90 and sm_80 that it has."""
    number = lambda v: tuple(map(int, v.split('.')))
    known = dict(INTRODUCED, **{target: INTRODUCED.get(target, '8.6')})
    for t in (target, 'sm_90', 'sm_80'):
        if number(version) >= number(known[t]):
            return t
    return 'sm_80'


def variants(text):
    target = re.search(r'^\.target (\S+)', text, re.M).group(1)
    for v in VERSIONS:
        yield v, older_target(v, target)
    for t in TARGETS:
        if t != target:
            yield '9.0', t


def main():
    ptxcheck, out_path = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix='ptxas-targets-')
    subprocess.run([ptxcheck, 'coverage', '--emit-ptx', work], capture_output=True, check=True)
    total, counts = 0, {'both refuse': 0, 'ptxas only refuses': 0, 'ptxcheck only refuses': 0}
    variant_file = os.path.join(work, 'variant.ptx')
    with open(out_path, 'w') as out:
        for form in sorted(glob.glob(os.path.join(work, 'form*.ptx'))):
            if 'deprecated' in form:
                continue
            text = open(form).read()
            for version, target in variants(text):
                total += 1
                changed = re.sub(r'^\.version \S+', '.version ' + version, text, flags=re.M)
                changed = re.sub(r'^\.target \S+', '.target ' + target, changed, flags=re.M)
                if '%q' not in changed.split('.reg .b128 %q<4>;')[-1]:
                    changed = changed.replace('  .reg .b128 %q<4>;\n', '')  # .b128 is PTX 8.3 (9.7.9.8); unused here
                open(variant_file, 'w').write(changed)
                a = subprocess.run(['ptxas', '-arch=' + target, variant_file, '-o', '/dev/null'], capture_output=True, text=True)
                b = subprocess.run([ptxcheck, 'parse', variant_file], capture_output=True, text=True)
                if a.returncode and b.returncode:
                    counts['both refuse'] += 1
                if (a.returncode == 0) == (b.returncode == 0):
                    continue
                key = 'ptxas only refuses' if a.returncode else 'ptxcheck only refuses'
                counts[key] += 1
                why = (a.stderr if a.returncode else b.stderr + b.stdout).strip().split('\n')
                why = next((l for l in why if 'error' in l), why[0])
                out.write('\t'.join([os.path.basename(form), version, target, key, why[:200]]) + '\n')
    print(f'{total} variants; ' + '; '.join(f'{k}: {v}' for k, v in counts.items()))


if __name__ == '__main__':
    main()
