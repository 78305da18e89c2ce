#!/usr/bin/env python3
"""Checks litmus runs recorded on a real GPU (tests/hardware/<gpu>/litmus.txt, written by the program
tests/hardware/litmus_gpu.py generates) against the PTX model: every final state the hardware showed must be one
that `ptxcheck litmus --states` allows. A state outside the allowed set means the model (or the tool) forbids
something real hardware does: a soundness failure, printed with its count. Values are compared modulo 2^32 (the
runner's locations and registers are 32-bit, the litmus dialect's integers 64-bit).

  check_litmus.py PTXCHECK RECORD.txt REPO CORPUS

Test names in the record are paths under the runner's roots: repo/ (this repository), corpus/ (../shared/corpus)
and families/ (scripts/gen_litmus_families.py with sizes 2,3,4, regenerated here). Prints one line per test and a
summary; exits 1 on a state the model forbids, 2 when a test cannot be checked (unknown verdict, missing file).
"""
import json
import os
import subprocess
import sys
import tempfile


def read_record(path):
    """{test: [(count, {key: value})]} and the header line."""
    tests, header, current = {}, "", None
    for line in open(path, encoding="utf-8"):
        words = line.split()
        if line.startswith("device "):
            header = line.strip()
        elif line.startswith("test "):
            current = words[1]
            tests[current] = []
        elif line.startswith("state ") and current:
            values = {}
            for item in line.split(None, 2)[2].split(";"):
                if "=" in item:
                    key, value = item.strip().split("=")
                    values[key] = int(value)
            tests[current].append((int(words[1]), values))
    return tests, header


def model_answers(ptxcheck, files):
    """{file: ptxcheck's JSON answer} for every file, asked in one run."""
    run = subprocess.run([ptxcheck, "litmus", "--states", "--json", "-j", "2", *files],
                         capture_output=True, text=True, timeout=1800)
    answers = {}
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            answer = json.loads(line)
            answers[answer["file"]] = answer
    return answers


def allowed(state, answer):
    """Whether the observed state, read on the keys the model's states name, is one of them (mod 2^32)."""
    for s in answer["states"]:
        if all(k in state and (state[k] - v) % (1 << 32) == 0 for k, v in s["values"].items()):
            return True
    return False


def condition_seen(state, answer):
    """Whether the observed state is one of the allowed states that satisfy the test's condition."""
    return any(s["satisfies"] and all(k in state and (state[k] - v) % (1 << 32) == 0 for k, v in s["values"].items())
               for s in answer["states"])


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    ptxcheck, record, repo, corpus = sys.argv[1:]
    tests, header = read_record(record)
    families = tempfile.mkdtemp()
    subprocess.run([sys.executable, os.path.join(repo, "scripts/gen_litmus_families.py"), families, "all", "2,3,4"],
                   capture_output=True)  # exits 1 for IRIW-dat3m-3 (odd), writing the rest
    roots = {"repo": repo, "corpus": corpus, "families": families}
    path_of = {t: os.path.join(roots[t.split("/", 1)[0]], t.split("/", 1)[1]) for t in tests}
    missing = [t for t, p in path_of.items() if not os.path.exists(p)]
    answers = model_answers(ptxcheck, [p for p in path_of.values() if os.path.exists(p)])
    print(header)
    forbidden = unknown = states = instances = weak_seen = 0
    for test, observed in tests.items():
        answer = answers.get(path_of[test])
        if test in missing or answer is None or not answer.get("states_complete") or answer.get("unsupported"):
            why = "file missing" if test in missing else "no answer" if answer is None else "states incomplete or unsupported"
            print(f"unknown  {test}: {why}")
            unknown += 1
            continue
        bad = [(c, s) for c, s in observed if not allowed(s, answer)]
        seen = sum(c for c, s in observed if condition_seen(s, answer))
        total = sum(c for c, _ in observed)
        states += len(observed)
        instances += total
        weak_seen += seen > 0 and answer["observation"] == "Sometimes"
        if bad:
            forbidden += len(bad)
            for count, state in bad:
                print(f"FORBIDDEN {test}: seen {count} times: {state} (model: {answer['observation']})")
        else:
            print(f"ok       {test}: {len(observed)} states in {total} runs, all allowed; condition's outcome seen "
                  f"{seen} times (model: {answer['observation']})")
    sometimes = sum(1 for t in tests if (a := answers.get(path_of[t])) and a.get("observation") == "Sometimes")
    print(f"{len(tests)} tests, {instances} runs, {states} distinct final states: {forbidden} forbidden by the model, "
          f"{unknown} tests unknown; the condition's outcome was seen in {weak_seen} of the {sometimes} tests the model "
          f"says Sometimes")
    sys.exit(1 if forbidden else 2 if unknown else 0)


if __name__ == "__main__":
    main()
