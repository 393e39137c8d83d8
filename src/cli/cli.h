/* cli.h: the command line's own header (the library's are tilesat.h and
 * tilesat_io.h).  Options come from the table in options.h; each command
 * lives in its cmd_*.c file and is listed in commands.c. */
#ifndef TILESAT_CLI_H
#define TILESAT_CLI_H

#include "options.h"
#include "tilesat.h"
#include "tilesat_io.h"

#include <time.h>

#define EXIT_ERROR 1

/* ------------------------------------------------ options (options.c) */

typedef struct string_list {
  const char **v;
  int n;
} string_list;
typedef struct map_size {
  int w, h;
} map_size;
typedef struct real_span {
  double lo, hi;
} real_span;

/* The field type of each kind of option (see options.h). */
#define TYPE_FLAG bool
#define TYPE_UINT uint64_t
#define TYPE_REAL double
#define TYPE_BYTES size_t
#define TYPE_CHOICE const char *
#define TYPE_STRING const char *
#define TYPE_LIST string_list
#define TYPE_WXH map_size
#define TYPE_SPAN real_span
#define TYPE_TERM const char *

#define OPT(id, ...) OPTION_##id,
#define ALSO(...)
enum option_id { OPTIONS NOPTIONS };
#undef OPT
#undef ALSO

typedef struct options {
  const char *command; /* the command's name */
#define OPT(id, flag, kind, ...) TYPE_##kind id;
#define ALSO(...)
  OPTIONS
#undef OPT
#undef ALSO
  bool given[NOPTIONS]; /* on the command line, see GIVEN */
  string_list args;     /* the arguments that are not options */
  /* an argument right after a --pin or --choose value: the rest of a tile
   * name with spaces the shell split off ("--pin 0,0=tower 1") */
  const char *split_option, *split_value, *split_word;
  struct inputs *inputs; /* what a command's samples share (samples.c) */
  int window[4];         /* --png draws only this part: row, col, height, width
                            (0 0 0 0: the whole map); explain sets it */
  /* the pictures, read once a run by the first load_pictures (freed by
   * options_free) */
  tilesat_pictures *pics;
  bool pics_read;
  /* the Tiled maps a run reads and writes with (--pins-from's,
   * --tilesets-from's), each read once by tiled_doc (freed by
   * options_free) */
  struct tiled_docs *tiled_docs;
} options;

/* Was the option on the command line (rather than its default)? */
#define GIVEN(o, id) ((o)->given[OPTION_##id])

/* One line of --help: an option for some commands. */
typedef struct option_row {
  enum option_id id;
  const char *metavar; /* NULL for a flag */
  const char *commands, *help;
} option_row;
extern const option_row option_rows[];
extern const size_t noption_rows;
const char *option_name(enum option_id id);
bool option_row_for(const option_row *row, const char *cmd);

/* Fill *o from argv (after the command name); 0 or EXIT_ERROR after
 * printing why.  With --help the values are not checked.  options_free
 * in any case. */
int options_parse(options *o, const char *cmd, int argc, char **argv);
void options_free(options *o);
/* A door (a program or mode that runs a command's job by other means, such
 * as tilesat-mpi for count) that keeps only some of the command's options
 * refuses the others by name, never drops them: EXIT_ERROR after
 * "OPTION: DOOR does not keep it: WHY" for the first option given that is
 * not in keeps[0..n), else 0.  From the table, so an option added to the
 * command later is refused until the door keeps it. */
int options_refuse_unkept(const options *o, const char *door,
                          const enum option_id *keeps, size_t n,
                          const char *why);
/* The --help lines of a command's options. */
void options_help(const char *cmd, FILE *out);

/* --------------------------------------------- commands (commands.c) */

/* What a command does that others do not, on its row of the table: code
 * asks command_does for a trait, never for a command by its name. */
