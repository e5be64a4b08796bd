/*
 * compat.h - `tagc compat OLD.tagc NEW.tagc`: the changes between two versions
 * of a schema that break an old reader of new data or a new reader of old data,
 * for JSON and for MessagePack separately.
 */
#ifndef TAGC_COMPAT_H
#define TAGC_COMPAT_H

/* The subcommand: argv[0] is "compat". Returns the exit status: 0 compatible,
 * 1 breaking changes (one diagnostic line each), 2 usage or I/O. */
int cmd_compat(int argc, char **argv);

#endif /* TAGC_COMPAT_H */
