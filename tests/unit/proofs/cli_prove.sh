#!/usr/bin/env bash
# CLI behaviour of `ptxcheck prove` (issue 7): listing, one theorem by name, a family by prefix, JSON, and
# exit 2 for an unknown name. Usage: cli_prove.sh PTXCHECK
set -u
ptxcheck=$1
passed=0; failed=0
check() { local name=$1; shift; if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$ptxcheck" prove --list >"$tmp/list"; rc=$?
check "list exits 0" test $rc -eq 0
check "list states bounds" grep -q 'bound: all 2^96 inputs' "$tmp/list"
"$ptxcheck" prove identity.bfe_s32 >"$tmp/one"; rc=$?
check "one theorem proved, exit 0" test $rc -eq 0
check "verdict printed" grep -qE '^identity.bfe_s32 +PROVED' "$tmp/one"
"$ptxcheck" prove identity.prmt --json >"$tmp/json"; rc=$?
check "prefix selects the family" test "$(grep -c '"verdict": "PROVED"' "$tmp/json")" -eq 7
"$ptxcheck" prove no.such.theorem >/dev/null 2>&1; rc=$?
check "unknown name exits 2" test $rc -eq 2
# Model theorems state their bound; a recorded finding is refuted (exit 1) and says so.
check "model theorem bound listed" grep -q 'bound: .*fence.sc.gpu between' "$tmp/list"
"$ptxcheck" prove model.drf_sc.8_7_1 >"$tmp/drf"; rc=$?
check "refuted theorem exits 1" test $rc -eq 1
check "counterexample printed" grep -q 'counterexample: .*st.relaxed.gpu x, 1' "$tmp/drf"
check "recorded finding reproduced" grep -q 'expected and reproduced' "$tmp/drf"
echo "$passed passed, $failed failed"
test $failed -eq 0
