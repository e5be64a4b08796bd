/*
 * emit.c - writes a generated file only when its content changes.
 *
 * Build systems compare mtimes: rewriting an identical file would rebuild
 * everything that includes it. New content goes to a temporary file in the
 * same directory and is renamed over the old one, so a reader (or a crash)
 * never sees a half-written file.
 */
#include "pipeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* True when path exists and holds exactly data. */
static bool same_content(const char *path, const char *data, size_t len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return false;
    char buf[1 << 14];
    size_t off = 0;
    bool same = true;
    for (;;) {
        size_t n = fread(buf, 1, sizeof buf, fp);
        if (n == 0)
            break;
        if (n > len - off || memcmp(buf, data + off, n) != 0) {
            same = false;
            break;
        }
        off += n;
    }
    if (ferror(fp))
        same = false;
    fclose(fp);
    return same && off == len;
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

int emit_file(const char *path, const char *data, size_t len, diag *dg)
{
    if (same_content(path, data, len))
        return 0;
    size_t n = strlen(path) + sizeof ".tmpXXXXXX";
    char *tmp = malloc(n);
    if (!tmp) {
        diag_error_file(dg, path, "cannot write: %s", strerror(ENOMEM));
        return -1;
    }
    snprintf(tmp, n, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        diag_error_file(dg, path, "cannot write: %s", strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file private; give it the mode a plain create would */
    mode_t mask = umask(0);
    umask(mask);
    int err = 0;
    if (write_all(fd, data, len) != 0 || fchmod(fd, 0666 & ~mask) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err) {
        unlink(tmp);
        diag_error_file(dg, path, "cannot write: %s", strerror(err));
    }
    free(tmp);
    return err ? -1 : 0;
}
