/* options.h: every command-line option, once (Kissat's options.h is the
 * model).  The table generates the typed fields of `options` (cli.h), the
 * parsing of `--name VALUE` and `--name=VALUE`, the range checks with one
 * error format ("tilesat: OPTION: 'VALUE' is not WHAT", WHAT from the kind
 * and range), the `--help` lines and the man page (options.c, man.c).
 *
 *   OPT(ident, "--flag", KIND, default, low, high, "METAVAR", " commands ",
 *       "help")
 *   ALSO(ident, "METAVAR", " commands ", "help")
 *
 * ALSO is the same option (same field, kind and range) for other commands
 * with other words: --png draws a witness for check but domains for
 * explain.  Rows print in this order in --help.  Commands are listed each
 * wrapped in spaces.
 *
 * Kinds and their field types (every kind but FLAG and LIST takes one
 * value: given twice, it is an error, "--size given twice"):
 *   FLAG    bool, no value (given twice, still true)
 *   UINT    uint64_t, decimal digits only, in [low, high]
 *   REAL    double, finite, strictly between low and high
 *   BYTES   size_t, digits with an optional K, M or G, 1 to SIZE_MAX
 *   CHOICE  const char *, one of the METAVAR's words "a|b|c"
 *   STRING  const char *, a file or a name, taken as it is
 *   LIST    string_list, repeatable, in order (parsed later against the
 *           map: --pin and --choose name tiles)
 *   WXH     map_size, WIDTHxHEIGHT by tilesat_parse_size
 *   SPAN    real_span, LO:HI, each a REAL, low < LO <= HI
 *   TERM    const char *, a weight of the energy file format: the energy
 *           file's reader parses it, so an option and a file line accept
 *           exactly the same numbers (only one word is checked here)
 *
 * default is the field's value when the option is not given; the "default"
 * in a help text is what the command does then (for REAL and BYTES options
 * the library's, which differs between commands: hence 0 here). */
#ifndef TILESAT_CLI_OPTIONS_H
#define TILESAT_CLI_OPTIONS_H

#define TS_MAPS                                                                \
  " encode check enum count sample explain repair trace anneal collapse "
#define TS_DRAW " check enum sample anneal collapse world "
#define TS_MAPS_VERIFY TS_MAPS "verify "
#define TS_PNG                                                                 \
  " check enum sample explain trace analyze anneal collapse verify world "

