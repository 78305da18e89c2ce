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
echo "$passed passed, $failed failed"
test $failed -eq 0
