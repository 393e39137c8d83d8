/* collapse -n RUNS --explain's advice for designers, re-measured: for each
 * change the JSON claims, the test makes the change itself (an allow line
 * and its mirror added to the rules, a tile line's weight rewritten,
 * --periodic, --border all=TILE), runs collapse again on the same seeds
 * (the same failures, exactly) and on seeds of its own (the claimed rate
 * within a binomial bound of the rerun's).  The text says what the JSON
 * says, line for line; a rule set that never fails gets one sentence. */
#include "helpers.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A 3-colouring (R, G, B: neighbours differ, so WFC fails when a cell sees
 * all three) and W, allowed next to itself alone. */
static char *colours(const long weight[4], const char *extra) {
  static const char *const tiles[] = {"R", "G", "B", "W"};
  static const char *const others[] = {"G B", "R B", "R G", "W"};
  size_t cap = 4096;
  char *text = malloc(cap);
  int n = snprintf(text, cap, "tilesat-rules 1\ntopology square\n");
  for (int t = 0; t < 4; t++)
    n += snprintf(text + n, cap - (size_t)n, "tile %s %ld\n", tiles[t],
                  weight[t]);
  for (int t = 0; t < 4; t++)
    for (const char *d = "NESW"; *d; d++)
      n += snprintf(text + n, cap - (size_t)n, "allow %s %c %s\n", tiles[t], *d,
                    others[t]);
  snprintf(text + n, cap - (size_t)n, "%s", extra);
  return text;
}

static const cJSON *item(const cJSON *o, const char *key) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
  cr_assert(j, "no '%s'", key);
  return j;
}

static long num(const cJSON *o, const char *key) {
  const cJSON *j = item(o, key);
  cr_assert(cJSON_IsNumber(j), "'%s' is not a number", key);
  return (long)j->valuedouble;
}

static const char *str(const cJSON *o, const char *key) {
  const cJSON *j = item(o, key);
  cr_assert(cJSON_IsString(j), "'%s' is not a string", key);
  return j->valuestring;
}

static int tile_index(const char *name) {
  const char *names = "RGBW";
  const char *p = strchr(names, name[0]);
  cr_assert(p && name[1] == 0, "unknown tile '%s'", name);
  return (int)(p - names);
}

static char opposite(char d) {
  return d == 'N' ? 'S' : d == 'S' ? 'N' : d == 'E' ? 'W' : 'E';
}

/* Contradictions of `collapse RULES --size 10x10 -n 200 --seed SEED`
 * with an option and its value (or none). */
static const char *heuristic = "entropy"; /* the test's collapse runs' */

static long contradictions(const char *rules, const char *seed, const char *opt,
                           const char *value) {
  const char *args[16] = {"collapse", rules,  "--size",      "10x10",
                          "-n",       "200",  "--seed",      seed,
                          "--format", "json", "--heuristic", heuristic};
  int n = 12;
  if (opt)
    args[n++] = opt;
  if (value)
    args[n++] = value;
  args[n] = NULL;
  run_result x = run_cli(args);
  cr_assert(x.code == 0 || x.code == 10, "%s", x.err);
  cJSON *doc = cJSON_Parse(x.out);
  cr_assert(doc, "not JSON:\n%s", x.out);
  long k = num(doc, "contradictions");
  cJSON_Delete(doc);
  run_free(&x);
  return k;
}

/* Two binomial counts of n runs each agree: within 4 standard deviations
 * of their difference (pooled rate), plus one for the rounding. */
static void expect_close(long k1, long k2, long n, const char *what) {
  double p = (double)(k1 + k2) / (double)(2 * n);
  double sd = sqrt(2.0 * (double)n * p * (1 - p));
  cr_expect(fabs((double)(k1 - k2)) <= 4 * sd + 1,
            "%s: %ld failures claimed, %ld rerun (of %ld)", what, k1, k2, n);
}

/* The advice of the rule set with `weight`, re-measured change by change;
 * returns the kinds seen (a bit each: allow, weight, wrap, border). */
