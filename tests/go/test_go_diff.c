/*
 * test_go_diff.c - the differential test against Go's encoding/json.
 *
 * TAGC_GO_DIFF_DATA names the records written by gen/main.go (Meson sets it;
 * without Go the test is not built). Each test checks one aspect of every
 * record and fails on any mismatch; the log lists the first examples of each
 * kind with the input, Go's output and tagc's. TAGC_GO_DIFF_TYPE=pkg.Name
 * restricts a run to one type, TAGC_GO_DIFF_TRACE=1 prints every record first
 * (to find the input of a crash).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "driver.h"

static void run(unsigned checks, const char *what)
{
    const char *path = getenv("TAGC_GO_DIFF_DATA");
    if (path == NULL || *path == '\0')
        cr_skip_test("TAGC_GO_DIFF_DATA is not set");
    diff_summary sum;
    /* The tests run in parallel: each writes its log in one piece. */
    char *log = NULL;
    size_t log_len = 0;
    FILE *m = open_memstream(&log, &log_len);
    cr_assert_not_null(m);
    int rc = diff_run(path, checks, what, &sum, m);
    fclose(m);
    fwrite(log, 1, log_len, stderr);
    free(log);
    cr_assert_eq(rc, 0, "cannot read the records at %s", path);
    cr_assert_gt(sum.records, 0, "no records checked");
    cr_expect_eq(sum.unknown_types, 0, "%zu records of types missing from the registry",
                 sum.unknown_types);
    cr_expect_eq(sum.failures, 0, "%s: %zu mismatches with Go in %zu documents (see the log)", what,
                 sum.failures, sum.records);
}

Test(go_diff, values, .timeout = 120)
{
    run(DIFF_CHECK_VALUES, "random values: decode, re-encode, compare with json.Marshal");
}

Test(go_diff, verdicts, .timeout = 120)
{
    run(DIFF_CHECK_VERDICTS, "mutated documents: accept/reject as json.Unmarshal");
}

Test(go_diff, mutated_output, .timeout = 120)
{
    run(DIFF_CHECK_MUTATED, "mutated documents accepted by both: re-encode as json.Marshal");
}

Test(go_diff, indent, .timeout = 120)
{
    run(DIFF_CHECK_INDENT, "pretty-printing as json.MarshalIndent");
}

Test(go_diff, no_html_escape, .timeout = 120)
{
    run(DIFF_CHECK_NOHTML, "no_html_escape as Encoder.SetEscapeHTML(false)");
}

Test(go_diff, equal, .timeout = 120)
{
    run(DIFF_CHECK_EQUAL, "_equal, and decode(encode(v)) reaches a fixed point");
}
