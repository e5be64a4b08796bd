/* bench/ab/build.sh: A/B of two builds of the generated decoders in one process: A = tagc.h
 * with -DTAGC_INDENT_PREDICT=0 (renamed A_*), B = as it is. Prints per-op CPU time medians and A/B. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "user.tagc.h"
#include "order.tagc.h"
#include "tree.tagc.h"
#include "twitter.tagc.h"
#include "canada.tagc.h"
typedef int (*dec_fn)(void *, const char *, size_t, tagc_arena *, tagc_error *, const tagc_json_opts *);
typedef int (*enc_fn)(const void *, tagc_buf *, const tagc_json_opts *);
#define DECL(T) int A_##T##_decode_json(T *, const char *, size_t, tagc_arena *, tagc_error *, const tagc_json_opts *);
DECL(user_user) DECL(order_order) DECL(tree_node) DECL(twitter_search_result) DECL(canada_feature_collection)
struct wl { const char *name, *file; size_t size; dec_fn a, b; enc_fn enc; };
#define W(n, f, T) {n, f, sizeof(T), (dec_fn)A_##T##_decode_json, (dec_fn)T##_decode_json, (enc_fn)T##_encode_json}
static struct wl wls[] = {
    W("user", "seedwork/user.json", user_user), W("order", "seedwork/order.json", order_order),
    W("tree", "seedwork/tree.json", tree_node), W("twitter", "bench/twitter.json", twitter_search_result),
    W("canada", "bench/canada.json", canada_feature_collection)};
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static char *slurp(const char *p, size_t *n) {
    FILE *f = fopen(p, "rb"); if (!f) { perror(p); exit(1); }
    fseek(f, 0, SEEK_END); *n = ftell(f); rewind(f); char *s = malloc(*n + 64);
    if (fread(s, 1, *n, f) != *n) exit(1); fclose(f); memset(s + *n, 0, 64); return s; }
static double run(dec_fn f, size_t sz, const char *doc, size_t n, double mint) {
    void *v = malloc(sz); tagc_arena ar; tagc_arena_init(&ar); tagc_error e;
    long ops = 0; double t0 = now(), t;
    do { for (int i = 0; i < 16; i++) { memset(v, 0, sz); tagc_arena_reset(&ar);
            if (f(v, doc, n, &ar, &e, NULL)) { fprintf(stderr, "decode failed: %s\n", e.message); exit(1); } }
        ops += 16; t = now() - t0; } while (t < mint);
    tagc_arena_free(&ar); free(v); return t / ops; }
static int cmpd(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : "data"; int reps = argc > 2 ? atoi(argv[2]) : 7;
    double mint = argc > 3 ? atof(argv[3]) : 0.1; const char *only = argc > 4 ? argv[4] : NULL;
    for (size_t w = 0; w < sizeof wls / sizeof *wls; w++) {
        if (only && !strstr(only, wls[w].name)) continue;
        char path[512]; size_t n; snprintf(path, sizeof path, "%s/%s", data, wls[w].file);
        char *doc = slurp(path, &n);
        void *v = calloc(1, wls[w].size); tagc_arena ar; tagc_arena_init(&ar); tagc_error e;
        if (wls[w].b(v, doc, n, &ar, &e, NULL)) { fprintf(stderr, "%s: %s\n", path, e.message); exit(1); }
        const char *ind[3] = {NULL, "  ", "\t"}; const char *cn[3] = {"-min", "-indent2", "-tab"};
        for (int c = 0; c < 4; c++) {
            const char *d = doc; size_t dn = n; tagc_buf b; tagc_buf_init(&b);
            if (c > 0) { tagc_json_opts o = {0}; o.indent = ind[c - 1];
                if (wls[w].enc(v, &b, &o)) exit(1); d = (const char *)b.data; dn = b.len; }
            double ta[64], tb[64], r[64];
            for (int i = 0; i < reps; i++) { ta[i] = run(wls[w].a, wls[w].size, d, dn, mint); tb[i] = run(wls[w].b, wls[w].size, d, dn, mint); r[i] = ta[i] / tb[i]; }
            qsort(ta, reps, sizeof(double), cmpd); qsort(tb, reps, sizeof(double), cmpd); qsort(r, reps, sizeof(double), cmpd);
            printf("%s%-10s A %10.3f us  B %10.3f us  A/B %.3f\n", wls[w].name, c ? cn[c - 1] : "", ta[reps / 2] * 1e6, tb[reps / 2] * 1e6, r[reps / 2]);
            fflush(stdout);
            tagc_buf_free(&b);
            (void)cn;
        }
    }
}
