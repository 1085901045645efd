#!/usr/bin/env bash
# check-install.sh — tests `make install` / `make uninstall` of libhrpdistance as another
# project would use it (run from the top directory by `make install-check`, which
# `make test` runs). Into a `mktemp -d` prefix it installs the library, then:
#   - checks the installed file list, the symlinks, the soname (readelf), the libraries the
#     shared object needs (libm and libc only), its exported symbols (nm -D: exactly the
#     functions of the public headers, all dst_*, none of an *_internal.h), and that no
#     *_internal.h was installed nor is included by an installed header;
#   - compiles each installed header alone (-std=c11 -Wall -Wextra -Werror -pedantic);
#   - builds tools/install/smoke.c with `pkg-config --cflags --libs hrpdistance` against the
#     shared library (run with LD_LIBRARY_PATH) and with `pkg-config --static` as a static
#     executable, runs both and compares their output with the known answers below;
#   - extracts every ```c block of docs/api.md (each a whole program) and the ```text block
#     that follows it (its output), builds each against the shared library and statically,
#     runs both and compares their output;
#   - uninstalls and checks that nothing is left; then installs and uninstalls once more
#     with DESTDIR (staged) and checks that the .pc names the final PREFIX.
# pkg-config sees only PKG_CONFIG_PATH=<prefix>/lib/pkgconfig added to its usual path.
# Fails loudly on the first error; the temporary directory is removed in every case.
set -euo pipefail

MAKE=${MAKE:-make}
CC=${CC:-cc}
BUILD=${BUILD:-build}
top=$(pwd)

say() { echo "install-check: $*"; }
fail() { echo "install-check: FAILED: $*" >&2; exit 1; }

for tool in pkg-config readelf nm "$CC"; do
  command -v "$tool" >/dev/null 2>&1 || fail "'$tool' not found (make deps installs it)"
done
if [ ! -f distance/include/dst.h ] || [ ! -f docs/api.md ]; then
  fail "run from the top directory of hrpplan"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hrpdistance-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
libdir=$prefix/lib
pcdir=$libdir/pkgconfig

# the version, read from its one place
ver_part() { sed -n "s/^#define DST_VERSION_$1 \\([0-9][0-9]*\\)\$/\\1/p" distance/include/dst.h; }
major=$(ver_part MAJOR)
version=$major.$(ver_part MINOR).$(ver_part PATCH)
[ -n "$major" ] || fail "no DST_VERSION_MAJOR in distance/include/dst.h"
soname=libhrpdistance.so.$major

# ---- install -------------------------------------------------------------------------
say "make install PREFIX=$prefix"
"$MAKE" --no-print-directory -s BUILD="$BUILD" install PREFIX="$prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "make install"; }

