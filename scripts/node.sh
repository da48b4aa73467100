# Node >= 22 for the scripts that run npm tools (the conformance suite,
# mcp-remote), sourced by them. The caller defines ROOT, TOOLS, log and die.
# find_node sets NODE: a system node >= 22, else the official binary from the
# npm package node-linux-<arch>, installed once into $TOOLS.

NODE_VERSION=22.23.3

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

find_node() {
  local sys
  if sys=$(command -v node) && (($(node_major "$sys") >= 22)); then
    NODE=$sys
    return
  fi
  local arch
  case $(uname -m) in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no node >= 22 and no node-linux package for $(uname -m)" ;;
  esac
  local dir=$TOOLS/node-$NODE_VERSION
  NODE=$dir/node_modules/node-linux-$arch/bin/node
  if [[ ! -x $NODE ]] || (($(node_major "$NODE") < 22)); then
    command -v npm >/dev/null || die "npm is needed to install Node $NODE_VERSION"
    log "installing Node $NODE_VERSION (npm package node-linux-$arch) into ${dir#"$ROOT"/}"
    rm -rf "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-$arch@$NODE_VERSION" >&2
    [[ -x $NODE ]] || die "node-linux-$arch@$NODE_VERSION did not provide $NODE"
  fi
}
