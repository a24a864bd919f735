#!/usr/bin/env bash
# Installs what building and running mpi-lcs needs: an MPI library with its compiler wrapper
# and headers (for the `mpi` crate and `mpirun`), and libclang (for the crate's bindings).
# Idempotent: it does nothing when both are present. As root with apt-get it installs Debian's
# packages itself; otherwise it prints what to install and exits non-zero.
set -euo pipefail

have_mpi() {
    command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1
}

# The development library (libclang.so, not only the runtime libclang.so.1): the build
# loads it to read the MPI headers.
have_libclang() {
    local candidate
    for candidate in "${LIBCLANG_PATH:-/nonexistent}"/libclang*.so \
        /usr/lib/llvm-*/lib/libclang*.so /usr/lib/*-linux-gnu/libclang*.so \
        /usr/lib64/libclang*.so /usr/lib64/llvm*/lib/libclang*.so \
        /opt/homebrew/opt/llvm/lib/libclang.dylib /usr/local/opt/llvm/lib/libclang.dylib; do
        [ -e "$candidate" ] && return 0
    done
    return 1
}

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust from your package manager or rustup first." >&2
    exit 1
fi

if have_mpi && have_libclang; then
    exit 0
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Open MPI and libclang (libopenmpi-dev openmpi-bin libclang-dev)..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq libopenmpi-dev openmpi-bin libclang-dev >/dev/null
    if have_mpi && have_libclang; then
        echo "setup: done."
        exit 0
    fi
    echo "setup: the packages were installed but mpicc, mpirun or libclang is still missing." >&2
    exit 1
fi

missing=""
have_mpi || missing="an MPI library with mpicc and mpirun"
have_libclang || missing="${missing:+$missing and }libclang"
cat >&2 <<MSG
setup: $missing not found. Install them, then run this again:
  Debian/Ubuntu:  sudo apt-get install libopenmpi-dev openmpi-bin libclang-dev
  Fedora:         sudo dnf install openmpi-devel clang-devel && module load mpi/openmpi-x86_64
  macOS Homebrew: brew install open-mpi llvm  (and export LIBCLANG_PATH=\$(brew --prefix llvm)/lib)
  Spack:          spack install openmpi llvm && spack load openmpi llvm
MSG
exit 1