static unsigned remeasure(const long weight[4]) {
  char *text = colours(weight, "");
  char *rules = temp_file(text, -1);
  run_result x = RUN("collapse", rules, "--size", "10x10", "-n", "200",
                     "--explain", "--format", "json", "--heuristic", heuristic);
  cr_assert(x.code == 0 || x.code == 10, "%s", x.err);
  cJSON *doc = cJSON_Parse(x.out);
  cr_assert(doc, "not JSON:\n%s", x.out);
  const cJSON *adv = item(doc, "advice");
  long runs = num(adv, "runs"), now = num(adv, "failures");
  cr_expect_eq(runs, 200);
  cr_expect_eq(num(adv, "first_seed"), 1);
  /* the map as it is: the runs' own count, and a rerun's */
  cr_expect_eq(now, num(doc, "contradictions"));
  cr_expect_eq(now, contradictions(rules, "1", NULL, NULL));
  cr_expect(now > 0, "the rule set should fail sometimes");
  unsigned kinds = 0;
  char border[64];
  const cJSON *ch;
  long best = -1, bestk = now, i = 0;
  cJSON_ArrayForEach(ch, item(adv, "changes")) {
    const char *kind = str(ch, "change");
    long claimed = num(ch, "failures");
    cr_expect_float_eq(item(ch, "rate")->valuedouble,
                       (double)claimed / (double)runs, 1e-12);
    char *changed = NULL;
    const char *opt = NULL, *value = NULL;
    if (!strcmp(kind, "allow")) {
      kinds |= 1;
      const char *a = str(ch, "tile"), *b = str(ch, "neighbour");
      char d = str(ch, "dir")[0], line[64];
      snprintf(line, sizeof line, "allow %s %c %s\nallow %s %c %s\n", a, d, b,
               b, opposite(d), a);
      changed = colours(weight, line);
    } else if (!strcmp(kind, "weight")) {
      kinds |= 2;
      long w[4], t = tile_index(str(ch, "tile"));
      cr_expect_eq(num(ch, "from"), weight[t]);
      for (int u = 0; u < 4; u++)
        w[u] = u == t ? num(ch, "to") : weight[u] * num(ch, "others");
      changed = colours(w, "");
    } else if (!strcmp(kind, "wrap")) {
      kinds |= 4;
      opt = "--periodic";
    } else {
      cr_assert_str_eq(kind, "border");
      kinds |= 8;
      snprintf(border, sizeof border, "all=%s", str(ch, "tile"));
      opt = "--border";
      value = border;
    }
    char *path = changed ? temp_file(changed, -1) : rules;
    /* the same seeds: the same runs; seeds of the test's own: close */
    cr_expect_eq(contradictions(path, "1", opt, value), claimed,
                 "change %ld (%s)", i, kind);
    expect_close(claimed, contradictions(path, "1001", opt, value), runs, kind);
    if (claimed < bestk) {
      best = i;
      bestk = claimed;
    }
    if (changed)
      free(path);
    free(changed);
    i++;
  }
  const cJSON *b = item(adv, "best");
  if (best < 0)
    cr_expect(cJSON_IsNull(b));
  else
    cr_expect_eq(num(adv, "best"), best);
  cJSON_Delete(doc);
  run_free(&x);
  free(rules);
  free(text);
  return kinds;
}

Test(advice, each_claimed_rate_holds_when_the_test_makes_the_change) {
  unsigned kinds = remeasure((const long[]){4, 4, 4, 1});
  cr_expect_eq(kinds, 15u,
               "kinds tried: %x (allow 1, weight 2, wrap 4, "
               "border 8)",
               kinds);
}

/* Weights of 1 cannot go lower: the others are raised instead.  Observed
 * by fewest tiles, where weights only choose the tiles (by entropy, any
 * unequal weights end this rule set's failures), so that the rates the
 * weights make differ. */
Test(advice, a_weight_of_one_is_lowered_by_raising_the_others) {
  heuristic = "mrv";
  unsigned kinds = remeasure((const long[]){1, 1, 1, 1});
  cr_expect(kinds & 2, "no weight change tried");
}

/* The text, line by line, from the JSON's numbers. */
static void change_words(const cJSON *ch, const cJSON *adv, char *out,
                         size_t len) {
  const char *kind = str(ch, "change");
  static const char *const words[] = {"north", "east", "south", "west"};
  char what[256];
  if (!strcmp(kind, "allow"))
    snprintf(what, sizeof what, "allowing \"%s\" next to \"%s\" (%s)",
             str(ch, "tile"), str(ch, "neighbour"),
             words[strchr("NESW", str(ch, "dir")[0]) - "NESW"]);
  else if (!strcmp(kind, "weight") && num(ch, "others") > 1)
    snprintf(what, sizeof what,
             "lowering the weight of \"%s\" to a quarter (every other weight "
             "times %ld)",
             str(ch, "tile"), num(ch, "others"));
  else if (!strcmp(kind, "weight"))
    snprintf(what, sizeof what, "lowering the weight of \"%s\" from %ld to %ld",
             str(ch, "tile"), num(ch, "from"), num(ch, "to"));
  else if (!strcmp(kind, "wrap"))
    snprintf(what, sizeof what, "wrapping the map (--periodic)");
  else
    snprintf(what, sizeof what, "a border of \"%s\" (--border all=%s)",
             str(ch, "tile"), str(ch, "tile"));
  long runs = num(adv, "runs");
  snprintf(out, len, "%s drops failures from %.1f%% to %.1f%% (%ld runs)\n",
           what, 100.0 * (double)num(adv, "failures") / (double)runs,
           100.0 * (double)num(ch, "failures") / (double)runs, runs);
}

