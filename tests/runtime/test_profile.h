/*
 * test_profile.h - the wire profile a runtime test checks: $TAGC_GO_PROFILE
 * ("1.19", "1.26", "1.27"), which meson sets to the tagc --go profile of the
 * Go reference the test compares with; unset, the runtime's default.
 */
#ifndef TAGC_TEST_PROFILE_H
#define TAGC_TEST_PROFILE_H

#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "tagc.h"

static inline unsigned test_go_profile(void)
{
    const char *p = getenv("TAGC_GO_PROFILE");
    if (p == NULL || *p == 0)
        return TAGC_GO_DEFAULT;
    if (strcmp(p, "1.19") == 0)
        return TAGC_GO_1_19;
    if (strcmp(p, "1.26") == 0)
        return TAGC_GO_1_26;
    if (strcmp(p, "1.27") == 0)
        return TAGC_GO_1_27;
    cr_assert_fail("TAGC_GO_PROFILE=%s: not a profile (1.19, 1.26, 1.27)", p);
    return 0;
}

#endif
