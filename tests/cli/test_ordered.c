/*
 * test_ordered.c - ordered.c: tasks run on two threads, finishing in any
 * order, reach the output in task order, whole, each once; the second
 * thread's first job runs once; the window of slots is crossed many times.
 */
#define _XOPEN_SOURCE 700 /* nanosleep */

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pipeline.h"

/* Task t's text: its number, then t % 50 lines of filler (0 to ~3 KB). */
static void task_text(size_t t, strbuf *out)
{
    sb_printf(out, "task %zu\n", t);
    for (size_t i = 0; i < t % 50; i++)
        sb_printf(out, "%zu of task %zu: some text to make the pieces of different sizes\n", i, t);
}

typedef struct counts {
    atomic_int runs[2];    /* tasks run by each thread */
    atomic_int firsts;     /* helper_first calls */
    bool sleepy;           /* sleep now and then, so tasks finish out of order */
} counts;

static void run_task(void *ctx, size_t task, strbuf *out)
{
    counts *c = ((counts **)ctx)[0];
    int thread = (int)(intptr_t)((void **)ctx)[1];
    atomic_fetch_add(&c->runs[thread], 1);
    if (c->sleepy && task % 7 == (size_t)thread * 3) {
        struct timespec ts = {0, 200000}; /* 0.2 ms */
        nanosleep(&ts, NULL);
    }
    task_text(task, out);
}

static void first(void *arg)
{
    counts *c = arg;
    atomic_fetch_add(&c->firsts, 1);
}

/* The pieces the flush function was given, joined. */
typedef struct collected {
    strbuf all;
    size_t pieces;
} collected;

static void collect(void *ctx, strbuf *sb)
{
    collected *c = ctx;
    sb_put(&c->all, sb->data, sb->len);
    c->pieces++;
}

static void expect_run(size_t ntasks, bool with_flush, bool sleepy)
{
    counts c = {.sleepy = sleepy};
    void *ctx0[2] = {&c, (void *)(intptr_t)0}, *ctx1[2] = {&c, (void *)(intptr_t)1};
    ordered_job job = {
        .ntasks = ntasks,
        .run = run_task,
        .ctx = {ctx0, ctx1},
        .helper_first = first,
        .helper_first_arg = &c,
    };
    strbuf out, want;
    sb_init(&out);
    sb_init(&want);
    collected col = {0};
    sb_init(&col.all);
    if (with_flush) {
        out.flush = collect;
        out.flush_ctx = &col;
    }
    ordered_run(&job, &out);
    sb_flush(&out);
    for (size_t t = 0; t < ntasks; t++)
        task_text(t, &want);
    const strbuf *got = with_flush ? &col.all : &out;
    cr_assert_eq(got->len, want.len, "%zu tasks: %zu bytes, want %zu", ntasks, got->len, want.len);
    cr_assert(memcmp(got->data, want.data, want.len) == 0, "%zu tasks: text out of order", ntasks);
    cr_assert_eq(atomic_load(&c.runs[0]) + atomic_load(&c.runs[1]), (int)ntasks);
    cr_assert_eq(atomic_load(&c.firsts), 1);
    if (with_flush && ntasks > 0)
        cr_assert_geq(col.pieces, 1);
    sb_free(&out);
    sb_free(&want);
    sb_free(&col.all);
}

Test(ordered, tasks_in_order, .timeout = 60)
{
    size_t counts_of_tasks[] = {0, 1, 2, 7, 8, 9, 17, 100, 3000};
    for (size_t i = 0; i < sizeof counts_of_tasks / sizeof counts_of_tasks[0]; i++) {
        expect_run(counts_of_tasks[i], true, false);
        expect_run(counts_of_tasks[i], false, false);
    }
}

Test(ordered, tasks_finishing_out_of_order, .timeout = 60)
{
    for (int round = 0; round < 20; round++)
        expect_run(200, round % 2 == 0, true);
}
