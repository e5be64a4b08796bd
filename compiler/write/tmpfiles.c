/*
 * tmpfiles.c - the names of the compiler's temporary output files, so that
 * every way out removes them: an error (emit_discard), out of memory
 * (tagc_out_of_memory) and the signals a program can catch.
 *
 * A signal handler may only read memory that is never freed or rewritten
 * under it, so the names live in a few fixed slots rather than on the heap.
 * The way out (a signal, or out of memory in any thread) first forbids new
 * files, then waits out any mkstemp under way: there is no moment when a
 * file exists that the sweep does not see, and none is made after it.
 */
#include "pipeline.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { SLOTS = 8, NAME_MAX_LEN = 4096 };

/* A slot's state. CREATING covers mkstemp, with signals blocked in that
 * thread: whoever is leaving waits for it to end, then sees the file. */
enum { FREE, CLAIMED, CREATING, MADE };

static struct {
    atomic_int state;
    char name[NAME_MAX_LEN];
} slots[SLOTS];

static atomic_int leaving; /* set once the program is on its way out: no new file */

char *tmpfile_claim(const char *path)
{
    size_t n = strlen(path);
    if (n + sizeof ".tmpXXXXXX" > NAME_MAX_LEN) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    for (int i = 0; i < SLOTS; i++) {
        int expect = FREE;
        if (!atomic_compare_exchange_strong(&slots[i].state, &expect, CLAIMED))
            continue;
        memcpy(slots[i].name, path, n);
        memcpy(slots[i].name + n, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
        return slots[i].name;
    }
    errno = EMFILE; /* never more than a .h and a .c at once */
    return NULL;
}

static int slot_of(const char *name)
{
    for (int i = 0; i < SLOTS; i++)
        if (slots[i].name == name)
            return i;
    return -1;
}

int tmpfile_create(char *name)
{
    int i = slot_of(name);
    if (i < 0) { /* not from tmpfile_claim */
        errno = EINVAL;
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    atomic_store(&slots[i].state, CREATING);
    int fd = -1;
    if (atomic_load(&leaving))
        errno = EINTR; /* the program is ending: its sweep has been or is being done */
    else
        fd = mkstemp(name);
    atomic_store(&slots[i].state, fd >= 0 ? MADE : CLAIMED);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return fd;
}

void tmpfile_release(char *name)
{
    int i = slot_of(name);
    if (i >= 0)
        atomic_store(&slots[i].state, FREE);
}

void tmpfiles_remove_all(void)
{
    atomic_store(&leaving, 1);
    for (int i = 0; i < SLOTS; i++) {
        int st;
        while ((st = atomic_load(&slots[i].state)) == CREATING)
            ; /* another thread is in mkstemp (never this one: it blocks signals there) */
        if (st == MADE)
            unlink(slots[i].name); /* async-signal-safe */
    }
}

static void on_signal(int sig)
{
    tmpfiles_remove_all();
    signal(sig, SIG_DFL);
    raise(sig); /* blocked until this handler returns: then it ends the program as it would have */
}

void tmpfiles_catch_signals(void)
{
    static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        struct sigaction old;
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* ignored by whoever started us (nohup): keep it so */
        struct sigaction sa = { 0 };
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask); /* no second handler on top of the first */
        sigaction(fatal[i], &sa, NULL);
    }
    /* Over `ulimit -f`, write(2) fails with EFBIG instead of the program being
     * killed with a half-written temporary file left behind. */
    signal(SIGXFSZ, SIG_IGN);
}
