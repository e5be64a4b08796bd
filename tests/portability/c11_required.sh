#!/bin/sh
# tagc.h under C99 stops at its #error naming C11 (not at some later, obscure
# error), and compiles cleanly as C11. Arguments: the C compiler's command;
# TAGC_RUNTIME: the folder of tagc.h.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo '#include <tagc.h>' > "$dir/use.c"
if "$@" -std=c99 -I"$TAGC_RUNTIME" -fsyntax-only "$dir/use.c" 2>"$dir/err"; then
    echo "FAIL: tagc.h compiled as C99" >&2
    exit 1
fi
if ! grep -q "tagc needs C11" "$dir/err"; then
    echo "FAIL: the C99 compile did not stop at the C11 #error:" >&2
    cat "$dir/err" >&2
    exit 1
fi
if ! "$@" -std=c11 -Wall -Wextra -pedantic -Werror -I"$TAGC_RUNTIME" -fsyntax-only "$dir/use.c"; then
    echo "FAIL: tagc.h did not compile as C11" >&2
    exit 1
fi
echo "ok: C99 stops at the C11 #error, C11 is clean"
