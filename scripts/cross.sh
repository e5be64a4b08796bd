#!/bin/sh
# Cross builds, called by scripts/test.sh after the native build
# (build/) has run its tests. With Debian's cross compilers (scripts/cross/*.ini)
# and werror, as CI builds everything:
#
#   aarch64, s390x (big-endian), under qemu-user:
#     the whole project built; the cross-built tagc (under qemu, through
#     Meson's exe_wrapper) regenerates generated/, compared byte for byte with
#     the committed files; each workload document through the generated
#     JSON and MessagePack codecs (examples/demo/roundtrip), the outputs
#     compared byte for byte with the native build's and with Go's. No
#     Criterion there (not packaged for s390x; emulated, the suite would take
#     most of CI's time).
#   i386 (run natively; where the kernel runs no 32-bit programs, as aarch64 under qemu):
#     without SSE2 (i686, x87 floating point): the runtime's plain C paths,
#       the whole test suite but json_schema_workloads (Python's validator
#       over tagc's schema output: no target code in it) and the *_plain tests
#       (the same sources against a libtagc without SIMD: this build has none);
#     with SSE2 (-msse2 -mfpmath=sse): the SSE2 string scanning, the suites
#       that decode and encode (runtime, roundtrip, conformance, go, errors,
#       msgpack, stream) and golden; not runtime/numbers and numbers_plain (50-75 s;
#       no SSE2 string code in them, and SSE floating point is x86-64's, tested there),
#       nor realworld (in the msgpack suite too: the x87 run has it, and it is 40 % of
#       this run's test time with no string code of its own).
#
#   float_vectors (tests/runtime/float_vectors.c, no Criterion): float formatting
#   and parsing against Go's vectors (the native build's numbers_ref.txt) and
#   random round trips, on aarch64 and s390x under qemu and on i386 with SSE2
#   (x87's i386 build runs test_numbers itself).
#
# CROSS_TARGETS (default "aarch64 s390x i686 i686-sse2") picks some.
set -eu
cd "$(dirname "$0")/.."

targets=${CROSS_TARGETS:-aarch64 s390x i686 i686-sse2}
workloads="user:seedwork/user.json order:seedwork/order.json tree:seedwork/tree.json
           twitter:bench/twitter.json canada:bench/canada.json"

# i386 Criterion: libcriterion3:i386 cannot be installed beside the amd64 one
# (libnanomsg5 is not Multi-Arch: same; installing one removes the other), so
# its three packages are unpacked into build-i686-deps/ (downloaded once, by
# apt from dpkg's i386 architecture, which scripts/setup.sh adds), with a
# criterion.pc of our own, and a machine file pointing pkg-config at it. The
# tests find the two libraries through LD_LIBRARY_PATH (i386_libs): an rpath
# (RUNPATH) would not serve libcriterion's own dependency, libnanomsg. Criterion's other i386 dependencies are installed normally.
deps=$PWD/build-i686-deps
# The i386 suites run with address randomisation off (setarch -R, inherited by
# every process they start). Criterion's workers (BoxFort) are exec'd copies of
# the test program that map the runner's shared arena at the runner's address
# with MAP_FIXED; on 32 bits that address is drawn from 0x40000000-0x80000000,
# where a PIE executable and its heap lie (0x565xxxxx), placed afresh in each
# worker by ASLR. Now and then the arena landed on a worker's own code or heap
# and the worker died before its test ran ("crashed during its setup or
# teardown": two full runs; 300 runs of a 40-test i386 Criterion
# program: 3 such crashes, 96 arena maps over the worker's code or heap; under
# setarch -R: none). Without randomisation a worker starts with the runner's
# layout, which the runner checked the arena's pages against. A host that
# forbids it runs them as is (and says so).
norand="setarch -R"
if ! setarch -R true 2>/dev/null; then
    echo "cross.sh: setarch -R is not permitted here: the i386 suites run with ASLR on" >&2
    norand=
