#!/usr/bin/env python3
"""Checks the tests/exec programs' expectations against what the same programs did on a real GPU.

  check_exec.py RECORD.txt DIFFERENCES.tsv EXEC_DIR

RECORD.txt is tests/hardware/run.sh's exec.txt (per program `=== NAME`, `exit N`, `stdout: ...`). A program
agrees when it exited with its `// expect-exit:` code (0 if none) and printed every `// expect-stdout:` line, the
same lines `ptxcheck exec` is held to by tests/exec/exec.sh. So an agreeing program is one where the interpreter and
the hardware print the same thing. DIFFERENCES.tsv lists, with the reason, each program that differs on purpose (an
emulated device the GPU machine lacks, a fault the interpreter reports that hardware does not). Fails on a program
that differs without a row, and on a row whose program agrees now (the row is stale). Programs added after the
record was taken are counted and printed as not run on hardware.
"""
import os
import re
import sys


def read_record(path):
    runs, name = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("=== "):
            name = line[4:]
            runs[name] = {"exit": None, "stdout": []}
        elif name and line.startswith("exit "):
            runs[name]["exit"] = int(line[5:])
        elif name and line.startswith("stdout: "):
            runs[name]["stdout"].append(line[8:])
    return runs


def expectations(cu):
    text = open(cu, encoding="utf-8").read()
    want_exit = re.findall(r"^// expect-exit: (\d+)", text, re.M)
    return int(want_exit[0]) if want_exit else 0, re.findall(r"^// expect-stdout: (.*)$", text, re.M)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    record, differences, exec_dir = sys.argv[1:]
    runs = read_record(record)
    listed = {}
    for line in open(differences, encoding="utf-8"):
        if line.strip() and not line.startswith("#") and not line.startswith("program\t"):
            program, reason = line.rstrip("\n").split("\t", 1)
            listed[program] = reason
    programs = sorted(os.path.splitext(f)[0] for f in os.listdir(exec_dir) if f.endswith(".cu"))
    failures = agree = differ = not_run = 0
    for program in programs:
        if program not in runs:
            print(f"not run on hardware: {program} (added after the record)")
            not_run += 1
            continue
        want_exit, want_lines = expectations(os.path.join(exec_dir, program + ".cu"))
        got = runs[program]
        missing = [w for w in want_lines if not any(w in line for line in got["stdout"])]
        agrees = got["exit"] == want_exit and not missing
        if agrees and program in listed:
            print(f"FAIL {program}: agrees with the hardware now; remove its row from {os.path.basename(differences)}")
            failures += 1
        elif not agrees and program not in listed:
            first = missing[0] if missing else f"exit {got['exit']}, expected {want_exit}"
            print(f"FAIL {program}: differs from the hardware: expects '{first}'")
            failures += 1
        elif agrees:
            agree += 1
            print(f"agrees   {program}")
        else:
            differ += 1
            print(f"differs  {program}: {listed[program]}")
    for program in sorted(set(listed) - set(programs)):
        print(f"FAIL {program}: listed in {os.path.basename(differences)} but no such program")
        failures += 1
    print(f"{agree} programs agree with the hardware, {differ} differ as listed, {not_run} not run on hardware, "
          f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
