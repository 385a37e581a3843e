#!/usr/bin/env bash
# Puts Node 24 first on PATH. Source it: `source scripts/node24.sh`.
# When the machine's Node is older than 24, installs node@24 from the npm registry into a cache folder
# (TAMBARI_NODE_CACHE, default ~/.cache/tambari-node) once, and reuses it afterwards.
tambari_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(tambari_node_major)" -lt 24 ]; then
  TAMBARI_NODE_CACHE="${TAMBARI_NODE_CACHE:-$HOME/.cache/tambari-node}"
  if [ ! -x "$TAMBARI_NODE_CACHE/node_modules/.bin/node" ]; then
    echo "Installing Node 24 into $TAMBARI_NODE_CACHE (one time)…" >&2
    mkdir -p "$TAMBARI_NODE_CACHE"
    npm install --prefix "$TAMBARI_NODE_CACHE" --no-audit --no-fund --loglevel=error node@24 >&2 || return 1 2>/dev/null || exit 1
  fi
  export PATH="$TAMBARI_NODE_CACHE/node_modules/.bin:$PATH"
fi
if [ "$(tambari_node_major)" -lt 24 ]; then
  echo "Node 24 is required; found $(node --version 2>/dev/null || echo none)." >&2
  return 1 2>/dev/null || exit 1
fi
