/*
 * driver.h - the C side of the differential test against Go's encoding/json.
 *
 * go_diff_registry.c (written by prepare.go) lists every named type of the
 * schemas with wrappers around its generated functions; diff_run reads the
 * records that gen/main.go wrote and checks each against the generated code.
 */
#ifndef TAGC_GO_DIFF_DRIVER_H
#define TAGC_GO_DIFF_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <tagc.h>

typedef struct diff_type {
    const char *name; /* pkg.Name, as in the records */
    size_t size;
    void (*init)(void *v);
    int (*decode)(void *v, const char *src, size_t len, tagc_arena *a, tagc_error *e,
                  const tagc_json_opts *o);
    int (*encode)(const void *v, tagc_buf *out, const tagc_json_opts *o);
    bool (*equal)(const void *a, const void *b);
} diff_type;

extern const diff_type diff_types[];
extern const size_t diff_types_len;

/* What one run checks. */
enum {
    DIFF_CHECK_VALUES = 1 << 0,    /* V records: decode, re-encode, bytes equal Go's */
    DIFF_CHECK_VERDICTS = 1 << 1,  /* M records: same accept/reject as Go */
    DIFF_CHECK_MUTATED = 1 << 2,   /* M records accepted by both: bytes equal Go's */
    DIFF_CHECK_INDENT = 1 << 3,    /* accepted records: pretty output equals MarshalIndent */
    DIFF_CHECK_NOHTML = 1 << 4,    /* accepted records: no_html_escape equals SetEscapeHTML(false) */
    DIFF_CHECK_EQUAL = 1 << 5,     /* accepted records: _equal, and decode(encode(.)) reaches a fixed point */
    DIFF_CHECK_ALL = 0x3f,
};

/* Mismatch classes; the summary counts each. */
enum {
    DIFF_OUTPUT,           /* accepted by both, encoder bytes differ */
    DIFF_GO_ACCEPTS,       /* Go accepts, tagc rejects */
    DIFF_GO_REJECTS,       /* Go rejects, tagc accepts */
    DIFF_ENCODE_ERROR,     /* tagc accepts but cannot encode the value Go encodes */
    DIFF_GO_MARSHAL_ERROR, /* Go's Marshal fails on what it decoded; tagc encodes */
    DIFF_INDENT,           /* pretty-printed output differs */
    DIFF_NOHTML,           /* output without HTML escaping differs */
    DIFF_NOT_EQUAL,        /* _equal(v, v) fails, or decode(encode(.)) has no fixed point */
    DIFF_BY_DESIGN_ENUM,   /* Go accepts, a closed enum (//tagc:closed) rejects the value: by design, not counted */
    DIFF_CLASSES
};

typedef struct diff_summary {
    size_t records;          /* records checked (after the filter) */
    size_t accepted;         /* of which Go accepts */
    size_t classes[DIFF_CLASSES];
    size_t failures;         /* sum of the classes, by-design ones excepted */
    size_t unknown_types;    /* records naming a type missing from the registry */
} diff_summary;

extern const char *const diff_class_names[DIFF_CLASSES];

/* Reads the records at path, checks those selected by checks, writes the first
 * few mismatches of each (type, class, category) and a summary (headed by
 * label) to log. Returns 0, or -1 when the file cannot be read or is malformed
 * (the message is in log). */
int diff_run(const char *path, unsigned checks, const char *label, diff_summary *sum, FILE *log);

#endif
