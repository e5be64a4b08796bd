/*
 * test_emit.c - emit.c's streamed writes: pieces handed over by a strbuf's
 * flush (and written by emit's writer thread) make exactly the file given,
 * an identical file is left alone (same inode, same mtime), any difference
 * (in the middle, shorter, longer) replaces it whole, and an error is
 * reported once, at close, with no file left behind; a discarded stream
 * leaves the old file as it was.
 */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */

#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline.h"
#include "workdir.h"

TestSuite(emit, .init = make_workdir, .fini = remove_workdir, .timeout = 60);

/* n bytes of text that differ from line to line. */
static char *make_text(size_t n, unsigned seed)
{
    char *t = malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        t[i] = i % 61 == 60 ? '\n' : (char)('a' + (seed >> 16) % 26);
    }
    t[n] = '\0';
    return t;
}

/* Opens a stream to path, and a strbuf that flushes into it. */
static void open_stream(emit_stream *es, strbuf *sb, diag *dg, const char *path)
{
    emit_open(es, path, dg);
    sb_init(sb);
    sb->flush = emit_flush;
    sb->flush_ctx = es;
}

/* Writes text[0..n) to path as the generators do: appended to a strbuf in
 * lines of varied lengths, flushed whenever the buffer holds `piece` bytes.
 * Returns emit_close's result; diagnostics go to *err (a malloc'ed string). */
static int emit_in_pieces(const char *path, const char *text, size_t n, size_t piece, char **err)
{
    char *msg = NULL;
    size_t msg_len = 0;
    FILE *out = open_memstream(&msg, &msg_len);
    cr_assert_not_null(out);
    diag dg;
    diag_init(&dg, out);
    emit_stream es;
    strbuf sb;
    open_stream(&es, &sb, &dg, path);
    for (size_t i = 0, len = 1; i < n; i += len, len = len % 97 + 1) {
        if (len > n - i)
            len = n - i;
        sb_put(&sb, text + i, len);
        if (sb.len >= piece)
            sb_flush(&sb);
    }
    sb_flush(&sb);
    sb_free(&sb);
    int rc = emit_close(&es);
    fclose(out);
    *err = msg;
    return rc;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    cr_assert_geq(size, 0);
    rewind(f);
    char *buf = malloc((size_t)size + 1);
    cr_assert_eq(fread(buf, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return buf;
}

static void expect_file(const char *path, const char *text, size_t n)
{
    size_t len;
    char *got = read_file(path, &len);
    cr_assert_eq(len, n, "%s: %zu bytes, want %zu", path, len, n);
    cr_assert(memcmp(got, text, n) == 0, "%s: other bytes", path);
    free(got);
}

/* Only the output itself is in the directory: no temporary file left. */
static void expect_only(const char *name)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -A '%s'", workdir);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char line[256] = "", more[256];
    if (!fgets(line, sizeof line, p))
        line[0] = '\0';
    cr_assert_null(fgets(more, sizeof more, p), "left behind: %s", more);
    pclose(p);
    line[strcspn(line, "\n")] = '\0';
    cr_assert_str_eq(line, name);
}

static struct stat stat_of(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    return st;
}

static void set_old_mtime(const char *path)
{
    struct timespec ts[2] = {{1000000000, 0}, {1000000000, 0}};
    cr_assert_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* Sizes around the piece size and many pieces; pieces of 1 byte up to more than the text. */
static const size_t sizes[] = {0, 1, 100, 4095, 4096, 4097, 65536, 300001};
static const size_t pieces[] = {1, 1000, 4096, 1 << 20};

Test(emit, new_file_in_pieces)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
            if (pieces[k] == 1 && sizes[i] > 4097)
                continue; /* a flush per line: slow, and no new case */
            char *text = make_text(sizes[i], (unsigned)i);
            char *path = path_in("out.c");
            unlink(path);
            char *err;
            cr_assert_eq(emit_in_pieces(path, text, sizes[i], pieces[k], &err), 0, "%s", err);
            cr_assert_str_eq(err, "");
            expect_file(path, text, sizes[i]);
            expect_only("out.c");
            mode_t mask = umask(0);
            umask(mask);
            cr_assert_eq(stat_of(path).st_mode & 0777, 0666 & ~mask, "the mode a plain create gives");
            free(err);
            free(text);
        }
    }
}

Test(emit, identical_file_left_alone)
{
    size_t n = 300001;
    char *text = make_text(n, 7);
    char *path = path_in("out.c");
    char *err;
    cr_assert_eq(emit_in_pieces(path, text, n, 4096, &err), 0);
    free(err);
    set_old_mtime(path);
    struct stat before = stat_of(path);
    for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
        if (pieces[k] == 1)
            continue;
        cr_assert_eq(emit_in_pieces(path, text, n, pieces[k], &err), 0, "%s", err);
        free(err);
        struct stat after = stat_of(path);
        cr_assert_eq(after.st_ino, before.st_ino, "rewritten with pieces of %zu", pieces[k]);
        cr_assert_eq(after.st_mtime, 1000000000);
    }
    expect_file(path, text, n);
    expect_only("out.c");
    free(text);
}