enum command_trait {
  /* prints as it goes (maps as they come, CNF, a line an entry): main does
   * not hold its answer back (answer_begin) */
  CMD_STREAMS = 1u << 0,
  /* writes rules: --pictures (or X.pictures beside -o X.rules) is a file it
   * writes, not one it reads */
  CMD_MAKES_RULES = 1u << 1,
  /* --png draws a marked picture: the cells' domains, marks, a legend */
  CMD_MARKS = 1u << 2,
  /* --png / --tmx / --tmj hold several maps: its own tileset and a new
   * Tiled map, even with a painted Tiled map as --pins-from */
  CMD_SHEET = 1u << 3,
  /* --max-memory bounds its dp (counting.c), not the map's tables */
  CMD_DP_MEMORY = 1u << 4,
  /* --guard modify or auto fills maps past the whole map's bound */
  CMD_LARGE_GUARD = 1u << 5,
  /* takes pins, not bans: --pins-from cells several tiles' picture shows
   * are refused */
  CMD_PINS_ONLY = 1u << 6,
  /* -o is a Tiled tileset, its picture written beside it */
  CMD_TILESET_OUT = 1u << 7,
  /* draws maps at random: of the exact methods, the dp alone draws (enum
   * lists maps, it does not draw them) */
  CMD_DRAWS = 1u << 8,
  /* --png crops its picture around the clash on a map larger than 32x32
   * (--whole: the whole map) */
  CMD_CROPS = 1u << 9,
};
/* A command's reference beyond its summary (command_docs.c, one object a
 * command, named command_doc_NAME): what it does, its exit codes, and
 * examples that tests/test_readme.c runs as written. */
typedef struct command_doc {
  const char *description, *exit_status;
  const char *examples[8]; /* NULL-terminated */
} command_doc;
extern const command_doc command_doc_extract, command_doc_encode,
    command_doc_check, command_doc_enum, command_doc_count, command_doc_sample,
    command_doc_sum, command_doc_import_tileset, command_doc_export_tileset,
    command_doc_explain, command_doc_repair, command_doc_trace,
    command_doc_analyze, command_doc_anneal, command_doc_collapse,
    command_doc_world, command_doc_verify, command_doc_run_samples;
typedef struct command {
  const char *name, *usage, *summary;
  int (*run)(options *o);
  unsigned traits;        /* enum command_trait */
  const command_doc *doc; /* its reference, for help and man pages */
} command;
extern const command commands[];
extern const size_t ncommands;
const command *command_find(const char *name);
/* Has o's command (its row in the table) any of these traits? */
bool command_does(const options *o, unsigned traits);
/* "tilesat: unknown command 'NAME'", with the commands it is near. */
void unknown_command(const char *name);
void usage_main(FILE *out);
void usage_command(const command *c, FILE *out);
/* tilesat --man: the man page in roff (man.c); 0 or EXIT_ERROR. */
int write_man(FILE *out);
/* tilesat --man COMMAND: the page tilesat-COMMAND(1); and `tilesat help
 * COMMAND`: the same as plain text. */
int write_man_command(const command *c, FILE *out);
int write_help_command(const command *c, FILE *out);

/* ----------------------------------------------------------- util.c */

/* "tilesat: " + message on stderr, one line, what it echoes shown
 * (tilesat_shown: control bytes and bytes not UTF-8 as \xHH). */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A name or value from a file as a report on stdout shows it
 * (tilesat_shown); the text lasts until four more calls. */
const char *shown_text(const char *s);
/* A tile name in quotes as a report shows it: shown_text, with " and \
 * escaped ("\"" for dungeon8's '"'); the text lasts until four more
 * calls. */
const char *quoted_text(const char *s);
/* Tile t's name as lists show it: every name of rules whose names are not
 * all plain words (letters, digits, '_' and '-': coast's L, C, S) in
 * quotes, the same way (quoted_text), so that '"', ',' or '.' stands out
 * from the list around it; a plain word as it is.  Lasts as quoted_text. */
