#!/usr/bin/env python3
"""Generates semantics/ir/target_notes.def: what each instruction section of PTX ISA 9.0 chapter 9.7 says, in its
"PTX ISA Notes" and "Target ISA Notes", about the PTX ISA version and the target architecture an instruction needs.

Read from the text, one rule per sentence it can read:
  - the whole section: "Introduced in PTX ISA version 8.6.", "Requires `sm_90` or higher.", "Requires `sm_90a`.",
    "Supported on all target architectures.", "Supported on following architectures:" and its list (family
    entries "sm_100f or higher in the same family" included);
  - a form: "`add.u16x2` and `add.s16x2` require `sm_90` or higher.", "`div.{rz, rm, rp}.f64` requires ...",
    "64-bit `red.{and, or, xor, min, max}` require ...", "`fma.f32` introduced in PTX ISA version 2.0.";
  - a qualifier: "Support for `.b128` type requires `sm_70` or higher.", "Sub-qualifier `::cluster` requires ...",
    "Qualifier `.kind::mxf4nvf4` introduced in PTX ISA version 8.7.", "Qualifier `.kind::i8` is supported on
    following architectures:";
  - a removal: "`shfl` is not supported on `sm_70` or higher starting PTX ISA version 6.4." (a warning: the
    instruction is still defined).
Every other sentence of the two notes (counted on stderr, listed at the end of the file) gives no rule: the checker
is lenient where the text is not read.

Usage: gen_target_notes.py OPCODES.def ISA-9.0.txt > target_notes.def
"""
import re, sys

# The text's misspellings in section titles and notes (9.7.9.5 `shf1`, 9.7.6.3 `se1p`, 9.7.3.16 doubled title).
TITLE_FIX = {'shf1': 'shfl', 'se1p': 'selp', 'rsqrtrsqrt': 'rsqrt', 'activemaskactivemask': 'activemask',
             'varvg2': 'vavrg2', 'varvg4': 'vavrg4'}
# Words that stand for a class in the text (`.scope`, `.type`), not a qualifier an instruction writes.
# (`.scope` and `.sem` too: a section's syntax may define them twice, st.async's `.scope` is `{ .cluster }` in one
# form and `{ .gpu, .sys }` in the other, and the notes do not say which.)
PLACEHOLDERS = {'scope', 'sem', 'type', 'ss', 'level', 'op', 'rnd', 'shape', 'dtype', 'atype', 'btype', 'ctype', 'scale_vec_size',
                'to_proxykind', 'from_proxykind', 'scale_vectorsize'}
FORM_PLACEHOLDERS = {'rnd': 'rn/rz/rm/rp'}  # `div.rnd.f32` (9.7.3.8: `.rnd = { .rn, .rz, .rm, .rp }`)
PHRASES = {'vector types': ['.v2', '.v4', '.v8']}
# A sentence about qualifiers that is read as a rule: it names its words first. Conditions ("with", "without", "for", "when",
# "as destination", "corresponding to" a value) join words into one form, which is not read.
QUALIFIER_SENTENCE = re.compile(r'^(?:Support for |Sub-qualifier |Qualifiers? |Modifier |Types? |\.)(?!.* (?:with|without|argument|for|when|on|as|corresponding|variant|except) )')
# "Support for sub-qualifier `::cta` on `.shared`", "Support for `::entry` and `::func` sub-qualifiers on `.param` space".
SUB_QUALIFIER_ON = re.compile(r'^Support for (?:sub-qualifiers? )?((?:::\w+)(?:\s+and\s+::\w+)*)(?: sub-qualifiers?)? on (\.\w+)(?: space)?$')
TYPE = re.compile(r'^(?:[usbf](?:4|8|16|32|64|128)(?:x[248])?|b1|bf16(?:x2)?|tf32|u?e[0-9]m[0-9](?:x[24])?|pred)$')
NOTE_HEADINGS = ('Examples', 'Example', 'Syntax', 'Description', 'Semantics', 'Notes', 'PTX ISA Notes',
                 'Target ISA Notes', 'Release Notes', 'Parameters')
VERSION = r'(?:PTX ISA|PTX ISA version) (\d+)\.(\d+)'
SM = r'`?sm_?(\d+)`?'


def opcodes(def_path):
    return set(re.findall(r'^PTX_OPCODE\(([a-z0-9_]+),', open(def_path).read(), re.M))