/* The old file differs from the new text at `at` (a byte changed), or is
 * longer or shorter: the new text replaces it, through a rename. */
static void expect_replaced(const char *old, size_t old_n, const char *text, size_t n, size_t piece)
{
    char *path = path_in("out.c");
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(old, 1, old_n, f), old_n);
    fclose(f);
    set_old_mtime(path);
    struct stat before = stat_of(path);
    char *err;
    cr_assert_eq(emit_in_pieces(path, text, n, piece, &err), 0, "%s", err);
    free(err);
    expect_file(path, text, n);
    expect_only("out.c");
    cr_assert_neq(stat_of(path).st_ino, before.st_ino);
    cr_assert_neq(stat_of(path).st_mtime, 1000000000);
}

Test(emit, any_difference_replaces)
{
    size_t n = 300001;
    char *text = make_text(n, 3);
    char *old = malloc(n + 10);
    size_t at[] = {0, 1, 4095, 4096, 150000, n - 1};
    for (size_t k = 1; k < sizeof pieces / sizeof pieces[0]; k++) {
        for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
            memcpy(old, text, n);
            old[at[i]] ^= 1;
            expect_replaced(old, n, text, n, pieces[k]);
        }
        memcpy(old, text, n);
        memcpy(old + n, "0123456789", 10);
        expect_replaced(old, n + 10, text, n, pieces[k]); /* old is longer */
        expect_replaced(old, n - 1, text, n, pieces[k]);  /* old is shorter */
        expect_replaced(old, 0, text, n, pieces[k]);      /* old is empty */
        expect_replaced(old, n, text, 0, pieces[k]);      /* new is empty */
    }
    free(old);
    free(text);
}

Test(emit, error_reported_at_close)
{
    size_t n = 100000;
    char *text = make_text(n, 5);
    char path[600];
    snprintf(path, sizeof path, "%s/no-such-dir/out.c", workdir);
    char *err;
    cr_assert_eq(emit_in_pieces(path, text, n, 4096, &err), -1);
    cr_assert(strstr(err, "no-such-dir/out.c: error: cannot write: No such file or directory\n"),
              "%s", err);
    const char *first = strstr(err, "error:");
    cr_assert_null(strstr(first + 1, "error:"), "reported once: %s", err);
    free(err);
    free(text);
}

Test(emit, discard_leaves_the_old_file)
{
    size_t n = 100000;
    char *old = make_text(n, 1), *text = make_text(n, 2);
    char *path = path_in("out.c");
    char *err;
    cr_assert_eq(emit_in_pieces(path, old, n, 4096, &err), 0);
    free(err);
    diag dg;
    diag_init(&dg, stderr);
    emit_stream es;
    strbuf sb;
    open_stream(&es, &sb, &dg, path);
    sb_put(&sb, text, n); /* differs at once: a temporary file is being written */
    sb_flush(&sb);
    sb_free(&sb);
    emit_discard(&es);
    expect_file(path, old, n);
    expect_only("out.c");
    free(old);
    free(text);
}

/* MARK: - strbuf.c's formatter, against the C library's */

/* n random printable bytes, '%' excepted, from *seed. */
static void random_text(char *out, size_t n, unsigned *seed)
{
    for (size_t i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        char c = (char)(' ' + (*seed >> 16) % 95);
        out[i] = c == '%' ? '#' : c;
    }
    out[n] = '\0';
}

static size_t random_len(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) % 41; /* 0..40: every short-copy size class and memcpy's */
}

Test(format, matches_snprintf)
{
    unsigned seed = 1;
    for (int iter = 0; iter < 20000; iter++) {
        char lit[9][48], s1[48], s2[48], s3[48], fmt[600];
        for (int i = 0; i < 9; i++)
            random_text(lit[i], random_len(&seed), &seed);
        random_text(s1, random_len(&seed), &seed);
        random_text(s2, random_len(&seed), &seed);
        random_text(s3, random_len(&seed), &seed);
        snprintf(fmt, sizeof fmt, "%s%%s%s%%zu%s%%.*s%s%%d%s%%%%%s%%c%s%%lld%s%%s%s", lit[0], lit[1],
                 lit[2], lit[3], lit[4], lit[5], lit[6], lit[7], lit[8]);
        int prec = (int)random_len(&seed) - 5; /* negative: no precision */
        size_t z = (size_t)seed * 2654435761u;
        int d = iter == 1 ? INT_MIN : (int)(seed % 2000000001u) - 1000000000; /* no overflow */
        long long ll = -(long long)seed * 1000003;
        char want[1000];
        snprintf(want, sizeof want, fmt, s1, z, prec, s2, d, 'x', ll, iter % 7 ? s3 : "");
        strbuf sb;
        sb_init(&sb);
        sb_puts(&sb, "head:");
        sb_printf(&sb, fmt, s1, z, prec, s2, d, 'x', ll, iter % 7 ? s3 : "");
        cr_assert_eq(sb.len, 5 + strlen(want));
        cr_assert_str_eq(sb.data + 5, want, "format %s", fmt);
        sb_free(&sb);
    }
}
