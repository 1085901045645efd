#!/usr/bin/env bash
# Installs the libraries hrpplan builds against, from Debian's packages.
# Idempotent: when pkg-config already finds every library (and the Check runner's
# headers), it does nothing and says so.
set -euo pipefail

PKGS="libnlopt-dev liblapacke-dev libopenblas-dev libyaml-dev check pkg-config librsvg2-bin libmujoco-dev libxml2-dev libassimp-dev binutils libjs-three"
MODULES="nlopt lapacke yaml-0.1 check openblas libxml-2.0 assimp"
# commands the tests use: rsvg-convert renders every SVG the planner writes; readelf and nm
# (binutils) read the soname and the exported symbols of libhrpdistance.so (make install-check)
COMMANDS="rsvg-convert readelf nm"
# headers of libraries without a pkg-config file: MuJoCo, the dynamics oracle of the tests
HEADERS="/usr/include/mujoco/mujoco.h"
# files of packages without headers: three.js r111, inlined into view.html at build time
FILES="/usr/share/javascript/three/three.min.js"

have_all() {
  command -v pkg-config >/dev/null 2>&1 || return 1
  local m
  for m in $MODULES; do
    pkg-config --exists "$m" 2>/dev/null || return 1
  done
  for c in $COMMANDS; do
    command -v "$c" >/dev/null 2>&1 || return 1
  done
  for h in $HEADERS $FILES; do
    [ -f "$h" ] || return 1
  done
  return 0
}

if have_all; then
  echo "install-deps: all libraries and tools present ($MODULES $COMMANDS mujoco three.js)"
  exit 0
fi

echo "install-deps: installing Debian packages: $PKGS"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "install-deps: error: missing libraries and no root rights to install them." >&2
    echo "install-deps: run as root (or with sudo):" >&2
    echo "    apt-get update && apt-get install -y $PKGS" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $PKGS

if ! have_all; then
  echo "install-deps: error: packages installed but pkg-config still misses one of: $MODULES" >&2
  for m in $MODULES; do
    pkg-config --exists "$m" || echo "install-deps:   missing: $m" >&2
  done
  for c in $COMMANDS; do
    command -v "$c" >/dev/null 2>&1 || echo "install-deps:   missing command: $c" >&2
  done
  for h in $HEADERS $FILES; do
    [ -f "$h" ] || echo "install-deps:   missing file: $h" >&2
  done
  exit 1
fi
echo "install-deps: done"