Test(advice, the_text_says_what_the_json_says) {
  char *text = colours((const long[]){4, 4, 4, 1}, "");
  char *rules = temp_file(text, -1);
  run_result t =
      RUN("collapse", rules, "--size", "10x10", "-n", "200", "--explain");
  run_result j = RUN("collapse", rules, "--size", "10x10", "-n", "200",
                     "--explain", "--format", "json");
  cr_assert_eq(t.code, 10, "%s", t.err);
  cr_assert_eq(j.code, 10, "%s", j.err);
  cJSON *doc = cJSON_Parse(j.out);
  const cJSON *adv = item(doc, "advice"), *d = item(doc, "doomed");
  const cJSON *changes = item(adv, "changes");
  char want[8192], line[512];
  size_t n = 0;
  n += (size_t)snprintf(want + n, sizeof want - n,
                        "advice for designers (the same 200 seeds run again "
                        "with each change; %d changes tried):\n",
                        cJSON_GetArraySize(changes));
  long explained = num(d, "failed_runs") - num(d, "no_map");
  const cJSON *s;
  int pairs = 0;
  cJSON_ArrayForEach(s, item(adv, "suspects")) {
    long runs = num(s, "runs"), border = num(s, "on_border");
    n +=
        (size_t)snprintf(want + n, sizeof want - n, "  \"%s\"", str(s, "tile"));
    if (cJSON_GetObjectItem(s, "neighbour")) {
      static const char *const words[] = {"north", "east", "south", "west"};
      pairs++;
      n += (size_t)snprintf(want + n, sizeof want - n, " with \"%s\" to its %s",
                            str(s, "neighbour"),
                            words[strchr("NESW", str(s, "dir")[0]) - "NESW"]);
    }
    n += (size_t)snprintf(
        want + n, sizeof want - n,
        " in %.1f%% of the doomed sets (%ld on the border, %ld inside):\n    ",
        100.0 * (double)runs / (double)explained, border, runs - border);
    const cJSON *b = item(s, "best");
    if (cJSON_IsNull(b))
      snprintf(line, sizeof line, "no change tried lowers the failures\n");
    else
      change_words(cJSON_GetArrayItem(changes, b->valueint), adv, line,
                   sizeof line);
    n += (size_t)snprintf(want + n, sizeof want - n, "%s", line);
  }
  cr_expect_eq(pairs, 3, "three pairs among the suspects");
  change_words(cJSON_GetArrayItem(changes, (int)num(adv, "best")), adv, line,
               sizeof line);
  snprintf(want + n, sizeof want - n, "  the change that helps most: %s", line);
  const char *got = strstr(t.out, "advice for designers");
  cr_assert(got, "no advice in:\n%s", t.out);
  cr_expect_str_eq(got, want);
  cJSON_Delete(doc);
  run_free(&t);
  run_free(&j);
  free(rules);
  free(text);
}

Test(advice, a_rule_set_that_never_fails_gets_one_sentence) {
  run_result t = RUN("collapse", "rules/coast.rules", "--size", "8x8", "-n",
                     "50", "--explain");
  cr_assert_eq(t.code, 10, "%s", t.err);
  const char *got = strstr(t.out, "advice for designers");
  cr_assert(got, "no advice in:\n%s", t.out);
  cr_expect_str_eq(got, "advice for designers: no run failed (50 runs, seeds "
                        "1 to 50): nothing to change\n");
  run_result j = RUN("collapse", "rules/coast.rules", "--size", "8x8", "-n",
                     "50", "--explain", "--format", "json");
  cr_assert_eq(j.code, 10, "%s", j.err);
  cJSON *doc = cJSON_Parse(j.out);
  const cJSON *adv = item(doc, "advice");
  cr_expect_eq(num(adv, "failures"), 0);
  cr_expect_eq(num(adv, "runs"), 50);
  cr_expect_eq(cJSON_GetArraySize(item(adv, "changes")), 0);
  cr_expect_eq(cJSON_GetArraySize(item(adv, "suspects")), 0);
  cr_expect(cJSON_IsNull(item(adv, "best")));
  cJSON_Delete(doc);
  run_free(&t);
  run_free(&j);
}
