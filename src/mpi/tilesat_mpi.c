/* tilesat_mpi.c: tilesat-mpi, `tilesat count` over MPI ranks, for parts
 * of uneven cost, or one dp whose layers the ranks share.
 *
 *   mpirun -np P tilesat-mpi [--parts N] RULES --size WxH [count's options]
 *   mpirun -np P tilesat-mpi --shard RULES --size WxH [count's options]
 *
 * --shard: one dp (count --method dp) whose states are split over the
 * ranks by a hash of their key: each rank extends its own states, sends
 * each successor to the rank that owns it (one all-to-all exchange a
 * cell, the GMP counts as limbs), and the ranks' totals are added on
 * rank 0.  Each rank holds and works on about 1/P of every layer.
 *
 * The problem is cut into N parts (default 8 per worker) as `count --part
 * K/N` cuts it; rank 0 hands the parts out one at a time to the other
 * ranks as they come back, each worker counts its part through the library
 * (tilesat_count_part) and sends the count back as a decimal string, and
 * rank 0 adds them up (GMP) and prints what `count` prints: the number of
 * valid maps as the last line.  With one rank, rank 0 counts every part
 * itself.  Every rank reads the rules and map options itself (a shared
 * file system, or the same files on every host).  Exit 0, or 1 after an
 * error (said once, by rank 0). */
#include "cli/cli.h"
#include "count/dp.h"

#include <gmp.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_WORK = 1, TAG_DONE = 2 };

/* Rank 0's count of done parts on stderr, at most once a second. */
static void report(count_progress *pr, int done, int n) {
  char line[96];
  snprintf(line, sizeof line, "%d of %d parts counted", done, n);
  progress_report(pr, line);
}

/* Count part k: "COUNT" or "!ERROR" (malloc'd). */
static char *count_part(const tilesat_map *m, int k, int n,
                        const tilesat_count_options *co) {
  tilesat_count_result res;
  tilesat_error err;
  if (tilesat_count_part(m, k, n, co, &res, &err)) {
    size_t len = strlen(err.msg) + 2;
    char *msg = malloc(len);
    if (msg)
      snprintf(msg, len, "!%s", err.msg);
    return msg;
  }
  return res.count;
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

/* Rank 0: hand out parts 1..n to ranks 1..size-1 (or count them itself),
 * add up what comes back.  0, or EXIT_ERROR after saying why.  Stopped by
 * a signal (Ctrl-C through mpirun), it says "count: interrupted" and
 * leaves the workers to their own stop (or the watchdog's). */
static int master(const options *o, const tilesat_map *m, int n, int size,
                  const tilesat_count_options *co, count_progress *pr) {
  mpz_t total, c;
  mpz_inits(total, c, NULL);
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
    char *got = NULL;
    if (size == 1) {
      got = count_part(m, next++, n, co);
    } else {
      char *msg = receive(TAG_DONE, &from);
      if (!msg) /* a signal */
        break;
      busy--;
      char *space = strchr(msg, ' ');
      k = atoi(msg);
      got = strdup(space ? space + 1 : "!garbled answer");
      free(msg);
    }
    if (stop_requested()) {
      free(got);
      break;
    }
    if (!got || got[0] == '!') {
      if (!rc) /* the first error only; the other workers finish theirs */
        fail("part %d/%d: %s", k, n, got ? got + 1 : "out of memory");
      rc = EXIT_ERROR;
    } else {
      mpz_set_str(c, got, 10);
      mpz_add(total, total, c);
      report(pr, ++done, n);
    }
    free(got);
    if (size > 1) {
      bool more = next <= n && !rc;
      send_part(from, more ? next++ : 0);
      busy += more;
    }
  }
  if (stop_requested())
    rc = stop_said(o);
  else if (!rc)
    gmp_printf("%Zd\n", total);
  mpz_clears(total, c, NULL);
  return rc;
}

