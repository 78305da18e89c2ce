#!/usr/bin/env bash
# `cpack -G DEB` (issue 38): the package holds bin/ptxcheck, the runtime library and the cat models under /usr,
# its Depends line comes from dpkg-shlibdeps, and the binary extracted from it (dpkg-deb -x, not installed)
# finds its models beside itself and gives the right litmus verdict, run from /.
# Usage: package.sh BUILD_DIR SOURCE_DIR
set -u
build=$1; src=$2
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary
unset PTXCHECK_DATA_DIR

# -B: the package and CPack's staging tree go to the temporary folder, not into the build folder.
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1; rc=$?
check "cpack -G DEB exits 0" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/  | /' "$tmp/cpack.log"
deb=$(ls "$tmp"/pkg/ptxcheck_*.deb 2>/dev/null | head -1)
check "a ptxcheck_<version>_<arch>.deb" test -n "$deb"
[ -n "$deb" ] || summary  # the check above failed: exit 1

dpkg-deb -c "$deb" >"$tmp/contents"
for f in usr/bin/ptxcheck usr/share/ptxcheck/memmodel/models/ptx.cat usr/share/ptxcheck/memmodel/models/sc.cat \
         usr/share/ptxcheck/memmodel/models/scoped-c11.cat usr/share/ptxcheck/proofs/models/ptx-race.cat; do
  check "package lists $f" grep -q " \./$f\$" "$tmp/contents"
done
if [ -f "$build/lib/ptxcheck/libcudart.so.13" ]; then
  check "package lists usr/lib/ptxcheck/libcudart.so.13" grep -q ' \./usr/lib/ptxcheck/libcudart\.so\.13$' "$tmp/contents"
fi
check "package name ptxcheck" test "$(dpkg-deb -f "$deb" Package)" = ptxcheck
check "Depends from dpkg-shlibdeps names Z3" bash -c "dpkg-deb -f '$deb' Depends | grep -q 'libz3'"

dpkg-deb -x "$deb" "$tmp/root"
mkdir -p "$tmp/in"; cp "$src/examples/litmus/MP-fence.litmus" "$tmp/in/"
cd /
"$tmp/root/usr/bin/ptxcheck" --version >"$tmp/version" 2>&1
check "--version names the extracted share/ptxcheck" \
  grep -qxF "data directory: $tmp/root/usr/share/ptxcheck (installed)" "$tmp/version"
"$tmp/root/usr/bin/ptxcheck" litmus --json "$tmp/in/MP-fence.litmus" >"$tmp/mp.json" 2>"$tmp/mp.err"; rc=$?
check "extracted binary: MP-fence holds (exit 0)" test $rc -eq 0
check "extracted binary: observation Never" grep -q '"observation":"Never"' "$tmp/mp.json"

summary
