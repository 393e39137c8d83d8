/* tilesat_mpi.c: tilesat-mpi, `tilesat count` over MPI ranks, for parts
 * of uneven cost, or one dp whose layers the ranks share.
 *
 *   mpirun -np P tilesat-mpi [--parts N] [-o FILE] RULES --size WxH [...]
 *   mpirun -np P tilesat-mpi --shard [-o FILE] RULES --size WxH [...]
 *
 * The rest are count's options, parsed by count's table; it answers as
 * count does for those it keeps (`kept` below) and refuses the others by
 * name.  Every rank sets up the same job: what count's dp counts
 * (ts_count_dp_map: count's refusals, borders as bans).
 *
 * --shard: one dp (count --method dp) whose states are split over the
 * ranks by a hash of their key: each rank extends its own states, sends
 * each successor to the rank that owns it (one all-to-all exchange a
 * cell, the GMP counts as limbs), and the ranks' tallies are added on
 * rank 0.  Each rank holds and works on about 1/P of every layer.
 *
 * The problem is cut into N parts (default 8 per worker) as `count --part
 * K/N` cuts it; rank 0 hands the parts out one at a time to the other
 * ranks as they come back, each worker counts its part through the library
 * and sends its tally back as text, and rank 0 adds them up (GMP) and
 * prints what `count` prints: the number of valid maps as the last line
 * (with --by-tile, the distribution before it).  With one rank, rank 0
 * counts every part itself.  Parts keep no constraint but borders: without
 * --parts, a map with one goes to the shard.  Every rank reads the rules
 * and map options itself (a shared file system, or the same files on every
 * host).  Exit 0, or 1 after an error (said once, by rank 0). */
#include "cli/cli.h"
#include "count/dp.h"

#include <gmp.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TAG_WORK = 1, TAG_DONE = 2 };

/* What a run counts, set up alike on every rank from count's options. */
typedef struct job {
  options o;
  tilesat_rules *r;
  tilesat_map *m;   /* as the options describe it */
  tilesat_map *low; /* borders as bans (NULL: m), what the ranks count */
  tilesat_count_options co;
  count_progress pr;
  uint64_t *by;    /* --by-tile's classes (shard), or NULL */
  int parts;       /* --parts N (0: 8 a worker) */
  bool shard;      /* --shard, or chosen for constraints parts lose */
  const char *out; /* -o FILE: the answer there, its write checked */
} job;

static const tilesat_map *counted(const job *j) {
  return j->low ? j->low : j->m;
}

/* ------------------------------------------------------------ tallies */

/* A count, and with --by-tile the maps with k cells of the classes for
 * each k: what a part or a rank hands over as text, "TOTAL[ K:N]...", and
 * rank 0 adds up. */
typedef struct tally {
  mpz_t total, *dist; /* dist: ncells + 1, or NULL */
  int ncells;
} tally;

static void tally_init(tally *t, int ncells, bool by) {
  mpz_init(t->total);
  t->ncells = ncells;
  t->dist = by ? malloc(((size_t)ncells + 1) * sizeof *t->dist) : NULL;
  if (by && !t->dist)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int k = 0; t->dist && k <= ncells; k++)
    mpz_init(t->dist[k]);
}

static void tally_clear(tally *t) {
  mpz_clear(t->total);
  for (int k = 0; t->dist && k <= t->ncells; k++)
    mpz_clear(t->dist[k]);
  free(t->dist);
}

/* Add "TOTAL[ K:N]..." to t; false when it is not that. */
static bool tally_add(tally *t, const char *text) {
  mpz_t c;
  mpz_init(c);
  char *copy = strdup(text), *save = NULL;
  bool ok = copy != NULL;
  char *w = ok ? strtok_r(copy, " ", &save) : NULL;
  ok = w && !mpz_set_str(c, w, 10);
  if (ok)
    mpz_add(t->total, t->total, c);
  while (ok && (w = strtok_r(NULL, " ", &save))) {
    char *colon = strchr(w, ':'), *end;
    long k = strtol(w, &end, 10);
    ok = t->dist && colon && end == colon && k >= 0 && k <= t->ncells &&
         !mpz_set_str(c, colon + 1, 10);
    if (ok)
      mpz_add(t->dist[k], t->dist[k], c);
  }
  free(copy);
  mpz_clear(c);
  return ok;
}

/* "TOTAL[ K:N]..." of count and dist[0..ncells] (NULL: none; zeros left
 * out), malloc'd (NULL: out of memory). */
