/*
 * workdir.h - a fresh temporary directory per test, removed after it, for the
 * tests that write files (test_cli.c, test_emit.c). Include once, after
 * defining _XOPEN_SOURCE 700 (nftw, mkdtemp), then:
 *   TestSuite(name, .init = make_workdir, .fini = remove_workdir);
 */
#ifndef TAGC_TESTS_WORKDIR_H
#define TAGC_TESTS_WORKDIR_H

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char workdir[64];

static void make_workdir(void)
{
    snprintf(workdir, sizeof workdir, "/tmp/tagc-test-XXXXXX");
    cr_assert_not_null(mkdtemp(workdir));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_workdir(void)
{
    nftw(workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* workdir/name; the last four results stay valid. */
static char *path_in(const char *name)
{
    static char buf[4][512];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", workdir, name);
    return p;
}

#endif
