/*
 * fuzz_compiler.c - a libFuzzer target for the schema compiler in process:
 * the input is a .tagc file; it is loaded (lexer, parser, imports), checked,
 * and, when it checks clean, generated (C header and source, JSON and
 * MessagePack) and exported as JSON Schema (default and strict) for every type.
 * Any input must end in diagnostics or in output, never in a crash, a leak or
 * undefined behaviour. The file lives in a directory with common.tagc next to
 * it, so an input may import "common.tagc" as kitchen_sink.tagc does.
 */
#include "pipeline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUZZ_COMMON_TAGC
#error "FUZZ_COMMON_TAGC: the path of schemas/common.tagc"
#endif

static char dir[] = "/tmp/tagc-fuzz-compiler-XXXXXX";
static char path[sizeof dir + 16];
static FILE *devnull;

static void cleanup(void)
{
    char common[sizeof dir + 16];
    snprintf(common, sizeof common, "%s/common.tagc", dir);
    unlink(common);
    unlink(path);
    rmdir(dir);
}

static void setup(void)
{
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/input.tagc", dir);
    char common[sizeof dir + 16];
    snprintf(common, sizeof common, "%s/common.tagc", dir);
    FILE *in = fopen(FUZZ_COMMON_TAGC, "rb"), *out = fopen(common, "wb");
    if (!in || !out)
        abort();
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
    devnull = fopen("/dev/null", "w");
    if (!devnull)
        abort();
    atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull)
        setup();
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();

    ast_program prog = {0};
    prog.pool = pool_new();
    diag dg;
    diag_init(&dg, devnull);
    const char *paths[] = {path};
    if (load_program(&prog, paths, 1, &dg) == 0 && check_program(&prog, &dg) == 0) {
        for (const ast_file *file = prog.files; file; file = file->next) {
            if (!file->is_root)
                continue;
            gen_opts o = {.json = true, .msgpack = true};
            strbuf h, c;
            sb_init(&h);
            sb_init(&c);
            gen_files(&prog, file, &o, &h, &c);
            sb_free(&h);
            sb_free(&c);
            for (const ast_decl *d = file->decls; d; d = d->next) {
                for (int strict = 0; strict < 2; strict++) {
                    strbuf js;
                    sb_init(&js);
                    gen_json_schema_text(&prog, d, strict, &js);
                    sb_free(&js);
                }
            }
        }
    }
    ast_program_free(&prog);
    return 0;
}
