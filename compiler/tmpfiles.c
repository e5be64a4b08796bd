/*
 * tmpfiles.c - the names of the compiler's temporary output files, so that
 * every way out removes them: an error (emit_discard), out of memory
 * (tagc_out_of_memory) and the signals a program can catch.
 *
 * A signal handler may only read memory that is never freed or rewritten
 * under it, so the names live in a few fixed slots rather than on the heap.
 * A slot is marked live before mkstemp creates its file: there is no moment
 * when the file exists and the handler does not know it (unlinking a name
 * whose XXXXXX mkstemp has not yet replaced just fails).
 */
#include "pipeline.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

enum { SLOTS = 8, NAME_MAX_LEN = 4096 };

static struct {
    atomic_int claimed; /* taken by a stream (0/1) */
    atomic_int live;    /* name holds a file to remove on the way out */
    char name[NAME_MAX_LEN];
} slots[SLOTS];

char *tmpfile_claim(const char *path)
{
    size_t n = strlen(path);
    if (n + sizeof ".tmpXXXXXX" > NAME_MAX_LEN) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    for (int i = 0; i < SLOTS; i++) {
        int expect = 0;
        if (!atomic_compare_exchange_strong(&slots[i].claimed, &expect, 1))
            continue;
        memcpy(slots[i].name, path, n);
        memcpy(slots[i].name + n, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
        atomic_store(&slots[i].live, 1);
        return slots[i].name;
    }
    errno = EMFILE; /* never more than a .h and a .c at once */
    return NULL;
}

void tmpfile_release(char *name)
{
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].name == name) {
            atomic_store(&slots[i].live, 0);
            atomic_store(&slots[i].claimed, 0);
        }
    }
}

void tmpfiles_remove_all(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (atomic_exchange(&slots[i].live, 0))
            unlink(slots[i].name); /* async-signal-safe */
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