#define OPTIONS                                                                \
  OPT(size, "--size", WXH, {0}, 0, 0, "WxH", TS_MAPS,                          \
      "map size, WIDTHxHEIGHT (1x2: one column, two rows; default: the size "  \
      "of the first --pins-from map)")                                         \
  OPT(topology, "--topology", CHOICE, NULL, 0, 0, "square|hex",                \
      " extract encode check enum count sample explain repair trace analyze "  \
      "anneal collapse verify world ",                                         \
      "grid topology (map commands: default, the rules file's)")               \
  OPT(periodic, "--periodic", FLAG, false, 0, 0, NULL,                         \
      " encode check enum count sample explain repair trace analyze anneal "   \
      "collapse verify ",                                                      \
      "wrap the map around both axes")                                         \
  OPT(pins, "--pin", LIST, {0}, 0, 0, "ROW,COL=TILE", TS_MAPS,                 \
      "pin a tile to a cell (repeatable); a tile name with spaces is "         \
      "quoted whole for the shell, without the rules file's quotes: --pin "    \
      "'0,3=tower 1'")                                                         \
  OPT(pins_from, "--pins-from", LIST, {0}, 0, 0, "MAP", TS_MAPS,               \
      "pin every painted cell of a map of the same size (text, PNG, Tiled; "   \
      "without --size, the map's size); --free-tile cells and Tiled's empty "  \
      "cells stay free; a PNG cell whose picture several tiles share holds "   \
      "one of them; - reads standard input (repeatable)")                      \
  OPT(free_tile, "--free-tile", STRING, ".", 0, 0, "NAME", TS_MAPS,            \
      "with --pins-from: the tile that marks a free cell (default .)")         \
  OPT(constraints, "--constraints", LIST, {0}, 0, 0, "FILE", TS_MAPS_VERIFY,   \
      "global constraints from a constraints file: count, connected, path, "   \
      "border (rules/README.md); a command that cannot keep one refuses it "   \
      "(repeatable: every file applies)")                                      \
  OPT(connected, "--connected", LIST, {0}, 0, 0, "T1,T2,...", TS_MAPS_VERIFY,  \
      "the cells holding these tiles form one region (repeatable)")            \
  OPT(path, "--path", LIST, {0}, 0, 0, "R1,C1:R2,C2=T1,T2,...",                \
      TS_MAPS_VERIFY,                                                          \
      "the cells are joined through cells holding these tiles (repeatable)")   \
  OPT(count_of, "--count", LIST, {0}, 0, 0, "T1,T2,...=K", TS_MAPS_VERIFY,     \
      "exactly K cells hold these tiles (also <=K, >=K; repeatable)")          \
  OPT(border, "--border", LIST, {0}, 0, 0, "SIDES=T1,T2,...", TS_MAPS_VERIFY,  \
      "only these tiles on those sides: letters of nesw, or all "              \
      "(repeatable)")                                                          \
  OPT(mask, "--mask", STRING, NULL, 0, 0, "FILE", TS_MAPS,                     \
      "cells not part of the map: a text grid of the map's size (. a cell "    \
      "of the map, any other character not) or a PNG (transparent or black "   \
      "pixels not); the adjacency stops at them")                              \
  OPT(periodic_input, "--periodic-input", FLAG, false, 0, 0, NULL,             \
      " extract ", "samples wrap around both axes")                            \
  OPT(backend, "--backend", CHOICE, NULL, 0, 0,                                \
      "picosat|cryptominisat|cadical|auto",                                    \
      " check enum count explain repair analyze anneal collapse run-samples "  \
      "world ",                                                                \
      "SAT backend (default picosat, and cadical on maps with connected or "   \
      "path constraints; anneal: of the clean-up; collapse: of the guard; "    \
      "run-samples: of the check)")                                            \
  OPT(method, "--method", CHOICE, NULL, 0, 0,                                  \
      "auto|dp|enum|approx|bounds|chain|estimate", " count sample ",           \
      "method (default auto: count: dp if it is predicted to finish in a "     \
      "minute, else proved bounds and the estimate; sample: dp, chain where "  \
      "dp is predicted past --max-memory or a minute, said on stderr; "        \
      "bounds and estimate count, chain samples)")                             \
  ALSO(method, "auto|cnf|collapse", " check ",                                 \
       "auto (default): windows around the pins, a guarded collapse (its "     \
       "map is WFC's), then the whole map's CNF, each in its share of a "      \
       "budget of CPU time; cnf: the whole map's CNF; collapse: the guarded "  \
       "collapse alone")                                                       \
  OPT(by_tile, "--by-tile", STRING, NULL, 0, 0, "T1,T2,...", " count ",        \
      "by the dp: a line 'K N' for each number K of cells holding these "      \
      "tiles (N maps have exactly K), then the total")                         \
  OPT(strip_width, "--strip-width", UINT, 0, 1, 64, "N", " count ",            \
      "bounds: strips and pieces N lines wide (default: as wide as 20 s "      \
      "allow)")                                                                \
  OPT(part, "--part", STRING, NULL, 0, 0, "K/N", " count enum ",               \
      "only part K of N disjoint parts, cut alike on every machine; count "    \
      "prints 'part K/N of problem ID' and its count, for 'tilesat sum'")      \
  OPT(part_split, "--part-split", UINT, 0, 1, TILESAT_MAX_PARTS, "N",          \
      " sample ",                                                              \
      "draw through N parts: a part with probability its count over the "      \
      "total, then a map in it (dp; exactly uniform)")                         \
  OPT(epsilon, "--epsilon", REAL, 0, 0, INFINITY, "E", " count sample ",       \
      "approx: within a factor 1+E of the count (default 0.8); sample: of "    \
      "uniform (default 6, at least 1.71)")                                    \
  OPT(delta, "--delta", REAL, 0, 0, 1, "D", " count ",                         \
      "approx: with probability at least 1-D (default 0.2)")                   \
  OPT(particles, "--particles", UINT, 0, 1, 10000000, "N", " count ",          \
      "estimate: particles a replicate (default: 10^8 / cells, 1000 to "       \
      "16384)")                                                                \
  OPT(replicates, "--replicates", UINT, 8, 2, 10000, "R", " count ",           \
      "estimate: independent replicates, whose spread makes the error bar "    \
      "(default 8)")                                                           \
  OPT(seed, "--seed", UINT, 1, 0, UINT64_MAX, "S",                             \
      " check count sample anneal collapse run-samples world ",                \
      "random seed (default 1): same seed, same result")                       \
  OPT(max_memory, "--max-memory", BYTES, 0, 0, 0, "SIZE",                      \
      TS_MAPS "run-samples ",                                                  \
      "memory bound, e.g. 512M, 4G (default: half of physical memory, or "     \
      "less as ulimit -v leaves; count, sample: of the dp, default 4G)")       \
  OPT(nsamples, "-n", UINT, 1, 1, 1000000000, "N", " sample ",                 \
      "number of maps to draw (default 1)")                                    \
  OPT(block, "--block", WXH, {0}, 0, 0, "WxH", " sample ",                     \
      "chain: blocks of WxH cells (and HxW every other sweep) re-drawn by "    \
      "the dp (default: strips 3 cells thick across the map, at most 64 "      \
      "long)")                                                                 \
  OPT(burn_in, "--burn-in", UINT, 4, 0, 1000000000, "N", " sample ",           \
      "chain: sweeps before the first map (default 4)")                        \
  OPT(threads, "--threads", UINT, 2, 1, 2, "N", " sample ",                    \
      "chain: threads that draw blocks together, 1 or 2 (default 2; the "      \
      "maps are the same)")                                                    \
  ALSO(nsamples, "RUNS", " collapse ",                                         \
       "run seeds S, S+1, ...: successes, contradictions, time (default 1)")   \
  ALSO(nsamples, "RUNS", " run-samples ",                                      \
       "runs per entry, seeds S, S+1, ...: WFC's failure rate (default 10)")   \
  OPT(out_dir, "--out-dir", STRING, "output", 0, 0, "DIR", " run-samples ",    \
      "write the maps there, NN-NAME-SEED.png (default output, as WFC; made "  \
      "if missing; never through a symbolic link)")                            \
  OPT(only, "--only", LIST, {0}, 0, 0, "NAME", " run-samples ",                \
      "run only the entries of this name (repeatable)")                        \
  OPT(max_size, "--max-size", UINT, 0, 1, 65535, "N", " run-samples ",         \
      "cut every entry's width and height to at most N")                       \
  OPT(check_time, "--check-time", UINT, 60, 1, 1000000, "SECONDS",             \
      " run-samples ",                                                         \
      "stop an entry's SAT check after SECONDS: unknown (default 60)")         \
  OPT(guard, "--guard", CHOICE, NULL, 0, 0, "none|sat|blocks|auto|modify",     \
      " collapse ",                                                            \
      "never fail: auto, for any map: sat while it answers soon, then "        \
      "blocks, then modify where a block would grow to 49x49 cells on a "      \
      "map of 256x256 or more or need the whole map's solver past "            \
      "--max-memory, and at once past 512x512; sat bans a tile no valid map "  \
      "has there and the "                                                     \
      "cell draws again (exact; small maps, counts, connectivity); blocks "    \
      "decides the cells around a contradiction again; modify: a periodic "    \
      "pattern made again block by block, in memory of a block (keeps pins, "  \
      "masks, borders, counts), also on maps past 2^28 cells times tiles, "    \
      "where auto goes by modify at once (default none: WFC as it is)")        \
  OPT(sizes, "--sizes", STRING, NULL, 0, 0, "N,N,...", " collapse ",           \
      "a failure-rate table: -n RUNS (default 100) at each size (N is NxN, "   \
      "or WxH)")                                                               \
  OPT(explain, "--explain", FLAG, false, 0, 0, NULL, " collapse ",             \
      "a failed run: its point of no return, a minimal doomed set of "         \
      "choices and the propagation to the contradiction; with -n, the tiles "  \
      "and pairs that doom runs most often, and for each the change that "     \
      "helps most, measured on the same seeds")                                \
  OPT(heuristic, "--heuristic", CHOICE, NULL, 0, 0, "entropy|mrv|scanline",    \
      " collapse ",                                                            \
      "the cell to observe: lowest entropy (default, as WFC), fewest tiles, "  \
      "or reading order")                                                      \
  OPT(limit, "--limit", UINT, 0, 1, INT64_MAX, "N", " enum ",                  \
      "stop after N maps (default: all)")                                      \
  OPT(keep_rules, "--keep-rules", FLAG, false, 0, 0, NULL, " repair ",         \
      "keep the rules: the fewest pins to drop, printed as the --pin options " \
      "to leave out (the default too when the pins alone clash)")              \
  OPT(change_rules, "--change-rules", FLAG, false, 0, 0, NULL, " repair ",     \
      "the fewest pairs to allow even when the pins alone clash (by default "  \
      "the pins to drop come first then)")                                     \
  OPT(all, "--all", FLAG, false, 0, 0, NULL, " repair ",                       \
      "every minimal repair, smallest first, up to --limit")                   \
  ALSO(limit, "N", " repair ", "with --all: at most N repairs (default 10)")   \
  ALSO(all, NULL, " explain ",                                                 \
       "every minimal explanation (MARCO): distinct, numbered, smallest "      \
       "first")                                                                \
  ALSO(limit, "N", " explain ",                                                \
       "with --all: at most N explanations (default 10)")                      \
  OPT(smallest, "--smallest", FLAG, false, 0, 0, NULL, " explain ",            \
      "an explanation with the fewest constraints there are (a plain "         \
      "explanation is minimal: none can be dropped, but it may be larger)")    \
  OPT(whole, "--whole", FLAG, false, 0, 0, NULL, " explain ",                  \
      "show the whole map, as text and in --png (default: a map larger than "  \
      "32x32 is shown around the clash, 4 cells of margin)")                   \
  ALSO(whole, NULL, " collapse ",                                              \
       "with --explain: every propagation step, every tile named, and a "      \
       "failed run's --png whole (default: a map larger than 32x32 shows "     \
       "only the steps the contradiction follows from, lists cut to 4 "        \
       "tiles, and --png around the contradiction)")                           \
  OPT(prefer, "--prefer", STRING, NULL, 0, 0, "GROUPS", " explain ",           \
      "blame these groups first, in this order (QuickXplain): a comma list "   \
      "of pins, cells, rules, borders, counts, connected, paths; the others "  \
      "after them")                                                            \
  OPT(format, "--format", CHOICE, NULL, 0, 0, "dimacs|props", " encode ",      \
      "DIMACS CNF (default) or readable propositions")                         \
  OPT(output, "-o", STRING, NULL, 0, 0, "FILE",                                \
      " extract encode import-tileset ",                                       \
      "write to FILE instead of standard output")                              \
  OPT(tile_size, "--tile-size", UINT, 1, 1, 4096, "N", " extract ",            \
      "image samples: cut into NxN-pixel tiles (default 1: a pixel a tile)")   \
  OPT(pattern, "--pattern", UINT, 0, 1, 8, "N", " extract ",                   \
      "image samples: WFC overlapping model, NxN patterns")                    \
  OPT(symmetry, "--symmetry", UINT, 8, 1, 8, "1..8", " extract ",              \
      "with --pattern: the first S of each window's 8 rotations and "          \
      "reflections (default 8, as WFC)")                                       \
  OPT(palette, "--palette", STRING, NULL, 0, 0, "FILE", " extract ",           \
      "image samples: tile names for colours/tile images (pictures file)")     \
  OPT(empty, "--empty", CHOICE, NULL, 0, 0, "tile|exclude",                    \
      " extract verify ",                                                      \
      "Tiled maps: empty cells are tile \"0\" (extract's default) or left "    \
      "out (verify's default: the map is then incomplete)")                    \
  OPT(layer, "--layer", STRING, NULL, 0, 0, "NAME", " extract verify ",        \
      "Tiled samples: the tile layer to read (default: the first)")            \
  ALSO(layer, "NAME", TS_MAPS,                                                 \
       "a Tiled --pins-from map: the tile layer to read, and to fill in its "  \
       "copy that --tmx/--tmj write (default: the first)")                     \
  OPT(pictures, "--pictures", STRING, NULL, 0, 0, "FILE",                      \
      " extract import-tileset ",                                              \
      "write the tiles' pictures (default beside -o X.rules: X.pictures)")     \
  ALSO(pictures, "FILE",                                                       \
       " check enum sample explain trace analyze anneal collapse world "       \
       "export-tileset ",                                                      \
       "draw tiles with these pictures (default: RULES's X.pictures if any)")  \
  ALSO(                                                                        \
      pictures, "FILE", " verify ",                                            \
      "a PNG map: tiles cut and named by these pictures (default: RULES's "    \
      "X.pictures if any; else a pixel a cell, named by colour); a picture "   \
      "several tiles share is any of them: VALID if a choice keeps the rules") \
  OPT(subset, "--subset", STRING, NULL, 0, 0, "NAME", " import-tileset ",      \
      "only the tiles of this subset")                                         \
  OPT(png, "--png", STRING, NULL, 0, 0, "FILE", " check enum sample anneal ",  \
      "draw the witness (check) or a contact sheet of the maps")               \
  ALSO(png, "FILE", " collapse ",                                              \
       "draw the map (a failed run: the wave it left, the contradiction and "  \
       "the doomed set framed, with a legend); with -n, where the "            \
       "contradictions happened (heat map, with its colour scale)")            \
  ALSO(output, "X.tsx", " export-tileset ",                                    \
       "write the tileset there (.tsj or .json: JSON), its picture as "        \
       "X.tsx.png")                                                            \
  ALSO(output, "FILE", " repair ",                                             \
       "write the rules file with the (first) repair's pairs allowed")         \
  ALSO(png, "FILE", " analyze ",                                               \
       "with --chunk: draw the border that has no filling (the chunk "         \
       "transparent)")                                                         \
  ALSO(png, "FILE", " explain trace ",                                         \
       "draw the map, 16 or more pixels a cell, with a legend: cells as "      \
       "blends of their possible tiles, the cells involved (explain) or left " \
       "empty (trace) framed")                                                 \
  ALSO(png, "FILE", " verify ",                                                \
       "draw the map, 16 or more pixels a cell, with a legend: the cells of "  \
       "each broken pair framed, a dot on their edge")                         \
  ALSO(png, "FILE", " world ", "draw the chunks as one map")                   \
  OPT(scale, "--scale", UINT, 0, 1, 512, "N", TS_PNG,                          \
      "--png: N pixels a cell (resized by nearest neighbour), a map's pins "   \
      "framed and its plain colours named below it (default: a tile "          \
      "picture's size, else 8 (fewer past 1024 pixels a side for tiles "       \
      "named by their colour), the map alone, as verify and --pins-from read " \
      "it back; marked pictures 16 to 48; the heat map 16; both more when a "  \
      "pinned tile needs it to show whole, which an N too small says)")        \
  OPT(tmx, "--tmx", STRING, NULL, 0, 0, "FILE", " check anneal collapse ",     \
      "write the witness as a Tiled map (XML), with its tileset image "        \
      "FILE.png; with a Tiled --pins-from map, a copy of that map, its "       \
      "--layer filled; the map property tilesat-rules names the rules file "   \
      "(from FILE's folder) for Tiled's extension")                            \
  OPT(tmj, "--tmj", STRING, NULL, 0, 0, "FILE", " check anneal collapse ",     \
      "write the witness as a Tiled map (JSON), with its tileset image "       \
      "FILE.png; with a Tiled --pins-from map (.tmj), a copy of it, its "      \
      "--layer filled; the map property tilesat-rules names the rules file "   \
      "(from FILE's folder) for Tiled's extension")                            \
  ALSO(tmx, "FILE", " world ",                                                 \
       "write the chunks as a Tiled map (XML), with its tileset image "        \
       "FILE.png")                                                             \
  ALSO(tmj, "FILE", " world ",                                                 \
       "write the chunks as a Tiled map (JSON), with its tileset image "       \
       "FILE.png")                                                             \
  ALSO(tmx, "FILE", " enum sample ",                                           \
       "write the maps as one Tiled map (XML), a layer each")                  \
  ALSO(tmj, "FILE", " enum sample ",                                           \
       "write the maps as one Tiled map (JSON), a layer each")                 \
  OPT(force, "--force", FLAG, false, 0, 0, NULL, TS_DRAW,                      \
      "--tmx/--tmj: replace the picture of tiles written beside the map "      \
      "(FILE.png) even when a file tilesat did not write is there")            \
  ALSO(force, NULL, " export-tileset ",                                        \
       "replace the tileset's picture (X.tsx.png) even when a file tilesat "   \
       "did not write is there")                                               \
  ALSO(force, NULL, " extract import-tileset ",                                \
       "replace the pictures file (X.pictures beside -o X.rules) even when a " \
       "file tilesat did not write is there")                                  \
  OPT(tilesets_from, "--tilesets-from", STRING, NULL, 0, 0, "MAP", TS_DRAW,    \
      "--tmx/--tmj: use this Tiled map's tilesets (tiles named by gid)")       \
  OPT(chooses, "--choose", LIST, {0}, 0, 0, "ROW,COL=TILE", " trace ",         \
      "after the pins, choose a tile for a cell (repeatable, in order; a "     \
      "name with spaces quoted as for --pin)")                                 \
  OPT(max, "--max", UINT, 8, 1, 64, "N", " analyze ",                          \
      "sizes from 1x1 to NxN (default 8, at most 64)")                         \
  OPT(chunk, "--chunk", UINT, 0, 1, 64, "K", " analyze ",                      \
      "instead: is every valid border of a KxK chunk completed by a filling "  \
      "inside? 'complete at K', or a border with no filling")                  \
  ALSO(chunk, "N", " world ",                                                  \
       "the side of a chunk, in cells (a hex world's: even)")                  \
  OPT(at, "--at", STRING, NULL, 0, 0, "R,C", " world ",                        \
      "the chunk at chunk row R and chunk column C (64-bit integers, "         \
      "negative too; rows grow to the south, columns to the east)")            \
  OPT(span, "--span", WXH, {0}, 0, 0, "WxH", " world ",                        \
      "W chunks wide and H high from --at to the south-east, as one map "      \
      "(default 1x1)")                                                         \
  OPT(chunk_max, "--chunk-max", UINT, 0, 1, 64, "M", " analyze ",              \
      "with --chunk K: each size from K to M until one is complete; the "      \
      "smallest complete size")                                                \
  ALSO(format, "text|json", " explain trace collapse ",                        \
       "readable text (default) or a JSON document")                           \
  OPT(quiet, "--quiet", FLAG, false, 0, 0, NULL, TS_DRAW,                      \
      "-q: no map on standard output, only the answer (SAT, UNSAT, maps: N, "  \
      "energy:...): for a map written to a file (--png, --tmx, --tmj)")        \
  OPT(help, "--help", FLAG, false, 0, 0, NULL,                                 \
      " extract import-tileset export-tileset encode check enum count sample " \
      "explain repair trace analyze anneal collapse verify run-samples sum "   \
      "world ",                                                                \
      "this help")                                                             \
  OPT(energy, "--energy", STRING, NULL, 0, 0, "FILE", " anneal ",              \
      "soft terms from an energy file (rules/README.md)")                      \
  OPT(hard_weight, "--hard-weight", TERM, NULL, 0, 0, "W", " anneal ",         \
      "cost of a disallowed adjacent pair (default: more than any gain)")      \
  OPT(frequency, "--frequency", TERM, NULL, 0, 0, "W", " anneal ",             \
      "weight of (n_k - target_k)^2 (targets: rule weights scaled)")           \
  OPT(coherence, "--coherence", TERM, NULL, 0, 0, "J", " anneal ",             \
      "-J per adjacent pair of equal tiles (every tile)")                      \
  OPT(palindrome, "--palindrome", TERM, NULL, 0, 0, "W", " anneal ",           \
      "minus W times the palindrome score of rows and columns")                \
  OPT(sweeps, "--sweeps", UINT, 1000, 1, 1000000000, "N", " anneal ",          \
      "sweeps per restart (default 1000)")                                     \
  ALSO(sweeps, "N", " sample ", "chain: sweeps between maps (default 2)")      \
  OPT(beta, "--beta", SPAN, {0}, 0, INFINITY, "LO:HI", " anneal ",             \
      "geometric schedule (default: from the energy scale)")                   \
  OPT(restarts, "--restarts", UINT, 1, 1, 1000000, "R", " anneal ",            \
      "independent runs, the best kept (default 1)")                           \
  OPT(replicas, "--replicas", UINT, 1, 1, 64, "K", " anneal ",                 \
      "replica exchange with K replicas (default 1: off)")                     \
  OPT(qubo_out, "--qubo-out", STRING, NULL, 0, 0, "FILE", " anneal ",          \
      "also write the energy as a qbsolv .qubo file")

#endif
