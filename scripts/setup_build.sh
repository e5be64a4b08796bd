# Sourced by scripts/test.sh and scripts/cross.sh. Users build
# without -Werror (a warning that only another compiler or target finds must not
# stop their build); CI builds with it. setup_build DIR ARGS makes the build
# folder DIR, or reconfigures an existing one (./run demo's, say), with werror.
setup_build() {
    dir=$1
    shift
    if [ -d "$dir" ]; then
        meson configure "$dir" -Dwerror=true "$@"
    else
        meson setup "$dir" -Dwerror=true "$@"
    fi
}