def sections(lines):
    """(number, title, body lines) of each instruction section of 9.7 that has a Target ISA Notes paragraph."""
    start = [i for i, l in enumerate(lines) if l.strip() == '9.7.1.1 Integer Arithmetic Instructions: add'][-1]
    end = next(i for i in range(start, len(lines)) if lines[i].startswith('10.1. Special Registers'))
    heads = [i for i in range(start, end) if re.match(r'^9\.7\.[0-9.]+ \S', lines[i]) and '\t' not in lines[i]]
    for k, i in enumerate(heads):
        body = lines[i + 1:heads[k + 1] if k + 1 < len(heads) else end]
        if any(l.startswith('Target ISA Notes') for l in body):
            number, title = lines[i].split(' ', 1)
            yield number, title, body


def paragraph(body, name):
    out, on = [], False
    for l in body:
        if l.startswith(name):
            on = True
            continue
        if on and l.startswith(NOTE_HEADINGS):
            break
        if on and l.strip():
            out.append(l.strip())
    return out


def clean(s):
    """The text with its typesetting undone: backticks and bold, ` . ` spaced dots, title misspellings."""
    s = s.replace('`', '').replace('**', '').replace('- ▶', '').strip()
    s = re.sub(r'(?<=[\w}])\s+\.\s+(?=[a-z{])', '.', s)  # `membar . sys`
    s = re.sub(r'(?:(?<=\s)|^)\.\s+(?=[a-z])', '.', s)  # `. approx`
    s = re.sub(r'(?<=\w)\.\s+\{', '.{', s)  # `atom.global. {add, cas, exch}`
    for bad, good in TITLE_FIX.items():
        s = re.sub(r'\b' + bad + r'\b', good, s)
    return s


def heads_of(number, title, known):
    """The instructions a section's title names: `bar, barrier`, `mbarrier.test_wait / mbarrier.try_wait`. In
    9.7.15, the wgmma chapter, titles and syntax blocks write `wmma.fence`, `wmma.commit_group` and
    `wmma.wait_group` where its examples write `wgmma.fence.sync.aligned;` and the like: those are wgmma's."""
    name = clean(title.split(':', 1)[1]) if ':' in title else ''
    name = re.sub(r'\(deprecated\)', '', name)
    out = []
    for part in re.split(r'\s*[,/]\s*', name):
        words = part.strip().split('.')
        if number.startswith('9.7.15.') and words[0] == 'wmma':
            words[0] = 'wgmma'
        if words and words[0] in known:
            out.append(' '.join(w for w in words if w))
    return out


def section_types(body):
    words = set()
    for block in re.findall(r'```(.*?)```', '\n'.join(body), re.S):
        words |= {w for w in re.findall(r'\.([a-z0-9]+)\b', block) if TYPE.match(w)}
        for m in re.finditer(r'\{([^}]*)\}', block):
            words |= {w.strip().lstrip('.') for w in re.split(r'[,/]', m.group(1)) if TYPE.match(w.strip().lstrip('.'))}
    return sorted(words)


def top_level_split(text):
    """`a.{x, y}, b and c` split at the commas and "and"s outside braces."""
    pieces, depth, current = [], 0, ''
    for token in re.split(r'(\{|\}|,\s*(?:and\s+)?|\s+and\s+)', text):
        if token == '{': depth += 1
        if token == '}': depth -= 1
        if depth == 0 and re.fullmatch(r',\s*(?:and\s+)?|\s+and\s+', token or ''):
            pieces.append(current)
            current = ''
        else:
            current += token or ''
    return pieces + [current]


def form_alternatives(text, known):
    """`min{.relu}.s16x2` as 'min s16x2'; `div.{rz, rm, rp}.f64` as 'div rz/rm/rp f64'; 64-bit X needs a 64-bit
    type. The words keep the text's order, which is the instruction's (`cvt.bf16.f32`: dtype, then atype). None
    when a piece is no instruction form."""
    out = []
    for piece in top_level_split(text.strip()):
        piece = piece.strip()
        bits = None
        m = re.match(r'^(32|64)-bit\s+(.*)$', piece)
        if m:
            bits, piece = m.group(1), m.group(2).strip()
        m = re.match(r'^([a-z][a-z0-9_]*)((?:\.?\{[^}]*\}|\.[A-Za-z0-9_:]+)*)$', piece)
        if not m or m.group(1) not in known:
            return None
        words = [m.group(1)]
        for part in re.findall(r'\.?\{[^}]*\}|\.[A-Za-z0-9_:]+', m.group(2)):
            if part.startswith('.{') or part.startswith('{'):
                alts = [a.strip().lstrip('.') for a in re.split(r'[,/]', part.strip('.{}')) if a.strip()]
                # `{.relu}` and `.{relu}` are optional; `fma{oob}` (9.7.4.4, no dot at all) is the word `.oob`.
                if part.startswith('{') and '.' not in part and ':' not in part:
                    words.append(alts[0])
                    continue
                if part.startswith('{') or len(alts) == 1:
                    continue
                words.append('/'.join(alts))
            else:
                words.append(FORM_PLACEHOLDERS.get(part[1:], part[1:]))
        if bits:
            words.append('/'.join(p + bits for p in 'usb'))
        out.append(' '.join(words))
    return '|'.join(out)