# ---- installed files ----------------------------------------------------------------
expected=$(
  {
    printf '%s\n' lib/libhrpdistance.a lib/libhrpdistance.so "lib/$soname" \
      "lib/libhrpdistance.so.$version" lib/pkgconfig/hrpdistance.pc
    for h in distance/include/*.h; do echo "include/hrpplan/$(basename "$h")"; done
  } | sort)
got=$(cd "$prefix" && find . ! -type d | sed 's|^\./||' | sort)
if [ "$got" != "$expected" ]; then
  diff <(echo "$expected") <(echo "$got") >&2 || true
  fail "installed files differ from the list above (< expected, > installed)"
fi
say "installed $(echo "$got" | wc -l) files: $(echo "$got" | tr '\n' ' ')"
if find "$prefix" -name '*_internal.h' | grep -q .; then fail "an *_internal.h was installed"; fi
[ "$(readlink "$libdir/libhrpdistance.so")" = "$soname" ] || fail "libhrpdistance.so does not point to $soname"
[ "$(readlink "$libdir/$soname")" = "libhrpdistance.so.$version" ] ||
  fail "$soname does not point to libhrpdistance.so.$version"

# every include of an installed header is a sibling ("dst_x.h") or a standard header
for h in "$prefix"/include/hrpplan/*.h; do
  while read -r inc; do
    case "$inc" in
      '"'*_internal.h'"') fail "$(basename "$h") includes the internal header $inc" ;;
      '"'*'"')
        f=${inc//\"/}
        [ -f "$prefix/include/hrpplan/$f" ] || fail "$(basename "$h") includes $inc, which is not installed" ;;
      '<'*'>') ;;
      *) fail "$(basename "$h"): unexpected include $inc" ;;
    esac
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$h")
done

# ---- the shared object: soname, needed libraries, exported symbols ------------------
so=$libdir/libhrpdistance.so.$version
got_soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$got_soname" = "$soname" ] || fail "soname is '$got_soname', expected $soname"
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | paste -sd ' ')
[ "$needed" = "libc.so.6 libm.so.6" ] || fail "the shared library needs '$needed', expected libc and libm only"
say "soname $got_soname, needs $needed"

exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
[ -n "$exported" ] || fail "the shared library exports nothing"
if echo "$exported" | grep -v '^dst_' | grep -q .; then
  fail "symbols without the dst_ prefix exported: $(echo "$exported" | grep -v '^dst_' | tr '\n' ' ')"
fi
internal=$(cat distance/*_internal.h | { grep -oE '\b[a-z_][a-z0-9_]*[[:space:]]*\(' || true; } |
           tr -d '( \t' | sort -u)
leaked=$(comm -12 <(echo "$exported") <(echo "$internal"))
[ -z "$leaked" ] || fail "helpers of the *_internal.h headers exported: $(echo "$leaked" | tr '\n' ' ')"
public=$(./tools/install/export-map.sh "$CC" distance/include/*.h | sed -n 's/^    \(dst_[a-z0-9_]*\);$/\1/p' | sort -u)
missing=$(comm -23 <(echo "$public") <(echo "$exported"))
[ -z "$missing" ] || fail "declared in the public headers but not exported: $(echo "$missing" | tr '\n' ' ')"
extra=$(comm -13 <(echo "$public") <(echo "$exported"))
[ -z "$extra" ] || fail "exported but not declared in a public header: $(echo "$extra" | tr '\n' ' ')"
say "exports $(echo "$exported" | wc -l) symbols, all dst_*, exactly the functions of the public headers"

# ---- pkg-config ---------------------------------------------------------------------
export PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
[ "$(pkg-config --modversion hrpdistance)" = "$version" ] || fail "pkg-config --modversion is not $version"
[ "$(pkg-config --variable=prefix hrpdistance)" = "$prefix" ] || fail "pkg-config finds another hrpdistance.pc"
cflags=$(pkg-config --cflags hrpdistance)
libs=$(pkg-config --libs hrpdistance)
static_libs=$(pkg-config --static --libs hrpdistance)
say "pkg-config --cflags --libs: $cflags $libs; --static --libs: $static_libs"
warn="-std=c11 -Wall -Wextra -Werror -pedantic"

cd "$tmp"
# each header alone, as a user includes it
for h in "$prefix"/include/hrpplan/*.h; do
  printf '#include <hrpplan/%s>\nint main(void) { return 0; }\n' "$(basename "$h")" > alone.c
  # shellcheck disable=SC2086
  "$CC" $warn $cflags -o alone alone.c ||
    fail "<hrpplan/$(basename "$h")> does not compile alone"
done
say "each of the $(find "$prefix/include/hrpplan" -name '*.h' | wc -l) headers compiles alone with -pedantic"

# ---- the smoke program, shared and static -------------------------------------------
smoke_expected="version: $version
capsule status: separated
capsule distance: 0.700000 (ok)
capsule normal y: -1.000000 (ok)
capsule mcd status: certified
capsule mcd bracket: ok
convex status: separated
convex distance: 0.750000 (ok)
cube volume: 1.000000 (ok)
mesh status far: separated
mesh distance far: 1.000000 (ok)
mesh status near: penetrating
mesh distance near: -0.200000 (ok)
smoke: all answers right"
check_output() { # name expected actual
  if [ "$2" != "$3" ]; then
    diff <(echo "$2") <(echo "$3") >&2 || true
    fail "$1: output differs (< expected, > got)"
  fi
}
# shellcheck disable=SC2086
"$CC" $warn -o smoke_shared "$top/tools/install/smoke.c" $cflags $libs || fail "smoke.c (shared) does not build"
readelf -d smoke_shared | grep -q "(NEEDED).*\[$soname\]" || fail "smoke_shared does not need $soname"
out=$(LD_LIBRARY_PATH=$libdir ./smoke_shared) || { echo "$out" >&2; fail "smoke_shared exited non-zero"; }
check_output smoke_shared "$smoke_expected" "$out"
say "smoke (shared, $soname): $(echo "$out" | tail -1)"
# shellcheck disable=SC2086
"$CC" $warn -static -o smoke_static "$top/tools/install/smoke.c" $cflags $static_libs ||
  fail "smoke.c (static, pkg-config --static) does not build"
if readelf -d smoke_static 2>/dev/null | grep -q '(NEEDED)'; then fail "smoke_static is not static"; fi
out=$(env -u LD_LIBRARY_PATH ./smoke_static) || { echo "$out" >&2; fail "smoke_static exited non-zero"; }
check_output smoke_static "$smoke_expected" "$out"
say "smoke (static, libhrpdistance.a): $(echo "$out" | tail -1)"

# ---- every example of docs/api.md ----------------------------------------------------
# a ```c block is a whole program; the next fenced block, ```text, is what it prints
mkdir -p api
awk -v dir=api '
  /^```c[[:space:]]*$/    { n++; file = sprintf("%s/example_%02d.c", dir, n); inblk = 1; next }
  /^```text[[:space:]]*$/ { if (n > 0 && !(n in outs)) { file = sprintf("%s/example_%02d.out", dir, n); outs[n] = 1; inblk = 1; printf "" > file; next } }
  /^```/                  { if (inblk) { close(file); inblk = 0 } ; next }
  inblk                   { print > file }
' "$top/docs/api.md"
nex=$(find api -name 'example_*.c' | wc -l)
[ "$nex" -gt 0 ] || fail "no \`\`\`c example found in docs/api.md"
for src in api/example_*.c; do
  ex=${src%.c}
  [ -f "$ex.out" ] || fail "docs/api.md example $(basename "$ex"): no \`\`\`text block of its output follows it"
  first=$(grep -m1 -E '^/\* ' "$src" || true)
  name="docs/api.md example $(basename "$ex") ($first)"
  # shellcheck disable=SC2086
  "$CC" $warn -o "$ex" "$src" $cflags $libs || fail "$name does not build"
  out=$(LD_LIBRARY_PATH=$libdir "./$ex") || { echo "$out" >&2; fail "$name exited non-zero"; }
  check_output "$name" "$(cat "$ex.out")" "$out"
  # shellcheck disable=SC2086
  "$CC" $warn -static -o "$ex.static" "$src" $cflags $static_libs || fail "$name does not build statically"
  out=$(env -u LD_LIBRARY_PATH "./$ex.static") || { echo "$out" >&2; fail "$name (static) exited non-zero"; }
  check_output "$name (static)" "$(cat "$ex.out")" "$out"
done
say "docs/api.md: $nex examples built against the installed library (shared and static), run, output as documented"
cd "$top"

# ---- uninstall ------------------------------------------------------------------------
"$MAKE" --no-print-directory -s BUILD="$BUILD" uninstall PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1 ||
  { cat "$tmp/uninstall.log" >&2; fail "make uninstall"; }
left=$(find "$prefix" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -e "$prefix/include/hrpplan" ] || fail "make uninstall left include/hrpplan/"
say "make uninstall removed every file"

# ---- DESTDIR: staged install for PREFIX=/opt/hrpplan ---------------------------------
stage=$tmp/stage
"$MAKE" --no-print-directory -s BUILD="$BUILD" install DESTDIR="$stage" PREFIX=/opt/hrpplan >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "make install DESTDIR=..."; }
[ "$(cd "$stage/opt/hrpplan" && find . ! -type d | sed 's|^\./||' | sort)" = "$expected" ] ||
  fail "DESTDIR install: files differ from a plain install"
grep -qx 'prefix=/opt/hrpplan' "$stage/opt/hrpplan/lib/pkgconfig/hrpdistance.pc" ||
  fail "DESTDIR install: hrpdistance.pc does not name prefix=/opt/hrpplan"
"$MAKE" --no-print-directory -s BUILD="$BUILD" uninstall DESTDIR="$stage" PREFIX=/opt/hrpplan >/dev/null 2>&1 ||
  fail "make uninstall DESTDIR=..."
[ -z "$(find "$stage" ! -type d)" ] || fail "make uninstall DESTDIR=... left files"
say "DESTDIR install and uninstall: ok"
say "all checks passed"
