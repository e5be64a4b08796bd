#!/bin/sh
# A/B of tagc.h's inline indent prediction in one process (docs/performance.md,
# "Ninth pass"): the generated decoders compiled twice, A with
# -DTAGC_INDENT_PREDICT=0 (symbols renamed A_*), B as the header has it, both
# against the libtagc.a of a release build. AFLAGS and BFLAGS replace A's
# flag and add to B's, for an A/B of any other tagc.h macro.
#   bench/ab/build.sh BUILD_DIR OUT_DIR && OUT_DIR/ab data 9 0.1 [workloads]
# prints each copy's median CPU time per decode for A and B and the median A/B.
set -e
B=$(cd "$1" && pwd); O=$2; R=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$O"; cd "$O"
CF="-O3 -std=c11 -I$R/runtime -I$R/generated"
for w in user order tree twitter canada; do
  gcc $CF ${AFLAGS--DTAGC_INDENT_PREDICT=0} -c "$R/generated/$w.tagc.c" -o A_$w.o
  nm --defined-only A_$w.o | awk '$2 ~ /[TDRB]/ {print $3, "A_" $3}' > A_$w.syms
  objcopy --redefine-syms=A_$w.syms A_$w.o
  gcc $CF $BFLAGS -c "$R/generated/$w.tagc.c" -o B_$w.o
done
gcc $CF -c "$R/bench/ab/ab.c" -o ab.o
gcc ab.o A_*.o B_*.o "$B/runtime/libtagc.a" -lm -o ab