static char *tally_text(const mpz_t count, const mpz_t *dist, int ncells) {
  size_t len = mpz_sizeinbase(count, 10) + 2;
  for (int k = 0; dist && k <= ncells; k++)
    len += mpz_sizeinbase(dist[k], 10) + 16;
  char *s = malloc(len), *p = s;
  if (!s)
    return NULL;
  p += gmp_snprintf(p, len, "%Zd", count);
  for (int k = 0; dist && k <= ncells; k++)
    if (mpz_sgn(dist[k]))
      p += gmp_snprintf(p, len - (size_t)(p - s), " %d:%Zd", k, dist[k]);
  return s;
}

/* What count prints: with --by-tile "K N" for each K some map has, then
 * the total (the last line). */
static void tally_print(const tally *t, FILE *f) {
  for (int k = 0; t->dist && k <= t->ncells; k++)
    if (mpz_sgn(t->dist[k]))
      gmp_fprintf(f, "%d %Zd\n", k, t->dist[k]);
  gmp_fprintf(f, "%Zd\n", t->total);
}

/* The answer on standard output or in -o FILE (written whole, its write
 * checked: under mpirun a rank's standard output goes through mpirun,
 * which says nothing when its own write fails).  0 or EXIT_ERROR. */
static int answer_write(const job *j, const tally *t) {
  out_file of;
  if (out_open(&of, j->out))
    return EXIT_ERROR;
  tally_print(t, of.f);
  return out_close_now(&of, true);
}

/* Rank 0's count of done parts on stderr, at most once a second. */
static void report(count_progress *pr, int done, int n) {
  char line[96];
  snprintf(line, sizeof line, "%d of %d parts counted", done, n);
  progress_report(pr, line);
}

/* Count part k: its tally's text or "!ERROR" (malloc'd; NULL: out of
 * memory). */
static char *count_part(const job *j, int k, int n) {
  tilesat_count_result res;
  tilesat_error err;
  char **dist = NULL, *text = NULL;
  if (ts_count_part_by_tile(counted(j), k, n, j->o.by_tile, &j->co, &res,
                            j->o.by_tile ? &dist : NULL, &err)) {
    size_t len = strlen(err_said(&err)) + 2;
    char *msg = malloc(len);
    if (msg)
      snprintf(msg, len, "!%s", err.msg);
    return msg;
  }
  int cells = j->m->ncells;
  size_t len = strlen(res.count) + 1;
  for (int c = 0; dist && c <= cells; c++)
    len += strlen(dist[c]) + 16;
  if ((text = malloc(len))) {
    size_t at = (size_t)snprintf(text, len, "%s", res.count);
    for (int c = 0; dist && c <= cells; c++)
      if (strcmp(dist[c], "0"))
        at += (size_t)snprintf(text + at, len - at, " %d:%s", c, dist[c]);
  }
  tilesat_count_by_tile_free(counted(j), dist);
  tilesat_count_result_free(&res);
  return text;
}

/* Receive one string with tag from any rank; *from its rank.  Rank 0
 * waits by polling every millisecond rather than in MPI_Probe, which
 * spins: on a machine with as many cores as workers it would take one from
 * them.  NULL when a signal stopped it. */