def qualifier_words(text):
    """`.b128`, `::cluster`, `.kind::i8/.kind::mxf4` in a sentence about qualifiers; placeholders dropped."""
    m = SUB_QUALIFIER_ON.match(text)
    if m:
        return [m.group(2) + sub for sub in re.findall(r'::\w+', m.group(1))]
    if not QUALIFIER_SENTENCE.match(text):
        return []
    found = []
    for phrase, words in PHRASES.items():
        if phrase in text:
            found += words
    if re.search(r'\.[A-Za-z]\w*\.[A-Za-z]', text):
        return []  # `.v8.b32/.v4.b64`: a combination of words, not read
    found += re.findall(r'(?<![\w:])(\.[A-Za-z][A-Za-z0-9_]*(?:::[A-Za-z0-9_]+)*|::[A-Za-z0-9_]+)', text)
    return [w for w in found if w.lstrip('.') not in PLACEHOLDERS]


def arch_entry(line):
    """One entry of a "Supported on following architectures" list: sm_100a, or sm_100f+ (the family from sm_100f)."""
    m = re.match(r'^sm_(\d+)([af]?)(?:\s+or higher in the same family)?(?:\s*\(.*\))?$', line)
    if not m:
        return None
    return 'sm_' + m.group(1) + m.group(2) + ('+' if 'or higher' in line else '')


def target_rules(lines, known, rules, unread):
    listing = None  # (scope, form) of the list being read
    for raw in lines:
        line = clean(raw)
        entry = arch_entry(line)
        if listing is not None and entry:
            rules[-1][3] += ',' + entry if rules[-1][3] else entry
            continue
        if listing is not None and re.match(r'^And (?:is|are) supported on following family-specific architectures', line):
            continue  # the list goes on (its "except" words are not read: lenient)
        listing = None
        for sentence in re.split(r'(?<=\.)\s+(?=[A-Z`.])', line):
            sentence = sentence.strip().rstrip('.')
            if not target_sentence(sentence, known, rules):
                m = re.match(r'^(?:Qualifiers?\s+)?(.*?)\s+(?:is|are) supported on following architectures:?$', sentence)
                if sentence.startswith('Supported on following architectures'):
                    rules.append(['section', 'target', '', ''])
                    listing = ('section', '')
                elif m and form_alternatives(m.group(1), known):
                    rules.append(['form', 'target', form_alternatives(m.group(1), known), ''])
                    listing = ('form', m.group(1))
                elif m and qualifier_words(m.group(1)):
                    rules.append(['word', 'target', ' '.join(qualifier_words(m.group(1))), ''])
                    listing = ('word', m.group(1))
                elif sentence:
                    unread.append(sentence)


def target_sentence(s, known, rules):
    if s == 'Supported on all target architectures':
        return True  # no rule
    m = re.match(r'^Requires (?:target )?' + SM + r' or higher$', s)
    if m:
        rules.append(['section', 'target', '', '>=sm_' + m.group(1)])
        return True
    m = re.match(r'^Requires `?(sm_\d+a)`?$', s)
    if m:
        rules.append(['section', 'target', '', m.group(1)])
        return True
    m = re.match(r'^Not supported in PTX ISA version (\d+\.\d+) for \.target sm_(\d+) or higher$', s)
    if m:
        rules.append(['section', 'removed', '', '>=sm_' + m.group(2) + '@' + m.group(1)])
        return True
    m = re.match(r'^(.*?) requires? (sm_\d+a) and (?:is|are) supported on (sm_\d+f)(?: or higher in the same family| and later '
                 r'generation targets in the same family)? from PTX ISA version \d+\.\d+$', s)
    if m and (form_alternatives(m.group(1), known) or qualifier_words(m.group(1))):
        form = form_alternatives(m.group(1), known)
        rules.append(['form' if form else 'word', 'target', form or ' '.join(qualifier_words(m.group(1))),
                      m.group(2) + ',' + m.group(3) + '+'])
        return True
    m = re.match(r'^(.*?) requires? (sm_\d+[af](?: or sm_\d+[af])*)$', s)
    if m and (form_alternatives(m.group(1), known) or qualifier_words(m.group(1))):
        form = form_alternatives(m.group(1), known)
        archs = ','.join(a + ('+' if a.endswith('f') else '') for a in m.group(2).split(' or '))
        rules.append(['form' if form else 'word', 'target', form or ' '.join(qualifier_words(m.group(1))), archs])
        return True
    m = re.match(r'^(.*?) is not supported on ' + SM + r' or higher starting PTX ISA version (\d+\.\d+)$', s)
    if m and form_alternatives(m.group(1), known):
        rules.append(['form', 'removed', form_alternatives(m.group(1), known), '>=sm_' + m.group(2) + '@' + m.group(3)])
        return True
    m = re.match(r'^(.*?) (?:support )?requires? (?:architecture |target )?' + SM + r' or higher$', s)
    if m:
        form = form_alternatives(m.group(1), known)
        if form:
            rules.append(['form', 'target', form, '>=sm_' + m.group(2)])
            return True
        words = qualifier_words(m.group(1))
        if words:
            rules.append(['word', 'target', ' '.join(words), '>=sm_' + m.group(2)])
            return True
    m = re.match(r'^(.*?) (?:is )?supported on all target architectures$', s)
    return bool(m and form_alternatives(m.group(1), known))  # no rule