const char *listed_name(const tilesat_rules *r, int t);
/* tilesat_map_get's struct, as a value. */
tilesat_map_info map_info(const tilesat_map *m);
/* tilesat_explanation_get's struct, as a value. */
tilesat_explanation_info explanation_info(const tilesat_explanation *e);
/* Print a library error; returns EXIT_ERROR. */
int fail_err(const tilesat_error *err);
/* The library's message as the command line says it, in place: an error
 * about a parameter (err->param, "size: ...") names its option ("--size:
 * ..."), since library messages never name command-line flags. */
const char *err_said(tilesat_error *err);
bool ends_with(const char *s, const char *suffix);
/* Wilson's score interval, 95%, for k successes in n trials (n > 0): the
 * interval collapse and run-samples give failure rates. */
void wilson95(long k, long n, double *lo, double *hi);
/* Seconds on the monotonic clock, for timing runs. */
double mono_seconds(void);
/* The median of v[0..n) (n > 0), which it sorts. */
double median_sorted(double *v, size_t n);
/* Write rules to -o FILE or stdout; 0 or EXIT_ERROR. */
int write_rules(const options *o, const tilesat_rules *r);
/* Read the rules file argument and build the map the options describe. */
int load_map(options *o, tilesat_rules **rules, tilesat_map **map);
/* The same map on rules already read (collapse --sizes: a map a size, the
 * rules read once); 0 or EXIT_ERROR (said). */
int map_of_rules(options *o, const tilesat_rules *rules, tilesat_map **map);
/* --constraints FILE, then the shortcuts (which may name its classes), into
 * m; 0 or EXIT_ERROR (said). */
int load_constraints(const options *o, tilesat_map *m);
/* --topology, else `fallback`. */
tilesat_topology topology_of(const options *o, tilesat_topology fallback);
/* --backend into so, with the terminate callback of stop.c (the command
 * then stops on a signal by itself): what every solving command passes on. */
int parse_backend(const options *o, tilesat_solve_options *so);
/* After a solving call failed, or stopped early: "COMMAND: interrupted"
 * when a signal stopped it, else the library's error; returns EXIT_ERROR. */
int fail_solve(const options *o, const tilesat_error *err);
/* On a map with connected or path constraints, what keeping them took
 * (stderr): "COMMAND: S solves, R cut rounds, C cuts". */
void cut_report(const options *o, const tilesat_map *m,
                const tilesat_solve_stats *stats);
/* Without --backend, a map with connected or path constraints goes to
 * the backend auto picks for it, CaDiCaL (README, "Global constraints"). */
void lazy_backend(const options *o, const tilesat_map *m,
                  tilesat_solve_options *so);

/* ------------------------------------------- files and stdout (files.c) */

/* A file the command writes, whole or not at all; NULL or "-" is standard
 * output. */
typedef struct out_file {
  tilesat_output *out; /* NULL: standard output */
  FILE *f;
  int slot;   /* its temporary's, in stop.c */
  char *path; /* named on stderr once in place (malloc'd) */
} out_file;
/* 0, or EXIT_ERROR after printing why. */
int out_open(out_file *of, const char *path);
/* "tilesat: wrote PATH" on stderr: every file a command puts in place is
 * named so (out_close's when answer_end puts them in place). */
void said_written(const char *path);
/* With ok, the file is written (or the write error said: the stream's
 * error flag is enough) and waits to be put in place by answer_end, when
 * the command ends well; without, it is dropped silently.  The old file
 * stays unless the new one is put in place.  0 or EXIT_ERROR. */
int out_close(out_file *of, bool ok);
/* The same, put in place at once (run-samples: a picture per run). */
int out_close_now(out_file *of, bool ok);
/* From here on what the command prints to standard output waits (in
 * memory) for answer_end: an answer whole or not at all.  main calls it for
 * every command but those that print maps as they go (enum, sample),
 * encode and run-samples, which call it for the end of their answer. */