static char *receive(int tag, int *from) {
  MPI_Status st;
  int len, flag = 0;
  for (;;) {
    MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
    if (flag)
      break;
    if (stop_requested())
      return NULL;
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
  MPI_Get_count(&st, MPI_CHAR, &len);
  char *s = malloc((size_t)len + 1);
  if (!s)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Recv(s, len, MPI_CHAR, st.MPI_SOURCE, tag, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  s[len] = 0;
  *from = st.MPI_SOURCE;
  return s;
}

static void send_part(int to, int k) {
  MPI_Send(&k, 1, MPI_INT, to, TAG_WORK, MPI_COMM_WORLD);
}

/* A worker's answer: its tally's text or "!ERROR" (malloc'd), with *from
 * the worker and *k its part; *stopped when a signal came first. */
static char *next_answer(int *from, int *k, int *busy, bool *stopped) {
  char *msg = receive(TAG_DONE, from);
  *stopped = !msg;
  if (!msg)
    return NULL;
  (*busy)--;
  char *space = strchr(msg, ' ');
  *k = atoi(msg);
  char *got = strdup(space ? space + 1 : "!garbled answer");
  free(msg);
  return got;
}

/* Rank 0: hand out parts 1..n to ranks 1..size-1 (or count them itself),
 * add up what comes back.  0, or EXIT_ERROR after saying why.  Stopped by
 * a signal (Ctrl-C through mpirun), it says "count: interrupted" and
 * leaves the workers to their own stop (or the watchdog's). */
static int master(job *j, int n, int size) {
  tally t;
  tally_init(&t, j->m->ncells, j->o.by_tile != NULL);
  int rc = 0, next = 1, done = 0, busy = 0;
  for (int w = 1; w < size; w++) { /* a part each, or stop */
    send_part(w, next <= n ? next : 0);
    if (next <= n) {
      next++;
      busy++;
    }
  }
  while (size == 1 ? next <= n && !rc : busy > 0) {
    int from = 0, k = next;
    bool stopped;
    char *got = size == 1 ? count_part(j, next++, n)
                          : next_answer(&from, &k, &busy, &stopped);
    if ((size > 1 && stopped) || stop_requested()) {
      free(got);
      break;
    }
    if (!got || got[0] == '!' || !tally_add(&t, got)) {
      if (!rc) /* the first error only; the other workers finish theirs */
        fail("part %d/%d: %s", k, n,
             !got            ? "out of memory"
             : got[0] == '!' ? got + 1
                             : "garbled");
      rc = EXIT_ERROR;
    } else {
      report(&j->pr, ++done, n);
    }
    free(got);
    if (size > 1) {
      bool more = next <= n && !rc;
      send_part(from, more ? next++ : 0);
      busy += more;
    }
  }
  if (stop_requested())
    rc = stop_said(&j->o);
  else if (!rc)
    rc = answer_write(j, &t);
  tally_clear(&t);
  return rc;
}

/* Ranks 1..: count the parts rank 0 sends until it sends 0. */
static void worker(const job *j, int n) {
  for (;;) {
    int k;
    MPI_Recv(&k, 1, MPI_INT, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!k)
      return;
    char *count = count_part(j, k, n);
    size_t len = (count ? strlen(count) : 0) + 16;
    char *msg = malloc(len);
    if (!msg) { /* (MPI_Abort does not return; gcc cannot know it) */
      MPI_Abort(MPI_COMM_WORLD, 1);
      return;
    }
    snprintf(msg, len, "%d %s", k, count ? count : "!out of memory");
    MPI_Send(msg, (int)strlen(msg), MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
    free(msg);
    free(count);
  }
}

/* ------------------------------------------------------------ --shard */

/* The outboxes handed over: each rank's segment for r to r, in bytes (a
 * rank that failed before its outbox was sized sends nothing), what this
 * rank was sent added to next (false if adding failed). */
static bool hand_over(ts_dp *s, ts_dp_layer *next, bool ok,
                      tilesat_error *err) {
  int size = s->nshards, me = s->shard;
  ts_dp_outbox *o = &s->out;
  int *counts = calloc(4 * (size_t)size, sizeof *counts);
  if (!counts)
    MPI_Abort(MPI_COMM_WORLD, 1);
  int *scount = counts, *sdispl = counts + size, *rcount = counts + 2 * size,
      *rdispl = counts + 3 * size;
  for (int r = 0; o->mem && r < size; r++)
    if (r != me) {
      scount[r] = (int)(o->n[r] * o->entry);
      o->sent += o->n[r];
      sdispl[r] = (int)(ts_dp_outbox_segment(s, r) - o->mem);
      o->n[r] = 0;
    }
  o->rounds++;
  MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
  size_t got = 0;
  for (int r = 0; r < size; r++) {
    rdispl[r] = (int)got;
    got += (size_t)rcount[r];
  }
  unsigned char *rbuf = malloc(got ? got : 1);
  if (!rbuf)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Alltoallv(o->mem, scount, sdispl, MPI_BYTE, rbuf, rcount, rdispl,
                MPI_BYTE, MPI_COMM_WORLD);
  free(counts);
  /* every rank's entries have the same width: the bound on the total, and
   * so nlimbs, is the same everywhere */
  ok = ok && ts_dp_outbox_receive(s, next, rbuf, got, err);
  free(rbuf);
  return ok;
}

/* The dp's exchange, one round (struct dp): the outboxes handed over,
 * then agree on failure (the first failed rank's message for all) and on
 * whether every rank is at its step's end; then bound the next layer's
 * total alike everywhere. */
static bool exchange(ts_dp *s, ts_dp_layer *next, bool ok, bool end, bool *done,
                     mpz_t total, tilesat_error *err) {
  int size = s->nshards, me = s->shard;
  ok = hand_over(s, next, ok, err);
  int mine[2] = {ok ? size : me, end}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all[0] < size) {
    MPI_Bcast(err, (int)sizeof *err, MPI_CHAR, all[0], MPI_COMM_WORLD);
    s->stopped = true;
    return false;
  }
  *done = all[1];
  if (!*done)
    return true;
  /* the next layer's total is below the sum of every rank's bound */
  long bits = (long)mpz_sizeinbase(total, 2), most, lg = 0;
  MPI_Allreduce(&bits, &most, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  while ((1L << lg) < size)
    lg++;
  mpz_set_ui(total, 0);
  mpz_setbit(total, (mp_bitcnt_t)(most + lg));
  mpz_sub_ui(total, total, 1);
  return true;
}

/* This rank's share of the last layer as a tally's text (with `by`, the
 * maps by their number of cells of the classes too); NULL: no memory. */
static char *shard_text(ts_dp *s, const ts_dp_layer *last, bool by,
                        int ncells) {
  mpz_t total, *dist = by ? malloc(((size_t)ncells + 1) * sizeof *dist) : NULL;
  if (by && !dist)
    return NULL;
  mpz_init(total);
  ts_dp_layer_total_kept(s, last, total);
  for (int k = 0; dist && k <= ncells; k++)
    mpz_init(dist[k]);
  for (size_t e = 0; dist && e < last->n; e++) {
    const unsigned char *key = (const unsigned char *)entry_key(last, e);
    mpz_t c;
    mpz_roinit_n(c, entry_count(s, last, e), last->nlimbs);
    if (ts_dp_ext_accept(s, key))
      mpz_add(dist[ts_dp_ext_by(s, key)], dist[ts_dp_ext_by(s, key)], c);
  }
  char *text = tally_text(total, (const mpz_t *)dist, ncells);
  for (int k = 0; dist && k <= ncells; k++)
    mpz_clear(dist[k]);
  free(dist);
  mpz_clear(total);
  return text;
}

/* Every rank's text to rank 0, added up there and written.  0, or
 * EXIT_ERROR (said by rank 0). */
static int shard_gather(job *j, const char *text, int rank, int size) {
  int len = (int)strlen(text), *lens = NULL, *displ = NULL, all = 0;
  if (rank == 0 && (!(lens = malloc((size_t)size * sizeof *lens)) ||
                    !(displ = malloc((size_t)size * sizeof *displ))))
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; r++) {
    displ[r] = all;
    all += lens[r] + 1;
  }
  char *texts = rank == 0 ? calloc((size_t)all + 1, 1) : NULL;
  if (rank == 0 && !texts)
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Gatherv(text, len, MPI_CHAR, texts, lens, displ, MPI_CHAR, 0,
              MPI_COMM_WORLD);
  int rc = 0;
  if (rank == 0) {
    tally t;
    tally_init(&t, j->m->ncells, j->by != NULL);
    for (int r = 0; r < size && !rc; r++)
      if (!tally_add(&t, texts + displ[r])) /* (texts are 0-separated) */
        rc = EXIT_ERROR;
    if (rc)
      fail("shard: a rank's count is garbled");
    else
      rc = answer_write(j, &t);
    tally_clear(&t);
  }
  free(texts);
  free(lens);
  free(displ);
  return rc;
}

/* count --method dp over every rank (--shard): 0 with the total printed by
 * rank 0, or EXIT_ERROR after rank 0 said why. */
static int shard_count(job *j, int rank, int size) {
  tilesat_error err = {0};
  const tilesat_map *m = counted(j);
  const tilesat_count_options *co = &j->co;
  ts_dp s;
  int opened = ts_dp_open_count(&s, m, co, TS_DP_PROBE, j->by, co->dp_plain_key,
                                TS_DP_SETS_SHARED, &err);
  int failed = opened != 0, any;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any) { /* the same map everywhere: the same error */
    if (rank == 0) {
      fail_err(&err);
      stop_commit(); /* mpirun's SIGTERM now is no interruption */
    }
    if (!opened)
      ts_dp_free(&s);
    return EXIT_ERROR;
  }
  s.nshards = size;
  s.shard = rank;
  s.exchange = exchange;
  const ts_dp_layer *last = NULL;
  if (ts_dp_start(&s, &s.layers[0], &err))
    last = ts_dp_run(&s, &s.layers[0], 0, m->ncells, &err);
  else /* (tiny: never expected) */
    MPI_Abort(MPI_COMM_WORLD, 1);
  int rc = 0;
  if (!last) {
    rc = EXIT_ERROR;
    if (rank == 0 && stop_requested())
      rc = stop_said(&j->o);
    else if (rank == 0) {
      fail_err(&err);
      stop_commit();
    }
  } else {
    unsigned long sent = 0;
    MPI_Reduce(&s.out.sent, &sent, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0,
               MPI_COMM_WORLD);
    if (rank == 0 && co->progress) {
      char line[160];
      snprintf(line, sizeof line,
               "shard: %d ranks, %d steps, %lu rounds of exchange, %lu "
               "successors handed over",
               size, m->ncells, s.out.rounds, sent);
      co->progress(co->progress_user, line);
    }
    char *text = shard_text(&s, last, j->by != NULL, m->ncells);
    if (!text)
      MPI_Abort(MPI_COMM_WORLD, 1);
    rc = shard_gather(j, text, rank, size);
    free(text);
  }
  ts_dp_free(&s);
  return rc;
}

/* --shard, --parts N and -o FILE in front of count's arguments, in any
 * order: 0 with the arguments after them, or EXIT_ERROR (said). */
static int parse_front(int *argc, char ***argv, job *j) {
  bool parts = false;
  while (*argc >= 2 && (*argv)[1][0] == '-') {
    const char *a = (*argv)[1], *v = *argc >= 3 ? (*argv)[2] : NULL;
    if (!strcmp(a, "--shard")) {
      j->shard = true;
      (*argc)--;
      (*argv)++;
      continue;
    }
    if (strcmp(a, "--parts") && strcmp(a, "-o"))
      break;
    if (!v) {
      fail("%s needs a value", a);
      return EXIT_ERROR;
    }
    if (!strcmp(a, "-o")) {
      j->out = v;
    } else {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || n < 1 || n > TILESAT_MAX_PARTS || v[0] < '0' || v[0] > '9') {
        fail("--parts: '%s' is not a whole number from 1 to %d", v,
             TILESAT_MAX_PARTS);
        return EXIT_ERROR;
      }
      j->parts = (int)n;
      parts = true;
    }
    *argc -= 2;
    *argv += 2;
  }
  if (j->shard && parts) {
    fail("--shard and --parts: one or the other");
    return EXIT_ERROR;
  }
  return 0;
}