def version_rules(lines, known, rules, unread):
    for raw in lines:
        for sentence in re.split(r'(?<=\.)\s+(?=[A-Z`.])', clean(raw)):
            s = sentence.strip().rstrip('.')
            m = re.match(r'^Introduced in ' + VERSION + r'$', s)
            if m:
                rules.append(['section', 'introduced', '', m.group(1) + '.' + m.group(2)])
                continue
            m = re.match(r'^(.*?) (?:is |are |were )?introduced in ' + VERSION + r'$', s)
            if m:
                version = m.group(2) + '.' + m.group(3)
                form = form_alternatives(m.group(1), known)
                if form:
                    rules.append(['form', 'introduced', form, version])
                    continue
                words = qualifier_words(m.group(1))
                if words:
                    rules.append(['word', 'introduced', ' '.join(words), version])
                    continue
            if s:
                unread.append(s)


def target_strings(lines):
    """(target, version) of each "Target string(s) ... introduced in PTX ISA version V" of 11.1.2's PTX ISA Notes."""
    start = [i for i, l in enumerate(lines) if l.startswith('11.1.2. PTX Module Directives')][-1]
    found = []
    for l in paragraph(lines[start + 1:start + 400], 'PTX ISA Notes'):
        m = re.match(r'^Target strings? (.*) introduced in ' + VERSION, clean(l))
        if m:
            for name in re.findall(r'sm_\w+', m.group(1)):
                found.append((name, '%s.%s' % (m.group(2), m.group(3))))
    return found


def main():
    known = opcodes(sys.argv[1])
    lines = open(sys.argv[2], errors='replace').read().split('\n')
    out, unread_all, counted = [], [], 0
    for number, title, body in sections(lines):
        heads = heads_of(number, title, known)
        if not heads:
            continue
        rules, unread = [], []
        version_rules(paragraph(body, 'PTX ISA Notes'), known, rules, unread)
        target_rules(paragraph(body, 'Target ISA Notes'), known, rules, unread)
        out.append('PTX_TARGET_SECTION("%s", "%s", "%s")' % (number, '|'.join(heads), ' '.join(section_types(body))))
        for scope, kind, form, value in rules:
            if kind == 'target' and not value:
                continue  # a list heading with no entry read
            out.append('PTX_TARGET_RULE("%s", %s, %s, "%s", "%s")' % (number, scope, kind, form, value))
            counted += 1
        unread_all += ['%s %s' % (number, u) for u in unread]
    print('// Generated by scripts/gen_target_notes.py from ISA 9.0 chapter 9.7 ("PTX ISA Notes", "Target ISA Notes").')
    print('// PTX_TARGET_SECTION(section, heads, types of its syntax)')
    print('// PTX_TARGET_RULE(section, section|form|word, introduced|target|removed, form or words, requirement)')
    print('\n'.join(out))
    print('// PTX_TARGET_STRING(target, PTX ISA version that introduced it): ISA 11.1.2, PTX ISA Notes')
    for name, version in target_strings(lines):
        print('PTX_TARGET_STRING("%s", "%s")' % (name, version))
    print('// Sentences of the two notes not read as a rule (%d):' % len(unread_all))
    for u in unread_all:
        print('//   ' + u[:200])
    print('gen_target_notes: %d rules; %d sentences not read' % (counted, len(unread_all)), file=sys.stderr)


if __name__ == '__main__':
    main()
