/*
 * profile.c - the wire profiles (tagc --go): which Go release's encoding/json
 * the generated code matches. docs/profiles.md lists what each one changes.
 */
#include "pipeline.h"

#include <string.h>

static const struct {
    go_profile profile;
    const char *name; /* the --go value */
    const char *c;    /* the runtime's flags for it (tagc.h) */
} profiles[] = {
    { GO_1_27, "1.27", "TAGC_GO_1_27" },
    { GO_1_26, "1.26", "TAGC_GO_1_26" },
    { GO_1_19, "1.19", "TAGC_GO_1_19" },
};

const char *go_profile_name(go_profile p)
{
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (profiles[i].profile == p)
            return profiles[i].name;
    return "?";
}

const char *go_profile_c(go_profile p)
{
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (profiles[i].profile == p)
            return profiles[i].c;
    return "?";
}

bool go_profile_parse(const char *value, go_profile *out)
{
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
        if (strcmp(profiles[i].name, value) == 0) {
            *out = profiles[i].profile;
            return true;
        }
    return false;
}
