#!/usr/bin/env bash
# Installs Debian's chromium, which the browser test of conformance.html drives headless. As root
# only (apt); without it the script says so and exits 1, and .ci/run then fails, as a CI that cannot
# open the report in a real browser has not tested it.
set -euo pipefail
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "chromium is not installed and this is not root: install it (apt-get install chromium) for the browser test" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
