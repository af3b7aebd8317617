#!/usr/bin/env bash
# Build the server image, push it to your registry and roll it out:
#
#   REGISTRY=registry.example.com/games POD_CIDR=10.244.0.0/16 deploy/k8s/release.sh
#
#   REGISTRY  where the image goes: $REGISTRY/ninepool:$TAG (you are logged in to it)
#   POD_CIDR  the cluster's pod network, whose X-Forwarded-For the nodes believe (only
#             the ingress controller can reach them: networkpolicy.yaml)
#   TAG       default: the commit (git describe --always --dirty); use a new tag for
#             every build, never reuse one that a running pod may pull again
#   DRY_RUN=1 print the manifests that would be applied, build and push nothing
#
# It writes a kustomization of its own (in a temporary folder) on top of deploy/k8s,
# with the image and the pod network set, and applies it with `kubectl apply -k`.
# Needs docker (with BuildKit) and kubectl.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
: "${REGISTRY:?set REGISTRY, e.g. registry.example.com/games (the image is \$REGISTRY/ninepool)}"
: "${POD_CIDR:?set POD_CIDR to the pod network of the cluster, e.g. 10.244.0.0/16}"
TAG=${TAG:-$(git -C "$root" describe --always --dirty --tags)}
image="$REGISTRY/ninepool:$TAG"

overlay=$(mktemp -d)
trap 'rm -rf "$overlay"' EXIT
# kustomize wants the base as a path relative to the overlay.
base=$(realpath --relative-to="$overlay" "$root/deploy/k8s")
cat >"$overlay/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ninepool
resources:
  - $base
images:
  - name: ninepool
    newName: $REGISTRY/ninepool
    newTag: "$TAG"
configMapGenerator:
  - name: ninepool-network
    behavior: replace
    literals:
      - NINEPOOL_TRUSTED_PROXIES=$POD_CIDR
EOF

if [ -n "${DRY_RUN:-}" ]; then
  kubectl kustomize "$overlay"
  exit 0
fi

DOCKER_BUILDKIT=1 docker build -f "$root/deploy/Dockerfile" -t "$image" "$root"
docker push "$image"
kubectl apply -k "$overlay"
kubectl -n ninepool rollout status deployment/ninepool --timeout=15m
echo "released $image"
