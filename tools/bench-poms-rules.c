/* bench-poms-rules.c: a square rules file as a POMS config
 * (zzyzek/PunchOutModelSynthesis, its JSON "rule", "name", "weight",
 * "boundaryCondition", "constraint", "size" and "quiltSize"), for
 * tools/bench-peers.sh.
 *
 *   bench-poms-rules RULES W H > config.json
 *
 * POMS's tile 0 is the map's outside, as in its own configs (its runs folder): it
 * may stand next to every tile in every direction, is the boundary on
 * every side and is removed from every cell; tilesat's tile t is POMS's
 * t + 1.  Rule [a, b, d, 1]: b may stand at a's side d (0 x+, 1 x-, 2 y+,
 * 3 y-, 4 z+, 5 z-): east x+, west x-, south y+ (rows grow to the south,
 * as Tiled's), north y-; the map is one cell deep (z). */
#include "tilesat.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench-poms-rules RULES W H\n");
    return 1;
  }
  tilesat_error err;
  tilesat_rules *r = tilesat_rules_read_file(argv[1], &err);
  if (!r || tilesat_rules_topology(r) != TILESAT_SQUARE) {
    fprintf(stderr, "bench-poms-rules: %s\n",
            r ? "square rules only" : err.msg);
    tilesat_rules_free(r);
    return 1;
  }
  int T = tilesat_rules_ntiles(r), w = atoi(argv[2]), h = atoi(argv[3]);
  static const int pd[4] = {3, 0, 2, 1}; /* N E S W as POMS's sides */
  printf("{\n\"rule\":[");
  const char *sep = "\n";
  for (int a = 0; a <= T; a++)
    for (int d = 0; d < 6; d++) {
      /* the outside next to everything, both ways */
      printf("%s[0,%d,%d,1],[%d,0,%d,1]", sep, a, d, a, d);
      sep = ",\n";
    }
  for (int a = 0; a < T; a++)
    for (int d = 0; d < 4; d++)
      for (int b = 0; b < T; b++)
        if (tilesat_rules_allows(r, a, d, b))
          printf(",[%d,%d,%d,1]", a + 1, b + 1, pd[d]);
  printf("\n],\n\"name\":[\"outside\"");
  for (int t = 0; t < T; t++)
    printf(",\"t%d\"", t);
  printf("],\n\"weight\":[1");
  for (int t = 0; t < T; t++)
    printf(",%llu", (unsigned long long)tilesat_rules_weight(r, t));
  printf("],\n\"boundaryCondition\":{");
  static const char *const sides[6] = {"x+", "x-", "y+", "y-", "z+", "z-"};
  for (int s = 0; s < 6; s++)
    printf("%s\"%s\":{\"type\":\"tile\",\"value\":0}", s ? "," : "", sides[s]);
  printf("},\n\"constraint\":[{\"type\":\"remove\",\"range\":{\"tile\":[0,1],"
         "\"x\":[],\"y\":[],\"z\":[]}}],\n");
  printf("\"size\":[%d,%d,1],\n\"quiltSize\":[%d,%d,1]\n}\n", w, h, w, h);
  tilesat_rules_free(r);
  return 0;
}
