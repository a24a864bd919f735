#!/usr/bin/env bash
# Installs what building, running and testing mpi-lcs needs: an MPI library with its compiler
# wrapper and headers (for the `mpi` crate and `mpirun`), libclang (for the crate's bindings),
# Chromium (the tests drive the classroom page in it, headless), an OpenCL loader with PoCL's
# CPU device (the GPU kernels' tests run through it where no GPU is), and Python's pip and venv
# (the NVRTC test installs NVIDIA's compiler from its wheel; the Python package's tests install
# it with pip, and users into a virtual environment); with --lint, shellcheck as well (`make lint` checks the shell scripts with it; nothing else needs it).
# Idempotent: it does nothing when all are present. As root with apt-get it installs Debian's
# packages itself; otherwise it prints what to install and exits non-zero.
#
#   scripts/setup.sh           the system's MPI, whichever family: mpicc and mpirun (or mpiexec);
#                              Open MPI is installed only when there is none
#   scripts/setup.sh mpich     MPICH beside any other MPI: $MPICC (default mpicc.mpich) and
#                              $MPI_LCS_LAUNCHER_CMD (default mpiexec.mpich); Debian's mpich
#   scripts/setup.sh openmpi   Open MPI beside any other MPI: mpicc.openmpi and mpirun.openmpi
#   scripts/setup.sh --lint [FAMILY]   the same, and shellcheck (`make lint`)
# Installing one family beside the other leaves the system's default (Debian's alternatives for
# mpicc and mpirun) as it was.
set -euo pipefail

lint=0
if [ "${1:-}" = --lint ]; then
    lint=1
    shift
fi
family="${1:-}"
case "$family" in
    "")
        mpi_packages=(libopenmpi-dev openmpi-bin)
        mpi_name="an MPI library with mpicc and mpirun"
        ;;
    mpich)
        mpicc_cmd="${MPICC:-mpicc.mpich}"
        launcher_cmd="${MPI_LCS_LAUNCHER_CMD:-mpiexec.mpich}"
        mpi_packages=(mpich libmpich-dev)
        mpi_name="MPICH ($mpicc_cmd and $launcher_cmd)"
        ;;
    openmpi)
        mpicc_cmd="${MPICC:-mpicc.openmpi}"
        launcher_cmd="${MPI_LCS_LAUNCHER_CMD:-mpirun.openmpi}"
        mpi_packages=(libopenmpi-dev openmpi-bin)
        mpi_name="Open MPI ($mpicc_cmd and $launcher_cmd)"
        ;;
    *)
        echo "setup: unknown MPI family '$family' (mpich, openmpi, or none for the system's MPI;" \
            "--lint first to add shellcheck)" >&2
        exit 2
        ;;
esac

have_mpi() {
    if [ -z "$family" ]; then
        command -v mpicc >/dev/null 2>&1 &&
            { command -v mpirun >/dev/null 2>&1 || command -v mpiexec >/dev/null 2>&1; }
    else
        # The launcher's first word: it may carry options of its own.
        command -v "$mpicc_cmd" >/dev/null 2>&1 && command -v "${launcher_cmd%% *}" >/dev/null 2>&1
    fi
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

# An OpenCL loader and at least one installable client driver: PoCL runs the GPU kernels on
# the CPU, so their tests run on every machine (docs/gpu.md).
have_opencl() {
    local loader=0 icd
    for icd in /usr/lib/*-linux-gnu/libOpenCL.so.1 /usr/lib64/libOpenCL.so.1 /usr/lib/libOpenCL.so.1 \
        /System/Library/Frameworks/OpenCL.framework; do
        [ -e "$icd" ] && loader=1
    done
    [ "$loader" = 1 ] || return 1
    for icd in "${OCL_ICD_VENDORS:-/etc/OpenCL/vendors}"/*.icd /System/Library/Frameworks/OpenCL.framework; do
        [ -e "$icd" ] && return 0
    done
    return 1
}

# Python's pip: the NVRTC test installs NVIDIA's compiler from its wheel into its own folder,
# and compiles the kernels for CUDA with it (no GPU needed); scripts/python-test builds and
# installs the Python package with it. And venv with ensurepip (Debian's python3-venv): the
# README installs the package into a virtual environment.
have_pip() {
    python3 -m pip --version >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' >/dev/null 2>&1
}

# The shell scripts' checker, when asked for (--lint).
have_shellcheck() {
    [ "$lint" = 0 ] || command -v shellcheck >/dev/null 2>&1
}

have_all() {
    have_mpi && have_libclang && have_chromium && have_opencl && have_pip && have_shellcheck
}

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found; install Rust from your package manager or rustup first." >&2
    exit 1
fi

if have_all; then
    exit 0
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    packages=()
    have_mpi || packages+=("${mpi_packages[@]}")
    have_libclang || packages+=(libclang-dev)
    have_chromium || packages+=(chromium)
    have_opencl || packages+=(ocl-icd-libopencl1 pocl-opencl-icd)
    have_pip || packages+=(python3-pip python3-venv)
    have_shellcheck || packages+=(shellcheck)
    echo "setup: installing ${packages[*]}..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${packages[@]}" >/dev/null
    if have_all; then
        echo "setup: done."
        exit 0
    fi
    others="libclang, chromium, OpenCL or pip"
    [ "$lint" = 0 ] || others="libclang, chromium, OpenCL, pip or shellcheck"
    echo "setup: the packages were installed but $mpi_name, $others is still missing." >&2
    exit 1
fi

# Other systems' names for the family asked for (Open MPI when none was).
if [ "$family" = mpich ]; then
    fedora=mpich brew=mpich spack=mpich
else
    fedora=openmpi brew=open-mpi spack=openmpi
fi
missing=""
have_mpi || missing="$mpi_name"
have_libclang || missing="${missing:+$missing, }libclang"
have_chromium || missing="${missing:+$missing, }Chromium (for the tests)"
have_opencl || missing="${missing:+$missing, }an OpenCL loader with PoCL (for the GPU tests)"
have_pip || missing="${missing:+$missing, }Python's pip and venv (for the Python package)"
have_shellcheck || missing="${missing:+$missing, }shellcheck (for make lint)"
# The checker's package on each system, when --lint asks for it.
deb_lint="" fedora_lint="" brew_lint="" spack_lint=""
if [ "$lint" = 1 ]; then
    deb_lint=" shellcheck" fedora_lint=" ShellCheck" brew_lint=" shellcheck"
    spack_lint=" and shellcheck"
fi
cat >&2 <<MSG
setup: $missing not found. Install them, then run this again:
  Debian/Ubuntu:  sudo apt-get install ${mpi_packages[*]} libclang-dev chromium ocl-icd-libopencl1 pocl-opencl-icd python3-pip python3-venv$deb_lint
  Fedora:         sudo dnf install $fedora-devel clang-devel chromium ocl-icd pocl python3-pip$fedora_lint && module load mpi/$fedora-x86_64
  macOS Homebrew: brew install $brew llvm$brew_lint && brew install --cask chromium
                  (and export LIBCLANG_PATH=\$(brew --prefix llvm)/lib)
  Spack:          spack install $spack llvm && spack load $spack llvm (Chromium$spack_lint from the system)
A Chromium elsewhere: export MPI_LCS_TEST_CHROMIUM=/path/to/chrome
MPICH under other names: make test MPI=mpich MPICC=mpicc MPI_LCS_LAUNCHER_CMD=mpiexec
MSG
exit 1
