/*
 * emit.c - writes a generated file only when its content changes.
 *
 * Build systems compare mtimes: rewriting an identical file would rebuild
 * everything that includes it. New content goes to a temporary file in the
 * same directory and is renamed over the old one, so a reader (or a crash)
 * never sees a half-written file.
 *
 * The content may arrive in pieces (emit_stream), so that the generators never
 * hold a big file whole: while the pieces equal the start of the existing
 * file nothing is written; at the first difference the temporary file is
 * created, given the equal part (copied from the old file), and everything
 * after goes straight to it.
 *
 * A stream's pieces are compared and written by a thread of its own, so that
 * the system calls (copying ~200 MB into the page cache for a big schema) run
 * while the next piece is generated: the generator hands its full buffer over
 * and takes back the one the thread is done with, never more than two.
 */
#include "pipeline.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void stream_init(emit_stream *s, const char *path, diag *dg)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->dg = dg;
    s->fd = -1;
    s->old_fd = open(path, O_RDONLY);
}

/* The content differs from the old file from offset s->len on: the temporary
 * file takes over, with the s->len bytes that were equal. */
static void diverge(emit_stream *s)
{
    s->tmp = tmpfile_claim(s->path); /* on the list before the file exists: a signal removes it */
    if (!s->tmp) {
        s->err = errno;
        return;
    }
    s->fd = tmpfile_create(s->tmp);
    if (s->fd < 0) {
        s->err = errno;
        tmpfile_release(s->tmp);
        s->tmp = NULL;
        return;
    }
    s->tmp_made = true;
    if (s->old_fd >= 0) {
        char buf[1 << 16];
        for (off_t off = 0; (size_t)off < s->len && !s->err;) {
            size_t want = s->len - (size_t)off < sizeof buf ? s->len - (size_t)off : sizeof buf;
            ssize_t got = pread(s->old_fd, buf, want, off);
            if (got <= 0)
                s->err = got < 0 ? errno : EIO; /* the old file changed under us */
            else if (write_all(s->fd, buf, (size_t)got) != 0)
                s->err = errno;
            else
                off += got;
        }
        close(s->old_fd);
        s->old_fd = -1;
    }
}

/* Compares or writes one piece: in the writer thread, or in the caller's when
 * there is none. */
static void write_piece(emit_stream *s, const char *data, size_t len)
{
    if (s->err || len == 0)
        return;
    if (s->old_fd >= 0 && s->fd < 0) {
        if (s->cmp_cap < len) {
            free(s->cmp);
            s->cmp = malloc(len);
            s->cmp_cap = s->cmp ? len : 0;
        }
        ssize_t got = s->cmp ? read_full(s->old_fd, s->cmp, len) : -1;
        if (got == (ssize_t)len && memcmp(s->cmp, data, len) == 0) {
            s->len += len;
            return;
        }
        diverge(s); /* also when the old file cannot be read or compared */
    } else if (s->fd < 0) {
        diverge(s);
    }
    if (!s->err && write_all(s->fd, data, len) != 0)
        s->err = errno;
    s->len += len;
}

/* MARK: - The writer thread */

struct emit_writer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    strbuf pending;   /* the piece to write (data NULL: none); the generator waits while there is one */
    strbuf spare;     /* a written piece's buffer, for the generator to fill next */
    bool closing;
};

static void *writer_main(void *arg)
{
    emit_stream *s = arg;
    emit_writer *w = s->writer;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->pending.data && !w->closing)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->pending.data)
            break;
        strbuf piece = w->pending;
        pthread_mutex_unlock(&w->mu);
        write_piece(s, piece.data, piece.len); /* s's file state is this thread's until the join */
        pthread_mutex_lock(&w->mu);
        sb_free(&w->spare);
        w->spare = piece;
        w->pending.data = NULL;
        pthread_cond_signal(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

void emit_open(emit_stream *s, const char *path, diag *dg)
{
    stream_init(s, path, dg);
    emit_writer *w = calloc(1, sizeof *w);
    if (!w)
        return; /* then the pieces are written in the caller's thread */
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        free(w);
        return;
    }
    if (pthread_cond_init(&w->cv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        free(w);
        return;
    }
    s->writer = w;
    if (pthread_create(&w->thread, NULL, writer_main, s) != 0) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        s->writer = NULL;
    }
}

