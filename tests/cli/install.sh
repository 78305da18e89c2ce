#!/usr/bin/env bash
# `cmake --install` (issue 38): the installed tree runs on its own. ptxcheck is installed into a temporary prefix,
# run from / on copies of the inputs (no path into the source tree), reads its cat models from
# <prefix>/share/ptxcheck (--version says so), keeps working when the prefix is moved, and fails with exit 2
# when PTXCHECK_DATA_DIR points at a folder without models (so the models are not compiled in).
# With nvcc on PATH, `race` on a .cu and `exec` (the installed libcudart.so.13) run too.
# Usage: install.sh PTXCHECK BUILD_DIR SOURCE_DIR
set -u
build=$2; src=$3
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary
unset PTXCHECK_DATA_DIR

cmake --install "$build" --prefix "$tmp/p" >"$tmp/install.log" 2>&1; rc=$?
check "cmake --install exits 0" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/  | /' "$tmp/install.log"
p=$tmp/p
for f in bin/ptxcheck share/ptxcheck/memmodel/models/ptx.cat share/ptxcheck/memmodel/models/sc.cat \
         share/ptxcheck/memmodel/models/scoped-c11.cat share/ptxcheck/proofs/models/ptx-race.cat \
         share/doc/ptxcheck/install.md; do
  check "installed $f" test -f "$p/$f"
done
if [ -f "$build/lib/ptxcheck/libcudart.so.13" ]; then
  check "installed lib/ptxcheck/libcudart.so.13 (exec's runtime)" test -f "$p/lib/ptxcheck/libcudart.so.13"
fi

# Inputs copied out of the source tree; every run below starts in /.
mkdir -p "$tmp/in"
cp "$src/examples/litmus/MP-fence.litmus" "$src/examples/litmus/SB-fence-sc.litmus" "$tmp/in/"
cp "$src/tests/unit/race/kernels/shared_no_barrier.cu" "$src/examples/exec/saxpy.cu" "$tmp/in/"
cd /

run_installed() {  # run_installed PREFIX: --version, a litmus verdict, a model proof from ptx-race.cat
  local pre=$1 tag=$2
  "$pre/bin/ptxcheck" --version >"$tmp/version" 2>&1
  check "$tag: --version prints the version" grep -qx "ptxcheck [0-9]*\.[0-9]*\.[0-9]*" "$tmp/version"
  check "$tag: --version names $pre/share/ptxcheck" \
    grep -qxF "data directory: $pre/share/ptxcheck (installed)" "$tmp/version"
  "$pre/bin/ptxcheck" litmus --json "$tmp/in/MP-fence.litmus" >"$tmp/mp.json" 2>"$tmp/mp.err"; rc=$?
  check "$tag: MP-fence holds (exit 0)" test $rc -eq 0
  check "$tag: MP-fence observation Never" grep -q '"observation":"Never"' "$tmp/mp.json"
  "$pre/bin/ptxcheck" litmus --json "$tmp/in/SB-fence-sc.litmus" >"$tmp/sb.json" 2>&1
  check "$tag: SB-fence-sc observation Always" grep -q '"observation":"Always"' "$tmp/sb.json"
  # ptx-race.cat (share/ptxcheck/proofs/models) includes ../../memmodel/models/ptx.cat: the mirror keeps it valid.
  "$pre/bin/ptxcheck" prove model.drf_sc.8_7_1 >"$tmp/drf" 2>&1; rc=$?
  check "$tag: prove model.drf_sc.8_7_1 refuted as recorded (exit 1)" test $rc -eq 1
  check "$tag: recorded finding reproduced" grep -q 'expected and reproduced' "$tmp/drf"
}
run_installed "$p" installed

if command -v nvcc >/dev/null; then
  "$p/bin/ptxcheck" race "$tmp/in/shared_no_barrier.cu" --blockDim=128 --gridDim=2 >"$tmp/race" 2>&1; rc=$?
  check "installed: race finds the race (exit 1)" test $rc -eq 1
  if [ -f "$p/lib/ptxcheck/libcudart.so.13" ]; then  # exec preloads <prefix>/lib/ptxcheck/libcudart.so.13
    "$p/bin/ptxcheck" exec "$tmp/in/saxpy.cu" >"$tmp/exec" 2>&1; rc=$?
    check "installed: exec runs saxpy on the installed runtime (exit 0)" test $rc -eq 0
    check "installed: exec reports no error" grep -q '^no error: 0 errors$' "$tmp/exec"
  fi
fi

# Relocatable: the data is found relative to the executable, not at the prefix it was installed to.
mv "$p" "$tmp/moved"
run_installed "$tmp/moved" moved

# The override, and proof that the models are read from the data directory (an empty one: bad input, exit 2).
PTXCHECK_DATA_DIR=$tmp/moved/share/ptxcheck "$tmp/moved/bin/ptxcheck" --version >"$tmp/version" 2>&1
check "PTXCHECK_DATA_DIR is reported" grep -qxF "data directory: $tmp/moved/share/ptxcheck (PTXCHECK_DATA_DIR)" "$tmp/version"
mkdir -p "$tmp/empty"
PTXCHECK_DATA_DIR=$tmp/empty "$tmp/moved/bin/ptxcheck" litmus "$tmp/in/MP-fence.litmus" >"$tmp/none" 2>&1; rc=$?
check "no models in PTXCHECK_DATA_DIR: exit 2" test $rc -eq 2
check "no models: the missing file is named" grep -q "$tmp/empty/memmodel/models/ptx.cat" "$tmp/none"

summary