/* count's options that tilesat-mpi keeps, answering as count does; it
 * refuses the others by name (options_refuse_unkept): --part (it makes
 * the parts itself) and the options of the methods that are not exact. */
static const enum option_id kept[] = {
    OPTION_size,       OPTION_topology,  OPTION_periodic,    OPTION_pins,
    OPTION_pins_from,  OPTION_free_tile, OPTION_constraints, OPTION_connected,
    OPTION_path,       OPTION_count_of,  OPTION_border,      OPTION_mask,
    OPTION_backend,    OPTION_method,    OPTION_by_tile,     OPTION_seed,
    OPTION_max_memory, OPTION_layer};

/* The method: exact, and the one the mode runs. */
static int check_method(const job *j) {
  tilesat_method mt = j->co.method;
  if (mt != TILESAT_METHOD_AUTO && mt != TILESAT_METHOD_DP &&
      mt != TILESAT_METHOD_ENUM) {
    fail("--method: the parts' counts must be exact: dp or enum, not %s",
         j->o.method);
    return EXIT_ERROR;
  }
  if (j->shard && mt == TILESAT_METHOD_ENUM) {
    fail("--shard shares the dp: --method dp (or auto), not enum");
    return EXIT_ERROR;
  }
  return 0;
}

/* What the ranks count, refused as count refuses it: the dp's refusal
 * (count's own words) unless enum; borders as bans.  Parts keep no other
 * constraint: without --parts the shard takes a map that has one; with
 * it, the refusal names it. */
