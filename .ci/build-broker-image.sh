#!/usr/bin/env bash
# Builds an image of the reference broker FROM scratch: no registry is needed. The node binary and
# the shared libraries ldd names are copied in, with the compiled broker and node_modules (links followed).
# The image is labelled with a hash of its sources; an image with the same hash is not rebuilt.
# Usage: .ci/build-broker-image.sh [IMAGE]   (default lomi-reference-broker:local)
set -euo pipefail
cd "$(dirname "$0")/.."
image="${1:-lomi-reference-broker:local}"
hash="$(node --import tsx harness/adapters/image-source-hash.ts)"
if [ "$(docker image inspect --format '{{index .Config.Labels "lomi.source-hash"}}' "$image" 2>/dev/null || true)" = "$hash" ]; then
  echo "$image is up to date"
  exit 0
fi
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
root="$ctx/rootfs"
mkdir -p "$root/usr/local/bin" "$root/tmp" "$root/lomi-store" "$root/app"
node_bin="$(command -v node)"
cp -L "$node_bin" "$root/usr/local/bin/node"
# node's libraries, and those of the native addons it loads (better-sqlite3).
for object in "$node_bin" $(find -L node_modules -name '*.node' -type f); do
  for lib in $(ldd "$object" | grep -o '/[^ ]*' | sort -u); do
    cp -L --parents "$lib" "$root"
  done
done
# The broker runs compiled: dist/ is brought up to date, and the image gets the broker's part of it and
# no TypeScript, so bin/lomi-broker.js runs dist/ (bin/compiled.js) and never transpiles at a start.
node --input-type=module -e 'const { buildIsFresh } = await import("./bin/compiled.js"); process.exit(buildIsFresh() ? 0 : 1)' || node scripts/build.mjs
mkdir -p "$root/app/dist"
cp -rL package.json package-lock.json bin fixtures node_modules "$root/app/"
cp -rL dist/built-at dist/bundle dist/protocol dist/reference-broker dist/simulator "$root/app/dist/"
cat > "$ctx/Dockerfile" <<DOCKERFILE
FROM scratch
COPY rootfs/ /
WORKDIR /app
LABEL lomi.source-hash="$hash"
ENV PATH=/usr/local/bin LOMI_STORE_PATH=/lomi-store/receipts.sqlite
# The harness sets LOMI_NATIVE_URL, LOMI_STORE_PATH, LOMI_SEED and LOMI_MCP_PORT (docs/implementers.md).
ENTRYPOINT ["/usr/local/bin/node", "/app/bin/lomi-broker.js", "--transport", "http"]
DOCKERFILE
DOCKER_BUILDKIT=0 docker build --quiet --tag "$image" "$ctx" >/dev/null
# The image this one replaced is left untagged: remove such leftovers of earlier builds.
docker image prune --force --filter "label=lomi.source-hash" >/dev/null
echo "built $image"
