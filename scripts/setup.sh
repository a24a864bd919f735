#!/usr/bin/env bash
# Installs what building, running and testing mpi-lcs needs: an MPI library with its compiler
# wrapper and headers (for the `mpi` crate and `mpirun`), libclang (for the crate's bindings),
# and Chromium (the tests drive the classroom page in it, headless).
# Idempotent: it does nothing when all are present. As root with apt-get it installs Debian's
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

# A Chromium the tests can start headless (MPI_LCS_TEST_CHROMIUM names another).
have_chromium() {
    if [ -n "${MPI_LCS_TEST_CHROMIUM:-}" ]; then
        command -v "$MPI_LCS_TEST_CHROMIUM" >/dev/null 2>&1
        return
    fi
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
        command -v google-chrome >/dev/null 2>&1
}

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust from your package manager or rustup first." >&2
    exit 1
fi

if have_mpi && have_libclang && have_chromium; then
    exit 0
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    packages=""
    have_mpi && have_libclang || packages="libopenmpi-dev openmpi-bin libclang-dev"
    have_chromium || packages="${packages:+$packages }chromium"
    echo "setup: installing $packages..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086 # one word per package
    apt-get install -y -qq $packages >/dev/null
    if have_mpi && have_libclang && have_chromium; then
        echo "setup: done."
        exit 0
    fi
    echo "setup: the packages were installed but mpicc, mpirun, libclang or chromium is still missing." >&2
    exit 1
fi

missing=""
have_mpi || missing="an MPI library with mpicc and mpirun"
have_libclang || missing="${missing:+$missing, }libclang"
have_chromium || missing="${missing:+$missing, }Chromium (for the tests)"
cat >&2 <<MSG
setup: $missing not found. Install them, then run this again:
  Debian/Ubuntu:  sudo apt-get install libopenmpi-dev openmpi-bin libclang-dev chromium
  Fedora:         sudo dnf install openmpi-devel clang-devel chromium && module load mpi/openmpi-x86_64
  macOS Homebrew: brew install open-mpi llvm && brew install --cask chromium
                  (and export LIBCLANG_PATH=\$(brew --prefix llvm)/lib)
  Spack:          spack install openmpi llvm && spack load openmpi llvm (Chromium from the system)
A Chromium elsewhere: export MPI_LCS_TEST_CHROMIUM=/path/to/chrome
MSG
exit 1
