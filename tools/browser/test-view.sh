#!/usr/bin/env bash
# Browser test of view.html (make test-browser): plans scenarios/hand_cross.yaml, opens
# its view.html in headless Chromium (kept off the network; WebGL by ANGLE on SwiftShader,
# Chromium's software renderer), lets the page move its slider to the first, middle and
# last frames and report the pixels it drew (view.html#selftest: the WebGL drawing buffer
# read back, and the clearance plot; read back with --dump-dom), and saves screenshots of
# two frames under OUTDIR. Fails on ANY console message of the page (errors, warnings,
# WebGL complaints: the page logs nothing when all is well), when the page got no WebGL,
# when a frame is blank, when the frames do not differ, when the plot is empty, when a
# mouse drag, right-drag or wheel turn leaves the picture as it was, when a click on the
# plot does not seek, or when a screenshot is not a PNG of the window's size with content.
# With MESH_VIEW_BINARY (built from tools/browser/mesh_view.c) it also writes a view.html
# with link meshes and two statue meshes, and fails unless the page draws triangles and the meshes cover at least
# MIN_MESH_INK pixels of the canvas (frame 0 drawn with and without them). Last, it has
# each page render frames back to back for 2 s (view.html#bench) and prints the frames
# per second it measured (informative: software rendering on a shared machine; it fails
# only when no frame was drawn).
#
# usage: tools/browser/test-view.sh HRPPLAN_BINARY OUTDIR [MESH_VIEW_BINARY]
set -euo pipefail

HRPPLAN=${1:?usage: test-view.sh HRPPLAN_BINARY OUTDIR}
OUT=${2:?usage: test-view.sh HRPPLAN_BINARY OUTDIR}
MESH_VIEW=${3:-}
WIDTH=1400
HEIGHT=900
# the canvas is 900 x 640: a frame with the robot in it covers far more than 1 % of it
MIN_INK=5760
# smallest screenshot accepted (bytes): a sanity check that the page rendered at all (the
# canvas pixels themselves are checked by the page report above it)
MIN_PNG_BYTES=40000
# the robot as meshes and two 1.8 m statues cover far more than 5 % of the 900 x 640 canvas
MIN_MESH_INK=28800
# the clearance plot (900 x 170) has axes, labels and five curves: far more than 1 % ink
MIN_PLOT_INK=1530

BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
  echo "test-browser: no chromium (run tools/browser/install-browser.sh)" >&2
  exit 1
fi

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

fail() { echo "test-browser: FAIL: $*" >&2; exit 1; }

# 1. a planned motion with its viewer
rc=0
"$HRPPLAN" plan scenarios/hand_cross.yaml -q -o "$OUT/hand_cross" > "$OUT/plan.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "hrpplan plan exited $rc (see $OUT/plan.log)"
VIEW="$OUT/hand_cross/view.html"
[ -s "$VIEW" ] || fail "no $VIEW"

# headless Chromium, off the network, with a fresh profile each run; WebGL through ANGLE
# on SwiftShader (--enable-unsafe-swiftshader: the software fallback is opt-in since
# Chromium 137); console messages of the page go to stderr ("INFO:CONSOLE...")
browse() {
  local profile
  profile=$(mktemp -d "$SCRATCH/profile.XXXXXX")
  timeout 120 "$BROWSER" --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader \
    --enable-logging=stderr --v=0 --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
    --window-size=$WIDTH,$HEIGHT "$@" 2> "$SCRATCH/browser.err"
  if grep -q ':CONSOLE' "$SCRATCH/browser.err"; then
    grep ':CONSOLE' "$SCRATCH/browser.err" | head -5 >&2
    fail "the page wrote to the console ($*)"
  fi
}

