#!/usr/bin/env bash
# Rebuild three.min.js, the 3D library the replay page carries (viz/html.py packs it into each
# page): three.js from the npm registry, bundled and minified by esbuild, keeping only what
# three-entry.js lists, as one classic script that defines the global THREE. Needs npm.
#
#   bash viz/web/vendor/build.sh
set -euo pipefail
THREE_VERSION=0.187.0
ESBUILD_VERSION=0.28.2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund "three@$THREE_VERSION" "esbuild@$ESBUILD_VERSION"
cp "$here/three-entry.js" .
npx esbuild three-entry.js --bundle --minify --format=iife --global-name=THREE \
  --target=es2020 --legal-comments=eof \
  --banner:js="/* three.js $THREE_VERSION (MIT licence: LICENSE beside this file), the classes of three-entry.js, bundled by esbuild $ESBUILD_VERSION (build.sh) */" \
  --outfile="$here/three.min.js"
cp node_modules/three/LICENSE "$here/LICENSE"
