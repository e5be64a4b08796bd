/*
 * ordered.c - a list of tasks run on two threads, their outputs handed over
 * in the list's order.
 *
 * The generated .c of a big schema is ~170 MB made of independent functions.
 * Two threads each take the next task (a few functions) as they become free,
 * so a slow or descheduled thread does not hold the other back; each task
 * writes into a slot of its own, and this thread hands the slots over in
 * task order. A task is taken only while its slot is free (fewer than
 * ORDERED_WINDOW tasks between the next to hand over and it), so the memory
 * held is a few slots whatever the file's size, and the same slot buffers
 * are used again and again (fresh memory costs a page fault per 4 KB).
 */
#include "pipeline.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { ORDERED_WINDOW = 8 };

typedef struct ordered {
    const ordered_job *job;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next;    /* the next task to take */
    size_t handed;  /* tasks handed over so far, in order */
    strbuf slot[ORDERED_WINDOW]; /* task t writes into slot[t % ORDERED_WINDOW] */
    bool done[ORDERED_WINDOW];
} ordered;

/* Under the lock: a task this thread may run, or false when none is left to
 * take. Waits while the window is full. */
static bool take(ordered *o, size_t *task)
{
    while (o->next < o->job->ntasks && o->next >= o->handed + ORDERED_WINDOW)
        pthread_cond_wait(&o->cv, &o->mu);
    if (o->next >= o->job->ntasks)
        return false;
    *task = o->next++;
    return true;
}

/* Runs a task taken under the lock, without it. */
static void run(ordered *o, int thread, size_t task)
{
    strbuf *out = &o->slot[task % ORDERED_WINDOW];
    pthread_mutex_unlock(&o->mu);
    o->job->run(o->job->ctx[thread], task, out);
    pthread_mutex_lock(&o->mu);
    o->done[task % ORDERED_WINDOW] = true;
    pthread_cond_broadcast(&o->cv);
}

static void *helper_main(void *arg)
{
    ordered *o = arg;
    if (o->job->helper_first)
        o->job->helper_first(o->job->helper_first_arg);
    pthread_mutex_lock(&o->mu);
    size_t task;
    while (take(o, &task))
        run(o, 1, task);
    pthread_mutex_unlock(&o->mu);
    return NULL;
}

/* Hands a finished slot's text to out: its buffer itself when out has a flush
 * function (the slot takes back the one flush gives), else a copy. */
static void hand_over(strbuf *slot, strbuf *out)
{
    if (!out->flush) {
        sb_put(out, slot->data, slot->len);
        slot->len = 0;
        slot->data[0] = '\0';
        return;
    }
    sb_flush(out); /* what out holds goes first */
    slot->flush = out->flush;
    slot->flush_ctx = out->flush_ctx;
    sb_flush(slot);
    slot->flush = NULL;
}

void ordered_run(const ordered_job *job, strbuf *out)
{
    ordered *o = calloc(1, sizeof *o);
    if (!o || pthread_mutex_init(&o->mu, NULL) != 0 || pthread_cond_init(&o->cv, NULL) != 0) {
        fputs("tagc: out of memory\n", stderr);
        abort();
    }
    o->job = job;
    for (int i = 0; i < ORDERED_WINDOW; i++)
        sb_init(&o->slot[i]);
    pthread_t helper;
    bool threaded = pthread_create(&helper, NULL, helper_main, o) == 0;
    if (!threaded && job->helper_first) /* no second thread: this one does all */
        job->helper_first(job->helper_first_arg);

    pthread_mutex_lock(&o->mu);
    while (o->handed < job->ntasks) {
        size_t k = o->handed % ORDERED_WINDOW;
        if (o->done[k]) {
            o->done[k] = false;
            pthread_mutex_unlock(&o->mu);
            hand_over(&o->slot[k], out);
            pthread_mutex_lock(&o->mu);
            o->handed++;
            pthread_cond_broadcast(&o->cv);
        } else if (o->next < job->ntasks && o->next < o->handed + ORDERED_WINDOW) {
            run(o, 0, o->next++);
        } else {
            pthread_cond_wait(&o->cv, &o->mu); /* for the helper's task */
        }
    }
    pthread_mutex_unlock(&o->mu);
    if (threaded)
        pthread_join(helper, NULL);
    for (int i = 0; i < ORDERED_WINDOW; i++)
        sb_free(&o->slot[i]);
    pthread_cond_destroy(&o->cv);
    pthread_mutex_destroy(&o->mu);
    free(o);
}
