/*
 * test_golden.c - generated/ (checked in) must be exactly what the tagc of this
 * build writes for schemas/. When it fails: ninja -C build update-generated.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

Test(golden, generated_files_are_current)
{
    const char *build = getenv("GEN_BUILD"), *source = getenv("GEN_SOURCE"), *files = getenv("GEN_FILES");
    cr_assert(build && source && files, "GEN_BUILD, GEN_SOURCE and GEN_FILES must be set");
    char *list = strdup(files);
    int checked = 0;
    for (char *name = strtok(list, " "); name; name = strtok(NULL, " ")) {
        char a[4096], b[4096];
        size_t alen = 0, blen = 0;
        snprintf(a, sizeof a, "%s/%s", build, name);
        snprintf(b, sizeof b, "%s/%s", source, name);
        char *fresh = slurp(a, &alen), *kept = slurp(b, &blen);
        cr_assert(fresh, "%s was not generated", a);
        cr_expect(kept, "generated/%s is missing: run ninja -C build update-generated", name);
        if (kept)
            cr_expect(alen == blen && memcmp(fresh, kept, alen) == 0,
                      "generated/%s is stale: run ninja -C build update-generated", name);
        free(fresh);
        free(kept);
        checked++;
    }
    cr_assert(checked > 0);
    free(list);
}
