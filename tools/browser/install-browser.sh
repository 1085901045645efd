#!/usr/bin/env bash
# Installs Debian's chromium for `make test-browser` (only that target needs it).
# Idempotent: when a chromium is on the PATH it does nothing and says so.
set -euo pipefail

PKGS="chromium"

find_browser() {
  command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null || return 1
}

if b=$(find_browser); then
  echo "install-browser: $b present"
  exit 0
fi

echo "install-browser: installing Debian package: $PKGS"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "install-browser: error: chromium is missing and there are no root rights to install it." >&2
    echo "install-browser: run as root (or with sudo):" >&2
    echo "    apt-get update && apt-get install -y --no-install-recommends $PKGS" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $PKGS

if ! b=$(find_browser); then
  echo "install-browser: error: $PKGS installed but no chromium on the PATH" >&2
  exit 1
fi
echo "install-browser: done ($b)"
