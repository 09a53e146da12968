#!/bin/sh
# install-deps.sh [--bench] - installs what openacl needs to build and test on
# Debian 12; --bench adds the peers the benchmarks compare against (PoCL, the
# OpenCL headers bench_runtime builds its peer with, and OpenCV for
# bench/models/run.sh; PyTorch is already in the default set).
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
if [ "${1:-}" = "--bench" ]; then
  PACKAGES="$PACKAGES pocl-opencl-icd ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers python3-opencv"
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
