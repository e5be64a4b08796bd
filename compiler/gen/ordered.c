/*
 * ordered.c - a list of tasks run on two threads, their outputs handed over
 * in the list's order.
 *
 * The generated .c of a big schema is ~170 MB made of independent functions.
 * Two threads each take the next task (a few functions) as they become free,
 * so a slow or descheduled thread does not hold the other back; each task
 * writes into a slot of its own, and this thread copies the slots to the
 * output in task order, flushing it in pieces of ORDERED_FLUSH_AT bytes. A
 * task is taken only while its slot is free (fewer than ORDERED_WINDOW tasks
 * between the next to hand over and it), so the memory held is a few slots
 * whatever the file's size, and the same slot buffers are used again and
 * again (on this VM, memory touched for the first time costs far more than
 * the copy). A thread is woken only when it waits: each wake-up is a context
 * switch, and a flush per task made ~17 000 of them for 2000 types.
 */
#include "pipeline.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { ORDERED_WINDOW = 8 };

typedef struct ordered {
    const ordered_job *job;
    pthread_mutex_t mu;
    pthread_cond_t slot_freed; /* the second thread waits on it for a free slot */
    pthread_cond_t task_done;  /* this thread waits on it for the task to hand over next */
    bool helper_waits, main_waits; /* signal only a thread that waits: each wake-up is a context switch */
    size_t next;    /* the next task to take */
    size_t handed;  /* tasks handed over so far, in order */
    strbuf slot[ORDERED_WINDOW]; /* task t writes into slot[t % ORDERED_WINDOW] */
    bool done[ORDERED_WINDOW];
} ordered;

/* Under the lock, in the second thread: a task to run, or false when none is
 * left to take. Waits while the window is full. */
static bool take(ordered *o, size_t *task)
{
    while (o->next < o->job->ntasks && o->next >= o->handed + ORDERED_WINDOW) {
        o->helper_waits = true;
        pthread_cond_wait(&o->slot_freed, &o->mu);
        o->helper_waits = false;
    }
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
    if (thread == 1 && o->main_waits)
        pthread_cond_signal(&o->task_done);
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

/* Appends a finished slot's text to out, which is flushed once it holds
 * ORDERED_FLUSH_AT bytes: pieces of that size whatever the tasks' sizes. */
static void hand_over(strbuf *slot, strbuf *out)
{
    sb_put(out, slot->data, slot->len);
    slot->len = 0;
    slot->data[0] = '\0';
    if (out->len >= ORDERED_FLUSH_AT)
        sb_flush(out);
}

void ordered_run(const ordered_job *job, strbuf *out)
{
    ordered *o = calloc(1, sizeof *o);
    if (!o || pthread_mutex_init(&o->mu, NULL) != 0 || pthread_cond_init(&o->slot_freed, NULL) != 0 ||
        pthread_cond_init(&o->task_done, NULL) != 0) {
        tagc_out_of_memory();
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
            if (o->helper_waits)
                pthread_cond_signal(&o->slot_freed);
        } else if (o->next < job->ntasks && o->next < o->handed + ORDERED_WINDOW) {
            run(o, 0, o->next++);
        } else {
            o->main_waits = true; /* for the second thread's task */
            pthread_cond_wait(&o->task_done, &o->mu);
            o->main_waits = false;
        }
    }
    pthread_mutex_unlock(&o->mu);
    if (threaded)
        pthread_join(helper, NULL);
    for (int i = 0; i < ORDERED_WINDOW; i++)
        sb_free(&o->slot[i]);
    pthread_cond_destroy(&o->slot_freed);
    pthread_cond_destroy(&o->task_done);
    pthread_mutex_destroy(&o->mu);
    free(o);
}