fi
i386_libs=$deps/root/usr/lib/i386-linux-gnu
i386_criterion() {
    if [ ! -f "$deps/i386-deps.ini" ]; then
        rm -rf "$deps"
        mkdir -p "$deps/debs"
        (cd "$deps/debs" && apt-get download -q libcriterion3:i386 libcriterion-dev:i386 libnanomsg5:i386)
        for d in "$deps"/debs/*.deb; do
            dpkg-deb -x "$d" "$deps/root"
        done
        lib=$deps/root/usr/lib/i386-linux-gnu
        mkdir -p "$deps/pkgconfig"
        cat > "$deps/pkgconfig/criterion.pc" <<PC
Name: criterion
Description: Criterion 2.4.1 for i386, unpacked by scripts/cross.sh
Version: 2.4.1
Libs: -L$lib -lcriterion -Wl,-rpath-link,$lib
Cflags: -I$deps/root/usr/include
PC
        cat > "$deps/i386-deps.ini" <<INI
[properties]
pkg_config_libdir = ['$deps/pkgconfig', '/usr/lib/i386-linux-gnu/pkgconfig', '/usr/share/pkgconfig']
INI
    fi
}

# i386 programs run natively where the kernel runs 32-bit programs (IA32
# emulation). A kernel built without it ("Exec format error", seen on a
# Firecracker VM) cannot run the i386 Criterion suites: their workers
# (BoxFort) do not start under qemu-user either ("Could not spawn test
# instance"). There the i386 targets get what aarch64 and s390x get, under
# qemu-i386 (i386_emulated below), and the script says so. Probed once.
i386_native=""
i386_native() {
    if [ -z "$i386_native" ]; then
        mkdir -p "$deps"
        printf 'int main(void) { return 0; }\n' >"$deps/exec.c"
        i686-linux-gnu-gcc "$deps/exec.c" -o "$deps/exec"
        if "$deps/exec" 2>/dev/null; then i386_native=yes; else i386_native=no; fi
    fi
    [ "$i386_native" = yes ]
}

# setup_cross DIR "CROSS-FILE ARGS" OPTIONS...: setup_build for a cross build
# (an existing folder keeps its machine files: meson configure takes none)
setup_cross() {
    dir=$1 machine=$2
    shift 2
    if [ -d "$dir" ]; then
        meson configure "$dir" -Dwerror=true "$@"
    else
        # shellcheck disable=SC2086 # machine: several words on purpose
        meson setup "$dir" $machine -Dwerror=true "$@"
    fi
}

# roundtrip_all RUNNER... OUTDIR: every workload through examples/demo/roundtrip
roundtrip_all() {
    out=$1
    shift
    mkdir -p "$out"
    for w in $workloads; do
        "$@" "${w%%:*}" "build/data/${w#*:}" "$out/${w%%:*}"
    done
}

# float_vectors CC OUT RUNNER...: tests/runtime/float_vectors.c built with CC
# (words: the compiler and its flags) over the number code, run by RUNNER
numbers_ref=build/tests/runtime/numbers_ref_go1.27.txt # Go 1.27: no float32 quirk (docs/profiles.md)
float_vectors() {
    cc=$1 out=$2
    shift 2
    if [ ! -f "$numbers_ref" ]; then
        echo "-- float_vectors skipped: no $numbers_ref (Go not found by the native build)"
        return 0
    fi
    echo "-- float_vectors: float formatting and parsing against Go's vectors"
    # shellcheck disable=SC2086 # cc: the compiler and its flags
    $cc -O2 -std=c11 -Wall -Wextra -Werror -Iruntime runtime/num_write.c runtime/num_read.c \
        runtime/num_tables.c runtime/buf.c runtime/error.c tests/runtime/float_vectors.c -o "$out" -lm
    "$@" "$out" "$numbers_ref" 100000
}

# The native build's outputs are the reference; they are Go's (when Go made
# references: tests/roundtrip's, built by the native test run).
ref=build/cross-ref
# build/data: the native build's documents (data/meson.build)
ninja ${NINJAFLAGS:-} -C build examples/demo/roundtrip data/documents.txt >/dev/null
roundtrip_all "$ref" build/examples/demo/roundtrip
for w in $workloads; do
    n=${w%%:*}
    if [ -f "build/tests/roundtrip/$n.go.json" ]; then
        cmp "$ref/$n.json" "build/tests/roundtrip/$n.go.json"
        cmp "$ref/$n.indent.json" "build/tests/roundtrip/$n.go.indent.json"
    fi
done

# emulated_checks DIR CC RUNNER...: DIR's tagc wrote generated/ byte for byte
# as committed, DIR's codecs give the native (and Go's) bytes on every
# workload, and the number code built by CC (the cross compiler and its flags)
# agrees with Go's vectors, each program run by RUNNER (qemu).
emulated_checks() {
    dir=$1 cc_vec=$2
    shift 2
    echo "-- generated/ as the $t tagc writes it: the committed files, byte for byte"
    for f in generated/*.tagc.h generated/*.tagc.c; do
        cmp "$f" "$dir/generated/${f#generated/}"
    done
    echo "-- the workloads through the $t codecs: the native (and Go's) bytes"
    rm -rf "$dir/roundtrip"
    roundtrip_all "$dir/roundtrip" "$@" "$dir/examples/demo/roundtrip"
    for f in "$ref"/*; do
        cmp "$f" "$dir/roundtrip/${f#"$ref"/}"
    done
    float_vectors "$cc_vec" "$dir/float_vectors" "$@"
}

# i386_emulated DIR CC OPTIONS...: an i386 build (tests off: no Criterion) and
# emulated_checks under qemu-i386, for a kernel that runs no i386 programs
i386_emulated() {
    dir=$1 cc_i386=$2
    shift 2
    echo "cross.sh: this kernel runs no i386 programs: $t is checked under qemu-i386" \
        "(generated code, round trips, float vectors), not by its Criterion suites" >&2
    setup_cross "$dir" "--cross-file scripts/cross/i686.ini --cross-file scripts/cross/i686-qemu.ini" \
        -Dtests=false "$@" >/dev/null
    ninja ${NINJAFLAGS:-} -C "$dir"
    emulated_checks "$dir" "$cc_i386" qemu-i386
}

for t in $targets; do
    start=$(date +%s)
    case $t in
    aarch64 | s390x)
        echo "== cross build for $t, run under qemu-$t"
        dir=build-$t
        setup_cross "$dir" "--cross-file scripts/cross/$t.ini" -Dtests=false >/dev/null
        ninja ${NINJAFLAGS:-} -C "$dir"
        emulated_checks "$dir" "$t-linux-gnu-gcc" env QEMU_LD_PREFIX="/usr/$t-linux-gnu" "qemu-$t"
        ;;
    i686)
        echo "== i386 without SSE2 (x87): the test suite"
        if i686-linux-gnu-gcc -dM -E - </dev/null | grep -q __SSE2__; then
            echo "i686-linux-gnu-gcc targets SSE2 by default: the plain C path is not tested" >&2
            exit 1
        fi
        if ! i386_native; then
            i386_emulated build-i686 i686-linux-gnu-gcc
        else
            i386_criterion
            setup_cross build-i686 \
                "--cross-file scripts/cross/i686.ini --cross-file build-i686-deps/i386-deps.ini" >/dev/null
            ninja ${NINJAFLAGS:-} -C build-i686
            LD_LIBRARY_PATH=$i386_libs $norand meson test -C build-i686 --print-errorlogs \
                $(meson test -C build-i686 --list 2>/dev/null | sed -n 's|^.* / ||p' | grep -vxE 'json_schema_workloads|.*_plain')
        fi
        ;;
    i686-sse2)
        echo "== i386 with SSE2: the suites that decode and encode"
        if ! i386_native; then
            i386_emulated build-i686-sse2 "i686-linux-gnu-gcc -msse2 -mfpmath=sse" -Dc_args='-msse2 -mfpmath=sse'
        else
            i386_criterion
            setup_cross build-i686-sse2 \
                "--cross-file scripts/cross/i686.ini --cross-file build-i686-deps/i386-deps.ini" \
                -Dc_args='-msse2 -mfpmath=sse' >/dev/null
            ninja ${NINJAFLAGS:-} -C build-i686-sse2
            LD_LIBRARY_PATH=$i386_libs $norand meson test -C build-i686-sse2 --print-errorlogs golden \
                $(meson test -C build-i686-sse2 --list --suite runtime --suite roundtrip --suite conformance \
                      --suite go --suite errors --suite msgpack --suite stream 2>/dev/null |
                  sed -n 's|^.* / ||p' | grep -vxE 'numbers(_plain)?(_go.*)?|realworld')
            float_vectors "i686-linux-gnu-gcc -msse2 -mfpmath=sse" build-i686-sse2/float_vectors env
        fi
        ;;
    *)
        echo "cross.sh: unknown target $t" >&2
        exit 2
        ;;
    esac
    echo "-- $t: $(($(date +%s) - start)) s"
done
