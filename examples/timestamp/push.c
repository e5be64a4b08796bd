/*
 * push.c - go-github's push event through tagc, its Timestamp read and written
 * by gh_timestamp.c (the //tagc:codec of github.tagc).
 *
 *   push FILE.json...          each document: a summary of its times, then the
 *                              document re-encoded; each also goes through
 *                              MessagePack and back, which must give the same bytes
 *   push --jsonl FILE          the same for each line of a JSON Lines stream
 *                              (tagc_stream_reader), errors per line
 *   push --msgpack OUT FILE... also writes each document's MessagePack to OUT,
 *                              back to back (for `tagc validate --format msgpack`)
 *
 * A document that does not decode is reported as FILE:LINE:COL: PATH: MESSAGE;
 * the exit status is then 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "github.tagc.h"

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(fp);
    *len = n;
    return buf;
}

static void show_time(const char *name, bool has, const github_timestamp *t)
{
    char text[TAGC_TIME_MAX_CHARS];
    if (!has) {
        printf(" %s=-", name);
        return;
    }
    size_t n = tagc_time_format(text, t, TAGC_GO_DEFAULT);
    printf(" %s=%.*s", name, (int)n, text);
}

static void summary(const github_push_event *ev)
{
    const github_push_event_repository *repo = ev->repo;
    if (repo) {
        printf("repository %.*s:", (int)repo->full_name.len, repo->full_name.ptr);
        show_time("created_at", repo->has_created_at, &repo->created_at);
        show_time("pushed_at", repo->has_pushed_at, &repo->pushed_at);
        show_time("updated_at", repo->has_updated_at, &repo->updated_at);
        printf("\n");
    }
    for (size_t i = 0; i < ev->commits.len; i++) {
        const github_head_commit *c = ev->commits.ptr[i];
        printf("commit %zu:", i);
        show_time("timestamp", c->has_timestamp, &c->timestamp);
        printf("\n");
    }
}

/* Re-encodes ev as JSON (printed) and as MessagePack (appended to mp when
 * given), which must decode to a value that encodes to the same bytes; 0, or 1
 * when something fails or differs. */
static int round_trip(const github_push_event *ev, tagc_arena *arena, FILE *mp)
{
    tagc_buf out, again;
    tagc_buf_init(&out);
    tagc_buf_init(&again);
    int rc = github_push_event_encode_json(ev, &out, NULL);
    if (rc == 0)
        printf("%.*s\n", (int)out.len, (const char *)out.data);
    out.len = 0;
    if (rc == 0)
        rc = github_push_event_encode_msgpack(ev, &out);
    github_push_event back;
    tagc_error err;
    if (rc == 0 && (rc = github_push_event_decode_msgpack(&back, out.data, out.len, arena, &err)) != 0)
        fprintf(stderr, "push: MessagePack: %s: %s\n", err.path, err.message);
    if (rc == 0)
        rc = github_push_event_encode_msgpack(&back, &again);
    if (rc == 0 && (again.len != out.len || memcmp(again.data, out.data, out.len) != 0)) {
        fprintf(stderr, "push: the MessagePack round trip changed the value\n");
        rc = 1;
    }
    if (rc == 0 && mp)
        fwrite(out.data, 1, out.len, mp);
    tagc_buf_free(&out);
    tagc_buf_free(&again);
    return rc != 0;
}

static int one_document(const char *name, const char *src, size_t len, tagc_arena *arena, FILE *mp)
{
    github_push_event ev;
    tagc_error err;
    if (github_push_event_decode_json(&ev, src, len, arena, &err, NULL) != 0) {
        printf("%s:%u:%u: %s: %s\n", name, (unsigned)err.line, (unsigned)err.column, err.path, err.message);
        return 1;
    }
    summary(&ev);
    return round_trip(&ev, arena, mp);
}

static int jsonl(const char *path, tagc_arena *arena)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        return 2;
    }
    tagc_stream_reader r;
    if (tagc_stream_reader_init_file(&r, fp, TAGC_STREAM_JSONL, NULL) != 0) {
        fclose(fp);
        return 2;
    }
    int status = 0, rc;
    const char *rec;
    size_t len;
    tagc_error err;
    while ((rc = tagc_stream_next(&r, &rec, &len, &err)) != 0) {
        github_push_event ev;
        if (rc > 0 && (rc = github_push_event_decode_json(&ev, rec, len, arena, &err, NULL)) != 0)
            tagc_stream_locate(&r, &err);
        if (rc != 0) {
            printf("%s:%u:%u: %s: %s\n", path, (unsigned)err.line, (unsigned)err.column, err.path, err.message);
            status = 1;
            if (r.fatal)
                break;
            continue;
        }
        printf("line %llu: ", (unsigned long long)r.line);
        summary(&ev);
        status |= round_trip(&ev, arena, NULL);
        tagc_arena_reset(arena);
    }
    tagc_stream_reader_free(&r);
    fclose(fp);
    return status;
}

int main(int argc, char **argv)
{
    tagc_arena arena;
    tagc_arena_init(&arena);
    int status = 0, i = 1;
    FILE *mp = NULL;
    if (argc == 3 && !strcmp(argv[1], "--jsonl")) {
        status = jsonl(argv[2], &arena);
        tagc_arena_free(&arena);
        return status;
    }
    if (argc > 3 && !strcmp(argv[1], "--msgpack")) {
        if (!(mp = fopen(argv[2], "wb"))) {
            perror(argv[2]);
            return 2;
        }
        i = 3;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: push [--msgpack OUT] FILE.json... | push --jsonl FILE\n");
        return 2;
    }
    for (; i < argc; i++) {
        size_t len;
        char *src = read_file(argv[i], &len);
        if (!src) {
            perror(argv[i]);
            status = 2;
            continue;
        }
        status |= one_document(argv[i], src, len, &arena, mp);
        free(src);
        tagc_arena_reset(&arena);
    }
    if (mp && fclose(mp) != 0)
        status = 2;
    tagc_arena_free(&arena);
    return status;
}