void answer_begin(void);
/* After the command (rc): the files it wrote put in place and its answer
 * printed if it ended well and was not stopped; else both dropped
 * ("COMMAND: interrupted" said if a signal stopped it).  A signal after
 * this changes nothing.  rc, or EXIT_ERROR. */
int answer_end(const options *o, int rc);
/* Has writing to standard output failed?  (Its errno is kept for
 * stdout_end.) */
bool stdout_failed(void);
/* After the command: flush standard output; on a write error say so
 * ("write error on standard output: REASON") and return EXIT_ERROR, else
 * rc. */
int stdout_end(int rc);
/* A JSON document for standard output (explain, trace and collapse with
 * --format json).  Names may hold bytes that are not UTF-8 (rules/README.md)
 * and the writers copy them: report_json_print first puts every string in
 * the names' encoding (tilesat_name_encode: such a byte as the text \xHH,
 * reversible), and json_end still writes any such byte left as \u00XX
 * (only a string can hold one, the rest is ASCII), so what is printed is
 * valid UTF-8 and valid JSON. */
typedef struct json_out {
  FILE *f; /* json_begin's: write the document there */
  char *buf;
  size_t len;
} json_out;
FILE *json_begin(json_out *j);
/* The document to standard output, whole (stop_hold), and free it. */
void json_end(json_out *j);
/* X.tmx -> X.tmx.png (malloc'd, or NULL): the tileset picture of our
 * own Tiled maps (tilesat_tiled_picture_path). */
char *tiled_image(const char *map);
/* Refuse (EXIT_ERROR, after saying why) an output that is an input of the
 * command, or another of its outputs, or that cannot be written (a
 * folder, a missing or read-only folder), or a picture written beside
 * another output (X.tmx.png, X.tsx.png) over a file tilesat did not write
 * (without --force); before any work. */
int check_outputs(const options *o);

/* -------------------------------------------- signals (stop.c) */

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT handlers for the command named
 * (NULL: a process that says nothing when a signal ends it, an MPI
 * worker); from main. */
void stop_install(const char *name);
/* Has a signal asked to stop? */
bool stop_requested(void);
/* The library's terminate callback: stop_requested. */
int stop_terminate(void *user);
/* From now on the command polls stop_requested: a signal only sets it
 * (until then a signal ends the process at once). */
void stop_polled(void);
/* Around what must not be cut (a map being printed, a file renamed): a
 * signal that would end the process waits for stop_release. */
void stop_hold(void);
void stop_release(void);
/* A temporary file to remove should a signal end the process: its slot,
 * or -1 when there is no room; removed from the list by slot (-1: none). */
int stop_temp_add(const char *path);
void stop_temp_remove(int slot);
/* The files are in place and the answer out: a signal is too late. */
void stop_commit(void);
/* Say "COMMAND: interrupted" (once); returns EXIT_ERROR. */
int stop_said(const options *o);
/* After the command: rc, or EXIT_ERROR (said) if a signal stopped it. */
int stop_end(const options *o, int rc);

/* -------------------------------- samples for extract (samples.c) */

/* A sample of any kind, recognised by content: PNG image (--tile-size,
 * --palette), Tiled .tmx/.tmj (--layer, --empty) or text grid. */
tilesat_grid *load_sample(options *o, const char *path, tilesat_error *err);
/* The Tiled map at path, read the first time it is asked for and kept
 * for the run (options_free frees it); NULL and *err when it is not one. */
const tilesat_tiled_doc *tiled_doc(options *o, const char *path,
                                   tilesat_error *err);
void tiled_docs_free(options *o);
/* Is this file a Tiled map (.tmx, .tmj), by its content as load_sample
 * tells? */
bool is_tiled_map(const char *path);
/* Is the Tiled map a .tmj (JSON), by its content? */
bool tiled_is_json(const char *path);
/* The first --pins-from map that is a Tiled map, or NULL: --tmx/--tmj
 * write a copy of it with its --layer filled. */