# 2. the page drives its own slider and measures its canvas
selftest() {
  browse --dump-dom "file://$1#selftest" > "$SCRATCH/dom.html" || fail "chromium --dump-dom failed: $(tail -3 "$SCRATCH/browser.err")"
  REPORT=$(sed -n 's:.*<pre id="selftest">\([^<]*\)</pre>.*:\1:p' "$SCRATCH/dom.html")
  [ -n "$REPORT" ] || fail "the page $1 wrote no self-test report (script error?)"
  echo "test-browser: page report $REPORT"
  case "$REPORT" in
    *'"webgl":true'*) ;;
    *) fail "the page $1 got no WebGL context" ;;
  esac
}
# 5. frames per second: the page renders back to back for 2 s
bench() {
  browse --dump-dom "file://$1#bench" > "$SCRATCH/dom.html" || fail "chromium --dump-dom failed: $(tail -3 "$SCRATCH/browser.err")"
  REPORT=$(sed -n 's:.*<pre id="bench">\([^<]*\)</pre>.*:\1:p' "$SCRATCH/dom.html")
  [ -n "$REPORT" ] || fail "the page $1 wrote no bench report"
  read -r -a N <<< "$(field frames)"
  [ "${N[0]:-0}" -gt 0 ] || fail "the page $1 drew no frame in its bench"
  echo "test-browser: bench $2: $(field fps | tr -d ' ') frames/s ($(field frames) frames in $(field seconds) s, $(field triangles) triangles a frame; page $(field page_ms) ms, raster $(field raster_ms) ms a frame)"
}
field() { echo "$REPORT" | sed -n "s/.*\"$1\":\[\([0-9.,]*\)\].*/\1/p" | tr ',' ' '; }
check_frames() {
  read -r -a DRAWN <<< "$(field drawn)"
  read -r -a INK <<< "$(field ink)"
  read -r -a CHANGED <<< "$(field changed)"
  [ "${#INK[@]}" -eq 3 ] && [ "${#DRAWN[@]}" -eq 3 ] && [ "${#CHANGED[@]}" -eq 3 ] || fail "malformed report"
  for i in 0 1 2; do
    [ "${DRAWN[$i]}" -gt 0 ] || fail "frame $i drew nothing"
    [ "${INK[$i]}" -ge "$MIN_INK" ] || fail "frame $i is blank: ${INK[$i]} pixels of ink < $MIN_INK"
  done
  [ "${CHANGED[1]}" -gt 0 ] && [ "${CHANGED[2]}" -gt 0 ] || fail "moving the slider changed no pixel"
  read -r -a PLOT <<< "$(field plot_ink)"
  [ "${PLOT[0]:-0}" -ge "$MIN_PLOT_INK" ] || fail "the clearance plot is blank: ${PLOT[0]:-0} pixels of ink < $MIN_PLOT_INK"
  # the mouse: turning, panning and zooming each change the picture
  read -r -a MOUSE <<< "$(field mouse_changed)"
  [ "${#MOUSE[@]}" -eq 3 ] || fail "malformed mouse report"
  [ "${MOUSE[0]}" -gt 0 ] || fail "dragging did not turn the view"
  [ "${MOUSE[1]}" -gt 0 ] || fail "right-dragging did not pan the view"
  [ "${MOUSE[2]}" -gt 0 ] || fail "the wheel did not zoom"
  # a click in the middle of the plot seeks to the middle of the motion (within 2 %)
  read -r -a SEEK <<< "$(field plot_seek_ms)"
  [ "${#SEEK[@]}" -eq 2 ] || fail "malformed plot report"
  local d=$(( SEEK[0] - SEEK[1] ))
  [ "${d#-}" -le $(( SEEK[1] / 25 + 1 )) ] || fail "a click on the plot's middle went to ${SEEK[0]} ms, not ${SEEK[1]} ms"
}
selftest "$VIEW"
check_frames

# 3. screenshots of the first and the middle frame
read -r -a FR <<< "$(field frames)"
MIDDLE=${FR[1]}
shot() {
  browse --screenshot="$2" "file://$VIEW#frame=$1" > /dev/null || fail "chromium --screenshot failed"
  [ -s "$2" ] || fail "no screenshot $2"
  # PNG signature, then the IHDR width and height (big-endian at bytes 16..23)
  [ "$(head -c 8 "$2" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$2 is not a PNG"
  read -r -a B <<< "$(od -An -tu1 -j16 -N8 "$2")"
  local w=$(( (B[0] << 24) | (B[1] << 16) | (B[2] << 8) | B[3] ))
  local h=$(( (B[4] << 24) | (B[5] << 16) | (B[6] << 8) | B[7] ))
  [ "$w" -eq "$WIDTH" ] && [ "$h" -eq "$HEIGHT" ] || fail "$2 is ${w}x${h}, not ${WIDTH}x${HEIGHT}"
  local size
  size=$(stat -c %s "$2")
  [ "$size" -ge "$MIN_PNG_BYTES" ] || fail "$2 looks blank ($size bytes)"
  echo "test-browser: $2: ${w}x${h}, $size bytes"
}
shot 0 "$OUT/view_start.png"
shot "$MIDDLE" "$OUT/view.png"
cmp -s "$OUT/view_start.png" "$OUT/view.png" && fail "the screenshots of frames 0 and $MIDDLE are identical"

# 4. meshes: link meshes and two statues, drawn as flat-shaded triangles
if [ -n "$MESH_VIEW" ]; then
  mkdir -p "$OUT/meshes"
  MVIEW="$OUT/meshes/view.html"
  "$MESH_VIEW" "$MVIEW" || fail "$MESH_VIEW failed"
  selftest "$MVIEW"
  check_frames
  read -r -a TRIS <<< "$(field triangles)"
  read -r -a MESHPX <<< "$(field mesh_pixels)"
  [ "${#TRIS[@]}" -eq 3 ] && [ "${#MESHPX[@]}" -eq 1 ] || fail "malformed mesh report"
  for i in 0 1 2; do
    [ "${TRIS[$i]}" -gt 0 ] || fail "mesh frame $i drew no triangle"
  done
  [ "${MESHPX[0]}" -ge "$MIN_MESH_INK" ] || fail "the meshes cover ${MESHPX[0]} pixels < $MIN_MESH_INK"
  echo "test-browser: meshes: ${TRIS[0]} triangles drawn, ${MESHPX[0]} pixels"
  VIEW="$MVIEW"
  shot 0 "$OUT/view_meshes.png"
fi

# 5. frames per second
bench "$OUT/hand_cross/view.html" hand_cross
[ -z "$MESH_VIEW" ] || bench "$OUT/meshes/view.html" meshes
echo "test-browser: ok (screenshots in $OUT)"
