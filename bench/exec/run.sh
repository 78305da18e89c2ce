#!/usr/bin/env bash
# bench/exec/run.sh [PTXCHECK] [N]: sort_scan.cu under `ptxcheck exec`, then under `ptxcheck exec --racecheck`
# (launches the dynamic engine cannot check wholly are counted in its summary).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ptxcheck=${1:-$here/../../build/bin/ptxcheck}; n=${2:-1048576}
bin=$(mktemp); trap 'rm -f "$bin"' EXIT
"$ptxcheck" exec --keep "$bin" "$here/sort_scan.cu" -- 16 >/dev/null 2>&1  # build once
echo "== ptxcheck exec (N = $n)"
"$ptxcheck" exec "$bin" "$n"
echo "== ptxcheck exec --racecheck (N = $n)"
"$ptxcheck" exec --racecheck "$bin" "$n" 2>&1 | grep -v "not checked"
