#!/bin/sh
# install-deps.sh [--bench] - installs what openacl needs to build and test on
# Debian 12; --bench adds the peers the benchmarks compare against (PoCL, the
# OpenCL headers bench_runtime builds its peer with, and OpenCV and ONNX
# Runtime for bench/models/run.sh; PyTorch is already in the default set).
# Idempotent: packages already present are left alone.  Run as root (or with sudo).
set -eu

# libdnnl-dev: oneDNN 2.x, the model engine's convolutions, matrix products and pooling;
# libjpeg-dev, libpng-dev: the openacl tool's image recipes.
PACKAGES="build-essential cmake pkg-config libjansson-dev clang libclang-rt-14-dev libprotobuf-c-dev protobuf-c-compiler libonnx-dev libonnx-testdata libdnnl-dev libjpeg-dev libpng-dev"
# The real-model tests (tests/models/, docs/model-tests.md) export networks
# from PyTorch: part of the default install because CI runs them.  This is
# the heavy part: about 1 GB installed with dependencies (libtorch, dnnl,
# llvm, sympy), a few minutes of download and unpacking on a fresh system.
PACKAGES="$PACKAGES python3-torch python3-torchvision python3-onnx python3-numpy python3-pil"
# The Python layer (python/, docs/python.md): headers to build the acl module
# for Debian's python3, pytest for its tests.
PACKAGES="$PACKAGES python3-dev python3-pytest"
# libhccl.so (src/hccl/, docs/distributed.md): HCCL collectives on Open MPI, and mpirun for its tests;
# mpi4py for `python3 -m openacl.infer` under mpirun (docs/python.md).
PACKAGES="$PACKAGES libopenmpi-dev openmpi-bin python3-mpi4py"
if [ "${1:-}" = "--bench" ]; then
  # nodejs, npm: ONNX Runtime's CPU build comes in the npm package onnxruntime-node (below); a Node.js
  # from NodeSource brings its own npm and conflicts with Debian's, hence npm only when there is none
  PACKAGES="$PACKAGES pocl-opencl-icd ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers python3-opencv nodejs"
  command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"
fi

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done

if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "install-deps: installing:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
else
  echo "install-deps: everything is installed"
fi

# ONNX Runtime for bench/models/run.sh: the npm package onnxruntime-node at a
# pinned version (its prebuilt CPU libonnxruntime, about 290 MB with its
# dependencies) in a directory of its own, where run.sh looks for it:
# $OPENACL_ORT_DIR, else ~/.cache/openacl/onnxruntime-node-<version> of the
# user running this script (run.sh --ort DIR names another).
# ONNXRUNTIME_NODE_INSTALL=skip: the package's install script would otherwise
# download the CUDA provider from api.nuget.org, which the CPU build does not need.
if [ "${1:-}" = "--bench" ]; then
  ORT_VERSION=1.30.0
  ORT_DIR=${OPENACL_ORT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/openacl/onnxruntime-node-$ORT_VERSION}
  if [ -f "$ORT_DIR/node_modules/onnxruntime-node/package.json" ] &&
    grep -q "\"version\": \"$ORT_VERSION\"" "$ORT_DIR/node_modules/onnxruntime-node/package.json"; then
    echo "install-deps: onnxruntime-node $ORT_VERSION is in $ORT_DIR"
  else
    echo "install-deps: installing onnxruntime-node $ORT_VERSION into $ORT_DIR"
    mkdir -p "$ORT_DIR"
    (cd "$ORT_DIR" && [ -f package.json ] || echo '{"private": true}' >"$ORT_DIR/package.json")
    ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$ORT_DIR" --no-audit --no-fund --save-exact \
      "onnxruntime-node@$ORT_VERSION"
  fi
fi
