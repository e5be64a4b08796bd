/*
 * go_diff_main.c - the differential test as a command, for debugging:
 *   go_diff DATA [CHECKS]   CHECKS is a mask of DIFF_CHECK_* (default: all)
 * Exit status 0 when everything agrees with Go, 1 on mismatches, 2 on bad input.
 */
#include <stdlib.h>

#include "driver.h"

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: go_diff DATA [CHECKS]\n");
        return 2;
    }
    unsigned checks = argc == 3 ? (unsigned)strtoul(argv[2], NULL, 0) : DIFF_CHECK_ALL;
    diff_summary sum;
    if (diff_run(argv[1], checks, "all checks", &sum, stdout) != 0)
        return 2;
    return sum.failures == 0 && sum.unknown_types == 0 ? 0 : 1;
}