void emit_flush(void *ctx, strbuf *sb)
{
    emit_stream *s = ctx;
    emit_writer *w = s->writer;
    if (!w) {
        write_piece(s, sb->data, sb->len);
        return;
    }
    pthread_mutex_lock(&w->mu);
    while (w->pending.data)
        pthread_cond_wait(&w->cv, &w->mu);
    w->pending = (strbuf){.data = sb->data, .len = sb->len, .cap = sb->cap};
    sb->data = w->spare.data; /* the buffer written last (NULL: none yet); sb_flush empties it */
    sb->cap = w->spare.cap;
    w->spare = (strbuf){0};
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Waits for the pieces handed over to be written, and ends the thread. */
static void writer_end(emit_stream *s)
{
    emit_writer *w = s->writer;
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->closing = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    sb_free(&w->spare);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
    s->writer = NULL;
}

/* Removes the temporary file, if any, and takes it off the list. */
static void drop_tmp(emit_stream *s)
{
    if (s->tmp_made)
        unlink(s->tmp);
    s->tmp_made = false;
    if (s->tmp)
        tmpfile_release(s->tmp);
    s->tmp = NULL;
}

void emit_discard(emit_stream *s)
{
    writer_end(s);
    free(s->cmp);
    s->cmp = NULL;
    if (s->old_fd >= 0)
        close(s->old_fd);
    s->old_fd = -1;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    drop_tmp(s);
}

int emit_finish(emit_stream *s)
{
    writer_end(s);
    s->finished = true;
    if (!s->err && s->fd < 0) {
        char c;
        if (s->old_fd >= 0 && read_full(s->old_fd, &c, 1) == 0) {
            close(s->old_fd); /* the same bytes: leave the file alone */
            s->old_fd = -1;
            free(s->cmp);
            s->cmp = NULL;
            return 0;
        }
        diverge(s); /* shorter than the old file, or no old file */
    }
    free(s->cmp);
    s->cmp = NULL;
    if (s->old_fd >= 0)
        close(s->old_fd);
    s->old_fd = -1;
    int err = s->err;
    if (s->fd >= 0) {
        /* mkstemp makes the file private; give it the mode a plain create would */
        mode_t mask = umask(0);
        umask(mask);
        if (!err && fchmod(s->fd, 0666 & ~mask) != 0)
            err = errno;
        if (close(s->fd) != 0 && !err)
            err = errno; /* a delayed write error (NFS, ENOSPC) shows here */
        s->fd = -1;
    }
    if (err) {
        drop_tmp(s);
        diag_error_file(s->dg, s->path, "cannot write: %s", strerror(err));
        return -1;
    }
    return 0;
}

int emit_commit(emit_stream *s)
{
    if (!s->tmp_made) { /* unchanged */
        drop_tmp(s);
        return 0;
    }
    int err = rename(s->tmp, s->path) != 0 ? errno : 0;
    if (!err)
        s->tmp_made = false; /* the name is path's now */
    drop_tmp(s);
    if (err) {
        diag_error_file(s->dg, s->path, "cannot write: %s", strerror(err));
        return -1;
    }
    return 0;
}

int emit_close(emit_stream *s)
{
    return emit_finish(s) == 0 ? emit_commit(s) : -1;
}

int emit_file(const char *path, const char *data, size_t len, diag *dg)
{
    emit_stream s;
    stream_init(&s, path, dg); /* one piece: no thread */
    write_piece(&s, data, len);
    return emit_close(&s);
}
