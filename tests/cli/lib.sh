# Shared preamble of the CLI test scripts (tests/cli/*.sh), sourced as `. "$(dirname "$0")/lib.sh"`. Provides:
#   passed, failed   the counters of checks that passed and failed;
#   check NAME CONDITION...   runs CONDITION, counts a pass, or a failure with the line "FAILED: NAME";
#   tmp              a temporary directory, removed when the script exits;
#   summary [LABEL]  prints "LABEL: N passed, M failed" (no "LABEL: " without one) and exits non-zero when a
#                    check failed.
passed=0; failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name"; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
summary() {  # summary [LABEL]: the last line of a script
  echo "${1:+$1: }$passed passed, $failed failed"
  [ "$failed" -eq 0 ]; exit
}