const char *tiled_pins(const options *o);
/* After extraction: write the samples' pictures (--pictures FILE, or beside
 * -o X.rules as X.pictures) when rc is 0, free what load_sample kept.
 * Returns rc, or EXIT_ERROR if writing failed. */
int end_samples(options *o, int rc);
/* A finished map read back (verify, --pins-from): a text grid or Tiled map
 * as load_sample reads it, or a PNG cut into tiles by the rules' pictures
 * (--pictures, or RULES's X.pictures; else a pixel a cell, by colour).  A
 * picture several tiles share (rotations of a symmetric tile, identical
 * images) does not tell them apart: such a cell is "one of these tiles". */
typedef struct map_in {
  tilesat_grid *grid;
  const tilesat_rules *rules;
  const tilesat_pictures *pics; /* a PNG's pictures (o's, or own_pics) */
  tilesat_pictures *own_pics;   /* drawn for rules without pictures */
  int *first;   /* with pics, by tile: the first tile with its picture */
  bool *shared; /* with pics, by tile: another tile has its picture */
} map_in;
/* 0, or EXIT_ERROR (said, and *in left empty). */
int map_in_read(options *o, const char *path, const tilesat_rules *r,
                map_in *in);
void map_in_free(map_in *in);
/* The tiles of the rules cell (row, col) may hold, into tiles (room for
 * each tile of the rules), in the rules' order; how many: one for a name,
 * more for a picture several tiles share, 0 for an empty cell or a name
 * the rules do not have. */
int map_in_tiles(const map_in *in, int row, int col, int *tiles);
/* --mask FILE into m: a text grid of the map's size ('.' a cell of the map,
 * any other character masked) or a PNG (a pixel a cell, transparent or
 * black ones masked); 0 or EXIT_ERROR (said). */
int load_mask(const options *o, tilesat_map *m);

/* ------------------------------ pictures files beside rules (pictures.c) */

/* X.rules -> X.pictures (malloc'd), or NULL. */
char *sidecar(const char *rules_path);
/* --pictures FILE, else beside -o X.rules; 0 or EXIT_ERROR. */
int write_pictures(const options *o, const tilesat_pictures *p);
/* The pictures for drawing the map commands' results: --pictures, else
 * the rules file's X.pictures when there is one (*pics NULL when none).
 * Read once a run, by the first call (check_pictures', or the first
 * command's that needs them); *pics is o's, until options_free.  0 or
 * EXIT_ERROR (said; a later call tries again). */
int load_pictures(options *o, const tilesat_pictures **pics);
/* A --pictures file the command reads: refused (EXIT_ERROR, said) before
 * any work when it cannot be read, not after the answer is printed. */
int check_pictures(options *o);

/* ------------------------- --png, --tmx, --tmj of maps (outputs.c) */

/* Is `tile` still possible at `cell` (row-major) in `user`'s state? */
typedef bool (*cell_has)(const void *user, int cell, int tile);
/* --png for explain / trace / collapse / verify: each cell a blend of the
 * tiles still possible there (every tile when `has` is NULL), drawn by
 * tilesat_render_marked: `marks` per cell (tilesat_mark), `pairs` (npairs
 * broken pairs of cells), a legend; 0 or EXIT_ERROR. */
int domains_png(options *o, const tilesat_map *m, cell_has has,
                const void *user, const uint8_t *marks, const int *pairs,
                size_t npairs);
/* ------------------------------- collapse's reports (collapse_report.c) */

struct cJSON;
/* --explain of a failed run (tilesat_collapse_explain done): the point of
 * no return, a minimal doomed set and the propagation chain, printed, or
 * added to `doc` as "explain"; with --png the wave it left, those cells
 * framed.  0 or EXIT_ERROR (said). */
int collapse_explain(options *o, const tilesat_map *m, tilesat_collapse *c,
                     struct cJSON *doc);
