#!/usr/bin/env python3
"""Generates semantics/ir/syntax_words.def: per opcode, every qualifier word its syntax blocks and examples in
the PTX ISA text write (ISA 9.0 chapter 9.7, and ISA 1.4's instruction chapter for the legacy forms the IR keeps).

An instruction line's words (`.sat`, `.L2::cache_hint`, `.shared{::cta, ::cluster}` expanded) belong to the opcode
heading it (`add{.sat}.s32 d, a, b;`, `@p bra.uni L;`); a definition line of a block (`.type = { .u16, ... };`) to
every opcode heading a line of that block. The IR checker refuses a flag
or state-space word that no block of its opcode writes (semantics/ir/build.cpp, check_syntax_words).

Usage: gen_syntax_words.py OPCODES.def ISA-9.0.txt [ISA-1.4.txt] > syntax_words.def
"""
import re, sys

WORD = re.compile(r'\.([A-Za-z0-9_][A-Za-z0-9_]*(?:::[A-Za-z0-9_]+)*)(\{(?:\s*::[A-Za-z0-9_]+\s*,?)+\})?')
HEAD = re.compile(r'^\s*(?:[A-Za-z_$][\w$]*:\s*)?(?:@!?%?[\w]+\s+)?([a-z][a-z0-9_]*)(?=[.{ \t;]|$)')


# Opcode names the text misspells in a syntax block: 9.7.13.13 writes `griddecontrol.action;`, 9.7.6.3 `se1p.type`.
TYPO = {'griddecontrol': 'griddepcontrol', 'se1p': 'selp'}
# Qualifier words the text misspells: 9.7.9.7 prmt's `.mode = { ..., .ec1, ... }` is .ecl ("edge clamp left").
WORD_TYPO = {'ec1': 'ecl'}


def opcodes(def_path):
    names = re.findall(r'^PTX_OPCODE\(([a-z0-9_]+),', open(def_path).read(), re.M)
    return {n for n in names}


def blocks(text, first_heading, last_heading):
    """The ``` code blocks between two headings of the text."""
    start = text.find('\n' + first_heading)
    end = text.find('\n' + last_heading, start + 1)
    body = text[start:end if end > 0 else len(text)]
    return re.findall(r'```(.*?)```', body, re.S)


def words_of(line, bare=False):
    """The `.word`s of a line; with `bare`, every identifier too (a definition's alternatives: the text writes
    `.CmpOp = { eq, ne, ... }` and `{ .addr_mode_0, addr_mode_1, addr_mode_2 }` without some dots)."""
    out = set(re.findall(r'[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z0-9_]+)*', line)) if bare else set()
    # `sust.b.{1d,2d,3d}`: one word per alternative.
    for m in re.finditer(r'\.\{([^}]*)\}', line):
        out.update(alt.strip().lstrip('.') for alt in m.group(1).split(',') if alt.strip())
    # `.shared::{cta, cluster}`: one word per alternative.
    for m in re.finditer(r'\.([A-Za-z_][A-Za-z0-9_]*)::\{([^}]*)\}', line):
        out.update(m.group(1) + '::' + alt.strip() for alt in m.group(2).split(',') if alt.strip())
    for m in WORD.finditer(line):
        base, tails = m.group(1), m.group(2)
        out.add(base)
        if tails:
            for t in re.findall(r'::[A-Za-z0-9_]+', tails):
                out.add(base + t)
    return out


def main():
    known = opcodes(sys.argv[1])
    table = {}
    sources = [(sys.argv[2], '9.7.1.1 Integer Arithmetic Instructions: add', '10.1 Special Registers: %tid')]
    if len(sys.argv) > 3:
        sources.append((sys.argv[3], None, None))
    for path, first, last in sources:
        text = open(path, errors='replace').read()
        chunks = blocks(text, first, last) if first else re.findall(r'```(.*?)```', text, re.S)
        previous_heads = set()
        for block in chunks:
            # An instruction line's words are its head's; a definition (`.type = { .u16, ... };`, over as many
            # lines as its braces take) belongs to every head of the block. `vop = { vshl, vshr };` names heads.
            heads, definitions, depth, defining = set(), set(), 0, False
            placeholders, placeholder_lines = {}, []  # `vop2 = { vadd2, ... }`, and the lines `vop2...` heads
            for line in block.split('\n'):
                code = line.split('//')[0]
                named = re.match(r'^\s*([a-z][a-z0-9_]*)\s*=\s*\{([^}]*)\}', code)
                if named:
                    members = {w.strip() for w in named.group(2).split(',') if TYPO.get(w.strip(), w.strip()) in known}
                    placeholders[named.group(1)] = members
                    heads |= members
                    continue
                starts = re.match(r'^\s*\.[\w:.]+\s*(=\s*\.[\w:.]+\s*)*=', code)
                if defining or starts:
                    definitions |= words_of(code, bare=True)
                    depth = (0 if starts else depth) + code.count('{') - code.count('}')
                    defining = depth > 0 or '{' not in code and not code.rstrip().endswith(';')
                    continue
                m = HEAD.match(code)
                head = m and TYPO.get(m.group(1), m.group(1))
                if head in known:
                    heads.add(head)
                    table.setdefault(head, set()).update(words_of(code[m.end(1):]))
                elif m:
                    placeholder_lines.append((m.group(1), words_of(code[m.end(1):])))
            for name, words in placeholder_lines:  # `vop2.dtype.atype.btype{.sat} ...`: each of vop2's opcodes
                for member in placeholders.get(name, ()):
                    table.setdefault(TYPO.get(member, member), set()).update(words)
            # A block continued over a page break ("(continued from previous page)") has definitions and no heads:
            # they are the previous block's.
            heads = heads or previous_heads
            for h in heads:
                table.setdefault(TYPO.get(h, h), set()).update(definitions)
            previous_heads = heads
    print('// Generated by scripts/gen_syntax_words.py from the PTX ISA text (../shared/seeds): do not edit.')
    print('// PTX_SYNTAX_WORDS(opcode, "every qualifier word its syntax blocks and examples write, space separated")')
    for op in sorted(table):
        words = sorted({WORD_TYPO.get(w, w) for w in table[op]})
        print(f'PTX_SYNTAX_WORDS({op}, "{" ".join(words)}")')


if __name__ == '__main__':
    main()
