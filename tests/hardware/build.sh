#!/usr/bin/env bash
# Builds, on this machine, what tests/hardware/run.sh runs on a GPU machine (the `device` tool lends an H100/H200
# to some sessions): the CuTe tutorials that run on sm_90 (as tests/cute/cute.sh builds them, with nvcc's static
# CUDA runtime since the GPU machine has its own), the tests/exec programs for sm_90a, and the hardware litmus
# runner's programs (tests/hardware/litmus_gpu.py). Usage: build.sh OUT_DIR CORPUS_DIR JOBS [PART...], PART one of
# cute, exec, probes, litmus (all when none is named; the exec programs need no corpus and can be built on the GPU
# machine, which has nvcc and more cores).
set -uo pipefail
out=$1; corpus=$2; jobs=$3; shift 3
parts=" ${*:-cute exec probes litmus} "
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/cute" "$out/exec"
export CORPUS="$corpus" CUTE_DIR="$here/cute"
# shellcheck source=tests/cute/tutorial_build.sh
. "$here/cute/tutorial_build.sh"
build_cute() {  # NAME SOURCE ARCH HOW (tests/cute/tutorials.txt), with nvcc's static CUDA runtime
  local build
  [ -x "$out/cute/$1" ] && return  # built by an earlier run into the same OUT_DIR
  tutorial_build_command "$1" "$2" "$3" "$4" "$out/cute/$1"
  "${build[@]}" >"$out/cute/$1.nvcc" 2>&1 || echo "nvcc failed: $1"
}
build_exec() {  # FILE.cu: its own `// nvcc:` flags; sm_90a unless it names an architecture
  local cu=$1 name; name=$(basename "$1" .cu)
  [ -x "$out/exec/$name" ] && return
  local extra; extra=$(sed -n 's|^// nvcc: ||p' "$cu")
  sed -n 's|^// args: ||p' "$cu" >"$out/exec/$name.args"
  local arch=-arch=sm_90a
  [[ $extra == *-arch=* ]] && arch=
  # shellcheck disable=SC2086
  nvcc $arch $extra -I"$here/exec" -o "$out/exec/$name" "$cu" >"$out/exec/$name.nvcc" 2>&1 || echo "nvcc failed: $name"
}
export -f build_cute build_exec tutorial_build_command
export out here
# The tutorials of tests/cute/tutorials.txt for sm_70-sm_90a (the sm_100a ones cannot run on Hopper).
[[ $parts == *" cute "* ]] && grep -vE "sm_100a|^#" "$here/cute/tutorials.txt" | cut -d' ' -f1-4 |
  xargs -P "$jobs" -L 1 bash -c 'build_cute "$@"' _
[[ $parts == *" exec "* ]] && ls "$here"/exec/*.cu | xargs -P "$jobs" -n 1 bash -c 'build_exec "$1"' _
# The litmus runner: the repository's PTX litmus tests, the corpus's (litmus-ptx: Manual, Memalloy, Nvidia) and
# the scalability families of 2-4 threads, named by the paths tests/hardware/check_litmus.py reads them from.
# The probes: one question to the hardware each (tests/hardware/probes/*.cu).
if [[ $parts == *" probes "* ]]; then
  mkdir -p "$out/probes"
  for cu in "$here"/hardware/probes/*.cu; do
    nvcc -arch=sm_90a -o "$out/probes/$(basename "$cu" .cu)" "$cu" >"$out/probes/$(basename "$cu" .cu).nvcc" 2>&1 || echo "nvcc failed: $cu"
  done
fi
[[ $parts == *" litmus "* ]] || exit 0
src="$out/litmus-src"; rm -rf "$src"; mkdir -p "$src/families"
ln -s "$here/.." "$src/repo"; ln -s "$corpus" "$src/corpus"
python3 "$here/../scripts/gen_litmus_families.py" "$src/families" all 2,3,4 >/dev/null
files=$(cd "$src" && ls repo/examples/litmus/*.litmus repo/tests/cli/litmus-spec/*.litmus \
  repo/tests/cli/litmus-instructions/*.litmus corpus/litmus-ptx/tests/{Manual,Memalloy,Nvidia}/*.litmus families/*.litmus)
# shellcheck disable=SC2086
python3 "$here/hardware/litmus_gpu.py" gen "$out/litmus.cu" "$src" $files >"$out/litmus.gen"
nvcc -arch=sm_90a -o "$out/litmus" "$out/litmus.cu" >"$out/litmus.nvcc" 2>&1 || echo "nvcc failed: litmus"
