/*
 * validate.h - `tagc validate`: does a data file decode as a type of a schema?
 *
 * An interpreter over the checked AST that makes the calls the generated decoder
 * of the type makes (gen_json.c, gen_msgpack.c), in the same order, to the same
 * runtime primitives: it accepts exactly the documents the generated decoder
 * accepts, and rejects the others with the same error (code, offset, path,
 * message). Values are decoded into the caller's arena and dropped: reset it
 * between documents.
 */
#ifndef TAGC_VALIDATE_H
#define TAGC_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "tagc.h"

typedef struct validator validator;

/* Loads and checks the schema at path (and its imports) and finds the type
 * named type_name ("Order", or "pkg.Order"), read as the code `tagc --go` go
 * generates reads it (go_given false: a //tagc:go directive of the schema
 * wins over go). Diagnostics go to diag_out. Returns 0 with *out set, 1 when
 * the schema has errors, 2 when the file cannot be read or there is no such
 * type. */
int validator_open(validator **out, const char *path, const char *type_name, go_profile go,
                   bool go_given, FILE *diag_out);
void validator_close(validator *v);

/* Decodes src as a JSON document of the type, as <type>_decode_json(v, src, len,
 * arena, err, opts) does. Returns 0 or its negative TAGC_E_* code, err filled. */
int validator_json(validator *v, const char *src, size_t len, tagc_arena *arena,
                   tagc_error *err, const tagc_json_opts *opts);

/* As <type>_decode_msgpack_opts. With used != NULL, bytes after the value are
 * not an error: *used is set to the length of the value (for a sequence of
 * values back to back). */
int validator_msgpack(validator *v, const uint8_t *src, size_t len, tagc_arena *arena,
                      tagc_error *err, const tagc_json_opts *opts, size_t *used);

/* The subcommand: argv[0] is "validate". Returns the exit status. */
int cmd_validate(int argc, char **argv);

#endif /* TAGC_VALIDATE_H */