static int prepare(job *j, bool parts_given) {
  tilesat_error err;
  if (j->co.method == TILESAT_METHOD_ENUM)
    j->low = ts_map_lowered(j->m);
  else if (ts_count_dp_map(j->m, &j->co, &j->low, &err))
    return fail_err(&err);
  bool constrained = tilesat_map_refuse_globals(counted(j), 0, "", NULL, NULL);
  if (constrained && !j->shard && !parts_given &&
      j->co.method != TILESAT_METHOD_ENUM)
    j->shard = true;
  if (!j->shard &&
      tilesat_map_refuse_globals(
          counted(j), 0, "tilesat-mpi --parts",
          j->co.method == TILESAT_METHOD_ENUM
              ? "; tilesat count --method enum keeps it"
              : "; tilesat-mpi --shard (or without --parts) keeps it",
          &err))
    return fail_err(&err);
  if (j->shard && j->o.by_tile &&
      !(j->by = ts_class_parse(j->m, j->o.by_tile, "--by-tile", &err)))
    return fail_err(&err);
  return 0;
}

/* Under mpirun standard input reaches rank 0 alone: "-" for an input is
 * refused on more ranks (the others would read nothing). */
static int refuse_stdin(const options *o, int size) {
  const char *opt = NULL;
  if (o->args.n && !strcmp(o->args.v[0], "-"))
    opt = "RULES";
  for (int i = 0; i < o->pins_from.n; i++)
    opt = strcmp(o->pins_from.v[i], "-") ? opt : "--pins-from";
  for (int i = 0; i < o->constraints.n; i++)
    opt = strcmp(o->constraints.v[i], "-") ? opt : "--constraints";
  if (o->mask && !strcmp(o->mask, "-"))
    opt = "--mask";
  if (!opt || size == 1)
    return 0;
  fail("%s: - (standard input) reaches rank 0 alone under mpirun: give a "
       "file every rank can read",
       opt);
  return EXIT_ERROR;
}

