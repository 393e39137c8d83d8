/* stop.c: stopping on Ctrl-C (SIGINT), SIGTERM, SIGHUP (the terminal
 * closed) or SIGQUIT, cleanly and soon.
 *
 * A stop must never leave half an answer: no cut-off map on standard
 * output, no partial file (files are written to a temporary and renamed,
 * see files.c).  Two ways to stop, chosen by what the command is doing:
 *
 *  - polled: a solving command (after parse_backend) has the library poll
 *    the flag through its terminate callback, and prints maps whole between
 *    polls; the signal only sets the flag and the command ends on its own
 *    with "COMMAND: interrupted".  Should the library not reach a poll
 *    within WATCHDOG_NS (loading a huge CNF into a solver), the watchdog
 *    ends the process as below.
 *  - at once: a command that never polls (encode, extract, trace, and
 *    every command while it reads its input) ends in the handler itself:
 *    the message, the registered temporaries removed, _exit(1).
 *
 * Around what must not be cut (printing a map, putting the files in place
 * and the answer out) the command holds the stop: the signal then only
 * sets the flag, and stop_release ends the process if it must.  Once the
 * files are in place and the answer out (stop_commit), a signal is too
 * late and changes nothing.  Everything the handlers do is
 * async-signal-safe (write, unlink, _exit, timer_settime). */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WATCHDOG_NS 500000000L /* well within a second of the signal */

static volatile sig_atomic_t stopped, polled, held, said, has_timer, pending,
    signals, committed;
static char message[160]; /* "tilesat: COMMAND: interrupted\n" */
/* The temporary files being written, to remove: a slot each (set after its
 * path is in place, cleared before it is reused). */
#define TEMPS 16
static char temps[TEMPS][4096];
static volatile sig_atomic_t temp_used[TEMPS];
static timer_t watchdog;

static _Noreturn void die(void) {
  /* once the command has said it was interrupted, the watchdog only ends a
   * slow exit (a sanitizer's leak check, a loaded machine): no second line */
  if (!said) {
    ssize_t ignored = write(2, message, strlen(message));
    (void)ignored;
  }
  for (int i = 0; i < TEMPS; i++)
    if (temp_used[i])
      unlink(temps[i]);
  _exit(EXIT_ERROR);
}

static void arm(long ns) {
  struct itimerspec t = {{0, 0}, {ns / 1000000000L, ns % 1000000000L}};
  if (has_timer)
    timer_settime(watchdog, 0, &t, NULL);
}

static void on_signal(int sig) {
  /* the answer is out and the files in place: too late to stop */
  if ((sig == SIGALRM && !stopped) || committed)
    return;
  if (sig != SIGALRM)
    signals++;
  /* the watchdog, a second signal, or a command that does not poll */
  bool now = sig == SIGALRM || stopped || !polled;
  stopped = 1;
  /* a second signal does not wait for a hold: the held write may block */
  if ((now && !held) || (held && signals >= 2))
    die();
  else if (now)
    pending = 1;
  else if (!held)
    arm(WATCHDOG_NS);
}

void stop_install(const char *name) {
  if (name)
    snprintf(message, sizeof message, "tilesat: %s: interrupted\n", name);
  struct sigevent ev;
  memset(&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_SIGNAL;
  ev.sigev_signo = SIGALRM;
  has_timer = !timer_create(CLOCK_MONOTONIC, &ev, &watchdog);
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    /* a signal ignored when we started (nohup, a background job) stays so */
    if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
      continue;
    sigaction(sigs[i], &sa, NULL);
  }
}

bool stop_requested(void) { return stopped; }

int stop_terminate(void *user) {
  (void)user;
  return stopped;
}

void stop_polled(void) { polled = 1; }

/* (holds nest: putting a file in place within the end of the command) */
void stop_hold(void) { held++; }

void stop_release(void) {
  /* what was held leaves whole, before any signal ends us; a write error
   * is kept for stdout_end to say */
  errno = 0;
  if (fflush(stdout))
    stdout_failed();
  if (--held > 0)
    return;
  if (pending && !committed)
    die();
  if (stopped && !committed)
    arm(WATCHDOG_NS);
}

void stop_commit(void) { committed = 1; }

int stop_temp_add(const char *path) {
  if (strlen(path) >= sizeof temps[0])
    return -1;
  for (int i = 0; i < TEMPS; i++)
    if (!temp_used[i]) {
      memcpy(temps[i], path, strlen(path) + 1);
      atomic_signal_fence(memory_order_seq_cst); /* the path, then the flag */
      temp_used[i] = 1;
      return i;
    }
  return -1;
}

void stop_temp_remove(int slot) {
  if (slot >= 0 && slot < TEMPS)
    temp_used[slot] = 0;
}

int stop_said(const options *o) {
  fail("%s: interrupted", o->command);
  said = 1;
  return EXIT_ERROR;
}

int stop_end(const options *o, int rc) {
  if (stopped && !said)
    return stop_said(o);
  return stopped ? EXIT_ERROR : rc;
}