/* Ranks 1..: count the parts rank 0 sends until it sends 0. */
static void worker(const tilesat_map *m, int n,
                   const tilesat_count_options *co) {
  for (;;) {
    int k;
    MPI_Recv(&k, 1, MPI_INT, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!k)
      return;
    char *count = count_part(m, k, n, co);
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
static bool hand_over(dp *s, layer *next, bool ok, tilesat_error *err) {
  int size = s->nshards, me = s->shard;
  dp_outbox *o = &s->out;
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
static bool exchange(dp *s, layer *next, bool ok, bool end, bool *done,
                     mpz_t total, tilesat_error *err) {
  int size = s->nshards, me = s->shard;
  ok = hand_over(s, next, ok, err);
  int mine[2] = {ok ? size : me, end}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all[0] < size) {
    MPI_Bcast(err->msg, (int)sizeof err->msg, MPI_CHAR, all[0], MPI_COMM_WORLD);
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

/* count --method dp over every rank (--shard): 0 with the total printed by
 * rank 0, or EXIT_ERROR after rank 0 said why. */
static int shard_count(const options *o, const tilesat_map *m, int rank,
                       int size, const tilesat_count_options *co) {
  tilesat_error err = {0};
  dp s;
  int opened = ts_dp_open_count(&s, m, co, TS_DP_PROBE, NULL, co->dp_plain_key,
                                TS_DP_SETS_SHARED, &err);
  int failed = opened != 0, any;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any) { /* the same map everywhere: the same error */
    if (rank == 0)
      fail("%s", err.msg);
    if (!opened)
      ts_dp_free(&s);
    return EXIT_ERROR;
  }
  s.nshards = size;
  s.shard = rank;
  s.exchange = exchange;
  const layer *last = NULL;
  if (ts_dp_start(&s, &s.layers[0], &err))
    last = ts_dp_run(&s, &s.layers[0], 0, m->ncells, &err);
  else /* (tiny: never expected) */
    MPI_Abort(MPI_COMM_WORLD, 1);
  int rc = 0;
  if (!last) {
    rc = EXIT_ERROR;
    if (rank == 0 && stop_requested())
      rc = stop_said(o);
    else if (rank == 0)
      fail("%s", err.msg);
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
    mpz_t total;
    mpz_init(total);
    ts_dp_layer_total_kept(&s, last, total);
    /* the ranks' totals to rank 0, as limbs */
    int n = (int)mpz_size(total);
    int *ns = rank == 0 ? malloc((size_t)size * sizeof *ns) : NULL;
    MPI_Gather(&n, 1, MPI_INT, ns, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int *displ = rank == 0 ? calloc((size_t)size, sizeof *displ) : NULL;
    int all = 0;
    for (int r = 0; rank == 0 && r < size; r++) {
      displ[r] = all;
      all += ns[r];
    }
    mp_limb_t *limbs =
        rank == 0 ? malloc(((size_t)all + 1) * sizeof *limbs) : NULL;
    MPI_Gatherv(mpz_limbs_read(total), n, MPI_UINT64_T, limbs, ns, displ,
                MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      mpz_t sum, part;
      mpz_init(sum);
      for (int r = 0; r < size; r++)
        mpz_add(sum, sum, mpz_roinit_n(part, limbs + displ[r], ns[r]));
      gmp_printf("%Zd\n", sum);
      mpz_clear(sum);
    }
    free(ns);
    free(displ);
    free(limbs);
    mpz_clear(total);
  }
  ts_dp_free(&s);
  return rc;
}

/* --parts N in front of count's arguments: 0 with *n (0: not given) and
 * the arguments after it, or EXIT_ERROR. */
static int parse_parts(int *argc, char ***argv, int *n, bool *shard) {
  *n = 0;
  *shard = *argc >= 2 && !strcmp((*argv)[1], "--shard");
  if (*shard) {
    (*argc)--;
    (*argv)++;
  }
  if (*shard && *argc >= 2 && !strcmp((*argv)[1], "--parts")) {
    fail("--shard and --parts: one or the other");
    return EXIT_ERROR;
  }
  if (*argc >= 2 && !strcmp((*argv)[1], "--parts")) {
    char *end;
    long v = *argc >= 3 ? strtol((*argv)[2], &end, 10) : 0;
    if (*argc < 3 || *end || v < 1 || v > TILESAT_MAX_PARTS ||
        (*argv)[2][0] < '0' || (*argv)[2][0] > '9') {
      fail("--parts: '%s' is not a whole number from 1 to %d",
           *argc >= 3 ? (*argv)[2] : "", TILESAT_MAX_PARTS);
      return EXIT_ERROR;
    }
    *n = (int)v;
    *argc -= 2;
    *argv += 2;
  }
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Ctrl-C: mpirun sends the ranks SIGTERM; rank 0 says it */
  stop_install(rank == 0 ? "count" : NULL);
  int n = 0;
  bool shard = false;
  options o = {0};
  tilesat_rules *r = NULL;
  tilesat_map *m = NULL;
  tilesat_count_options co;
  count_progress pr = {0};
  /* rank 0 first, so that a bad argument is said once; then the others */
  int rc = 0;
  for (int turn = 0; turn < 2; turn++) {
    if ((rank == 0) == (turn == 0)) {
      rc = parse_parts(&argc, &argv, &n, &shard);
      if (!rc)
        rc = options_parse(&o, "count", argc - 1, argv + 1);
      if (!rc && (o.help || o.part)) {
        fail("usage: mpirun -np P tilesat-mpi [--parts N | --shard] RULES "
             "--size WxH [count's options but --part]");
        rc = EXIT_ERROR;
      }
      if (!rc)
        rc = counting_setup(&o, &r, &m, &co, &pr);
      if (!rc && co.method != TILESAT_METHOD_AUTO &&
          co.method != TILESAT_METHOD_DP && co.method != TILESAT_METHOD_ENUM) {
        fail("--method: the parts' counts must be exact: dp or enum, not %s",
             o.method);
        rc = EXIT_ERROR;
      }
      if (!rc && shard && co.method == TILESAT_METHOD_ENUM) {
        fail("--shard shares the dp: --method dp (or auto), not enum");
        rc = EXIT_ERROR;
      }
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
  if (!rc && shard) {
    if (rank != 0)
      co.progress = co.notice = co.solve.progress = NULL;
    rc = shard_count(&o, m, rank, size, &co);
  } else if (!rc) {
    if (!n)
      n = 8 * (size > 1 ? size - 1 : 1);
    if (rank == 0) {
      rc = master(&o, m, n, size, &co, &pr);
    } else {
      co.progress = co.notice = co.solve.progress = NULL;
      worker(m, n, &co);
    }
  }
  tilesat_map_free(m);
  tilesat_rules_free(r);
  options_free(&o);
  if (rank == 0) /* the total lost to a full disk is an error */
    rc = stdout_end(rc);
  MPI_Finalize();
  return rc;
}