/* The cell that chain's steps end at (tilesat_collapse_explain done), or
 * -1: no chain (no valid map at all, or propagation from the doomed set
 * reaches no contradiction). */
int collapse_chain_end(const tilesat_map *m, const tilesat_collapse *c);
/* --png of a failed run: the wave it left, the contradiction framed. */
int collapse_failure_png(options *o, const tilesat_map *m,
                         const tilesat_collapse *c);
/* -n --explain: the tiles and neighbouring pairs in the doomed sets of up
 * to `runs` explained failed runs (tilesat_collapse_explain done). */
typedef struct doom_summary doom_summary;
doom_summary *doom_summary_new(const options *o, const tilesat_map *m,
                               long runs);
void doom_summary_free(doom_summary *s);
void doom_summary_add(doom_summary *s, const options *o,
                      const tilesat_collapse *c);
/* Printed, or added to `doc` as "doomed". */
void doom_summary_report(doom_summary *s, struct cJSON *doc);
/* The advice for designers (tilesat_advise) after it: text, or an object
 * "advice" of doc. */
void advice_report(const tilesat_map *m, const tilesat_advice *v,
                   struct cJSON *doc);

/* "north", "south-east", ...: a direction of the rules in words. */
const char *report_dir_words(tilesat_topology topo, int dir);
/* "s" unless n is 1: "%ld run%s" (util.c). */
const char *plural(double n);

/* UNSAT: no map, so no --png, --tmx or --tmj; stderr says so, for each
 * asked. */
void no_map_no_picture(const options *o);

/* Why no map exists, as check found it (how): "the pins (0,0)=S and
 * (0,1)=L clash: no filling of the 5x4 window at rows 0-3, columns 0-4
 * keeps them", "the rules: no filling of ...", propagation's words, or
 * "no map of this size exists with these rules and pins"; malloc'd, NULL
 * out of memory. */
char *unsat_words(const tilesat_map *m, const tilesat_check_answer *how);

/* Maps larger than this a side are shown around the clash (--whole: all
 * of them): explain's text and picture, a failed collapse's steps and
 * picture. */
#define SHOWN_WHOLE 32
static inline bool shown_cropped(const options *o, const tilesat_map *m) {
  return !o->whole &&
         (map_info(m).width > SHOWN_WHOLE || map_info(m).height > SHOWN_WHOLE);
}

/* o->window (what --png and explain's text map show): the n cells and 4
 * cells of margin around them, when m is shown cropped (shown_cropped);
 * unchanged (the whole map) otherwise, or with no cell. */
void crop_around(options *o, const tilesat_map *m, const int *cells, size_t n);

/* Before any work: can the --png / --tmx / --tmj of m be drawn (the
 * pictures read, a picture of at most 2^26 pixels: of one map, or with
 * `on_sheet` of at least one map on a contact sheet; --tilesets-from's
 * tilesets fit)?  explain's picture on a map shown cropped is checked
 * when drawn.  0 or EXIT_ERROR (said). */
int outputs_ready(options *o, const tilesat_map *m, bool on_sheet);
/* Once a run, on stderr: a picture drew pinned tiles smaller than their
 * pictures, and the least --scale that would not (least, from
 * tilesat_render_pins_cut; 0: nothing to say). */
void pins_cut_notice(const options *o, int least);
/* --png / --tmx / --tmj for one filled map; 0 or EXIT_ERROR. */
int map_outputs(options *o, const tilesat_map *m, const int *tiles);
/* A picture that is no map (the heat map) as a PNG file noted "marked",
 * which the map readers refuse (NULL: too large, said); 0 or EXIT_ERROR. */
int image_png(const char *path, const tilesat_image *img);
/* enum --png / --tmx / --tmj: a contact sheet (of as many as a picture of
 * 2^26 pixels holds), or a Tiled map with a layer per map, of the first 256
 * maps. */
