# Sourced by tests/cute/cute.sh and tests/hardware/build.sh: the one nvcc command that builds a tutorial of
# tests/cute/tutorials.txt. tutorial_build_command NAME SOURCE ARCH HOW OUTPUT [NVCC FLAG...] fills the array
# `build` (the caller's), with CORPUS naming ../shared/corpus and CUTE_DIR tests/cute. With PTX_ONLY=1 the binary
# embeds only the PTX of ARCH (compute_90a for sm_90a): the very PTX `-arch=ARCH` embeds and ptxcheck exec runs
# (fatbin.hpp, newest_ptx), without the second cicc run for the portable compute_90 PTX nor ptxas: a build of
# hopper/wgmma_tma_sm90 takes 35 s instead of 60 s here. A GPU needs the SASS, so tests/hardware leaves it unset.
tutorial_build_command() {
  local source=$2 arch=$3 how=$4 output=$5 tutorial="$CORPUS/cutlass/examples/cute/tutorial"  # $1: the name
  shift 5
  local target=(-arch="$arch")
  [ "${PTX_ONLY:-0}" = 1 ] && target=(-gencode "arch=compute_${arch#sm_},code=compute_${arch#sm_}")
  build=(nvcc "$@" -lineinfo "${target[@]}" -std=c++17 --expt-relaxed-constexpr -I"$CORPUS/cutlass/include"
         -I"$CORPUS/cutlass/tools/util/include" -o "$output")
  if [[ $how == program:* ]]; then  # one of tests/cute/programs, not a tutorial; program:NAME defines VARIANT_NAME
    build+=(-DVARIANT_"${how#program:}" "$CUTE_DIR/programs/$source")
  elif [[ $how == gemm:* ]]; then
    local element=${how#gemm:}
    [[ $element == *:TN ]] && build+=(-DHARNESS_TN_ONLY) && element=${element%:TN}
    build+=(-DTUTORIAL="\"$tutorial/$source\"" -DELEMENT="$element" "$CUTE_DIR/gemm_harness.cu")
  else
    build+=(-I"$tutorial/$(dirname "$source")" "$tutorial/$source")
  fi
}
