/*
 * stream_bench.h - the stream rows of the benchmark (stream_bench.c): JSON
 * Lines decoded one record at a time (tagc's reader + the generated decoder),
 * by tagc's parallel decoder on 1 and 2 workers, and line by line with cJSON
 * (parse + map to the same struct), on bench/listings.ndjson and on a
 * generated orders.jsonl. bench.c calls these; they keep their own state.
 */
#ifndef TAGC_STREAM_BENCH_H
#define TAGC_STREAM_BENCH_H

#include <stdbool.h>
#include <stdio.h>

/* Consumes a stream option at argv[*i] (advancing *i past its value); false
 * when argv[*i] is not one:
 *   --streams LIST        listings,orders (default both), or none
 *   --stream-orders FILE  the orders JSONL to use (else gen.py writes one to a
 *                         temporary file: 130000 orders, about 200 MB; --quick: 3000)
 *   --stream-reps N       timed runs of each row (default 3; --quick: 1) */
bool stream_bench_arg(int argc, char **argv, int *i);

/* `bench --stream-child ...`: one timed run in a fresh process (bench.c calls
 * this when argv has it; the parent measures the child with wait4). */
int stream_bench_child(int argc, char **argv);

/* Loads (or generates) the streams and checks that every contender decodes
 * every record to the same value; prints a line per stream to f. False when
 * one disagrees or a stream cannot be read. */
bool stream_bench_check(FILE *f, const char *exe, const char *data_dir, bool quick);

/* Times every row (each run a child process: wall, CPU of all its threads,
 * peak RSS) and prints the table to f. */
void stream_bench_time(FILE *f, const char *exe);

/* `"streams": [...]` for bench.c's --json output (with a leading comma). */
void stream_bench_json(FILE *f);

/* Removes the temporary orders file, if any. */
void stream_bench_cleanup(void);

#endif