typedef struct sheet sheet;
sheet *sheet_new(options *o, const tilesat_map *m);
void sheet_add(sheet *s, const int *tiles);
/* Write the sheet (if any) and free it; 0 or EXIT_ERROR. */
int sheet_end(sheet *s);
/* Print each map of enum or sample (blank line after each) and add it to
 * the --png / --tmx / --tmj sheet, if any; asks to stop after a signal or
 * a write error on standard output.  Map number hold_at (the last of
 * sample's, or 0: none) is kept for map_sink_end, to go out with the
 * files: the maps of a stopped command are never all there.  With a
 * progress (sample -n), "map k of N, about T left" as the maps come (T
 * from the time since the first). */
typedef struct map_sink {
  const tilesat_map *m;
  sheet *sheet;
  long hold_at, seen;
  int *last;
  struct count_progress *progress; /* or NULL */
  double first;                    /* mono_seconds at the first map */
  bool quiet;                      /* --quiet: no map printed */
  /* enum: "N maps so far, R a second" as they come (limit: --limit, or
   * 0), on found's progress; NULL: not said */
  struct count_progress *found;
  long limit;
} map_sink;
int map_sink_print(void *user, const int *tiles);
/* The kept map printed (with print) or dropped. */
void map_sink_end(map_sink *ctx, bool print);

/* ------------------------- count and sample's shared setup (counting.c) */

/* Progress on stderr: first after a second, then at most once a second,
 * "tilesat: [COMMAND: ]LINE (N s)". */
typedef struct count_progress {
  struct timespec start, last;
  bool printed;
  const char *command; /* a prefix, or NULL */
} count_progress;
/* Start the clock of p (its lines prefixed with "PREFIX: ", or not). */
void progress_start(count_progress *p, const char *prefix);
/* A tilesat_progress_fn: user is a count_progress. */
void progress_report(void *user, const char *line);
/* The same line said at once, whatever the throttle (a change of method,
 * a run about to cost much more). */
void progress_notice(void *user, const char *line);
/* "WHAT k of N[, about T left]" to progress_report: the k-th of n runs
 * (maps, entries) starts; T from the k-1 done since `started`
 * (mono_seconds). */
void progress_runs(void *user, const char *what, long k, long n,
                   double started);
/* The same line into buf, T from `per` seconds a run (none when per < 0). */
void runs_line(char *buf, size_t size, const char *what, long k, long n,
               double per);
/* The map, and the options in the library's terms, progress on stderr and
 * Ctrl-C wired to co->solve.terminate.  *pr must live as long as co.  0 or
 * EXIT_ERROR. */
int counting_setup(options *o, tilesat_rules **r, tilesat_map **m,
                   tilesat_count_options *co, count_progress *pr);

/* --part K/N (count, enum): 0 with *k and *n, or EXIT_ERROR (said). */
int parse_part(const options *o, int *k, int *n);
/* The line count --part prints before the part's count, and tilesat sum
 * reads back: "part K/N of problem ID, check C" (ID:
 * tilesat_map_fingerprint; C: part_check, 8 hex digits). */
#define PART_LINE "part %d/%d of problem %s, check %08lx"
/* The CRC-32 (zlib) of "part K/N of problem ID\nCOUNT": an edited count, or
 * a part line moved to another count, no longer matches. */
unsigned long part_check(int k, int n, const char *id, const char *count);

/* ------------------------------------------------ commands (cmd_*.c) */

int cmd_extract(options *o);
int cmd_import_tileset(options *o);
int cmd_export_tileset(options *o);
int cmd_encode(options *o);
int cmd_check(options *o);
int cmd_enum(options *o);
int cmd_count(options *o);
int cmd_sample(options *o);
int cmd_explain(options *o);
int cmd_repair(options *o);
int cmd_trace(options *o);
int cmd_analyze(options *o);
int cmd_anneal(options *o);
int cmd_collapse(options *o);
int cmd_world(options *o);
int cmd_verify(options *o);
int cmd_run_samples(options *o);
int cmd_sum(options *o);

#endif
