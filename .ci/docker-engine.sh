#!/usr/bin/env bash
# Makes a Docker engine reachable for the container test: Debian's docker.io, dockerd started as root
# (no registry is needed: the broker image is built FROM scratch). Without root or apt, it says so
# and leaves the container test to report itself not applicable.
set -euo pipefail
if docker version >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "no Docker engine, and not root: the container test will be not applicable" >&2
  exit 0
fi
if ! command -v dockerd >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi
nohup dockerd >/tmp/dockerd.log 2>&1 &
dockerd_pid=$!
for _ in $(seq 1 60); do
  if docker version >/dev/null 2>&1; then exit 0; fi
  # A dockerd that exited will not come up: no need to wait out the minute.
  if ! kill -0 "$dockerd_pid" 2>/dev/null; then break; fi
  sleep 1
done
echo "dockerd did not come up; see /tmp/dockerd.log. The container test will be not applicable" >&2