/* Rank 0 first, so that a bad argument is said once; then the others.
 * 0 when every rank has its job, or EXIT_ERROR on every rank. */
static int setup(job *j, int rank, int size, int *argc, char ***argv) {
  int rc = 0;
  for (int turn = 0; turn < 2; turn++) {
    if ((rank == 0) == (turn == 0)) {
      rc = parse_front(argc, argv, j);
      bool parts_given = j->parts > 0;
      if (!rc)
        rc = options_parse(&j->o, "count", *argc - 1, *argv + 1);
      if (!rc && j->o.help) {
        fail("usage: mpirun -np P tilesat-mpi [--parts N | --shard] [-o FILE] "
             "RULES --size WxH [count's options but --part, --strip-width, "
             "--epsilon, --delta, --particles, --replicates]");
        rc = EXIT_ERROR;
      }
      if (!rc)
        rc = options_refuse_unkept(
            &j->o, "tilesat-mpi", kept, sizeof kept / sizeof *kept,
            "it counts exactly, by the dp or enumeration (tilesat count "
            "takes it)");
      if (!rc)
        rc = refuse_stdin(&j->o, size);
      /* -o FILE: not an input, and writable, before any work */
      j->o.output = j->out;
      if (!rc && rank == 0)
        rc = check_outputs(&j->o);
      if (!rc)
        rc = counting_setup(&j->o, &j->r, &j->m, &j->co, &j->pr);
      if (!rc)
        rc = check_method(j);
      if (!rc)
        rc = prepare(j, parts_given);
    }
    /* rank 0 has said why it fails: the SIGTERM mpirun may send it, once
     * a worker has ended with that exit code, is no interruption */
    if (rc && rank == 0)
      stop_commit();
    int any;
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if ((rc = any))
      break;
  }
  return rc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Ctrl-C: mpirun sends the ranks SIGTERM; rank 0 says it */
  stop_install(rank == 0 ? "count" : NULL);
  job j;
  memset(&j, 0, sizeof j);
  int rc = setup(&j, rank, size, &argc, &argv);
  if (!rc && rank != 0)
    j.co.progress = j.co.notice = j.co.solve.progress = NULL;
  if (!rc && j.shard) {
    rc = shard_count(&j, rank, size);
  } else if (!rc) {
    int n = j.parts ? j.parts : 8 * (size > 1 ? size - 1 : 1);
    if (rank == 0)
      rc = master(&j, n, size);
    else
      worker(&j, n);
  }
  free(j.by);
  tilesat_map_free(j.low);
  tilesat_map_free(j.m);
  tilesat_rules_free(j.r);
  options_free(&j.o);
  if (rank == 0) /* the total lost to a full disk is an error */
    rc = stdout_end(rc);
  /* Stopped by a signal with the parts handed out, the workers end on their
   * own watchdog (they wait for a part that will not come): rank 0 does not
   * wait for them in MPI_Finalize, whose fence with peers that vanish
   * mid-way is Open MPI's to get wrong (CI saw mpirun exit 139 once in
   * this case).  --shard's ranks agree to stop and finalize together. */
  if (stop_requested() && !j.shard)
    _exit(rc);
  MPI_Finalize();
  return rc;
}
