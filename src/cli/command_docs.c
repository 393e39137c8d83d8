/* command_docs.c: each command's reference beyond its one-line summary
 * (commands.c, whose row for the command points at it): what it does at
 * length, its exit codes and examples.  The man pages tilesat-COMMAND(1) and
 * `tilesat help COMMAND` are made from it (man.c).  Every example runs in
 * tests/test_readme.c as written, from a copy of rules/ and tests/data/, in
 * order: a trailing comment "exit N" is the exit code it must give, a "quoted
 * text" what its output must hold. */
#include "cli.h"

const command_doc command_doc_extract = {
    "Reads sample maps and writes the ESTM rules they imply: the tiles, "
    "each weighted by its occurrences, and every pair of tiles seen side by "
    "side in each direction. A sample is a text grid (a character a cell), "
    "a PNG image (a pixel a tile, or --tile-size N pixels; --pattern N: "
    "WFC's overlapping model), or a Tiled map (.tmx, .tmj; its --layer). "
    "Several samples add up. The rules file format is in rules/README.md.",
    "0 the rules written, 1 error.",
    {"tilesat extract rules/coast.txt -o coast.rules",
     "tilesat extract rules/coast.txt --periodic-input", NULL}};

const command_doc command_doc_encode = {
    "Writes the map as CNF: a variable per cell and tile, a cell holds "
    "exactly one tile, every pair of neighbours an allowed pair, and the "
    "pins and global constraints. DIMACS names every variable in comments "
    "(c var N TILE ROW COL); --format props prints the same clauses as "
    "readable propositions.",
    "0 written, 1 error.",
    {"tilesat encode rules/coast.rules --size 3x3 -o coast.cnf",
     "tilesat encode rules/coast.rules --size 2x2 --format props   # "
     "\"L_1_1 -> L_1_0 | C_1_0\"",
     NULL}};

const command_doc command_doc_check = {
    "Is there a valid map of this size with these pins and constraints? "
    "SAT and a witness map (checked by an independent checker), or UNSAT. "
    "--method auto (the default) tries windows around the pins, then a "
    "guarded collapse (from 256x256 cells on, modifying in blocks as "
    "collapse --guard modify does: stderr says which block of how many it "
    "is at), then the whole map's CNF; --method cnf is the CNF alone, "
    "--method collapse the guarded collapse alone (collapse --guard "
    "auto's map). On UNSAT, stderr says which window (and the pins in "
    "it) or which cell refutes it, and that explain says why; --png, "
    "--tmx and --tmj then write nothing, and say so.",
    "10 a map exists (printed), 20 none, 1 error.",
    {"tilesat check rules/coast.rules --size 12x8 --pin 7,0=S --pin 0,11=L "
     "  # exit 10",
     "tilesat check rules/hard.rules --size 3x3   # exit 20, \"UNSAT\"",
     "tilesat check rules/dungeon8.rules --size 16x16 --constraints "
     "rules/dungeon8.constraints   # exit 10",
     NULL}};

const command_doc command_doc_enum = {
    "Every valid map, a blank line between two, then \"maps: N\". --limit N "
    "stops after N maps; --part K/N enumerates the K-th of N parts. After a "
    "second, stderr says how many maps so far and how many a second, at "
    "most once a second (with -q too: -q leaves the maps off standard "
    "output); 'tilesat count' gives how many without listing them.",
    "10 at least one map, 20 none, 1 error.",
    {"tilesat enum rules/coast.rules --size 3x3 --pin 2,2=L   # \"maps: 5\"",
     "tilesat enum rules/hard.rules --size 2x2   # \"maps: 1\"", NULL}};

const command_doc command_doc_count = {
    "The number of valid maps, as the last line. --method auto picks the "
    "exact frontier dynamic programme (dp, GMP integers) when its frontier "
    "fits --max-memory, else enum on tiny maps; approx counts within a "
    "factor 1+E with probability 1-D by XOR hashing; bounds proves a lower "
    "and an upper bound; estimate adds a sequential Monte Carlo estimate "
    "with a 95% error bar. Past the dp, auto answers with proved bounds "
    "and an estimate beside them; stderr says what the estimate will run "
    "and the time left, and auto leaves it out, saying so, when it is "
    "predicted past a minute (--method bounds answers with the bounds "
    "alone, --method estimate makes it). With counts or connectivity, "
    "which the dp "
    "alone keeps (and enum), auto predicts the dp's time and memory first "
    "and says them before a long count. --part K/N counts one part, for "
    "tilesat sum: "
    "parts divide enum's work and the dp's on a periodic map, but on a "
    "map that does not wrap each dp part costs about as much as the "
    "whole (tilesat-mpi --shard divides that dp). Words of its stderr: the "
    "dp is that exact count; it sweeps the map cell by cell, and its "
    "frontier is the row's worth of cells between the part counted and the "
    "rest: it keeps a number for each way of filling the frontier (its "
    "states), so its memory grows with the tiles to the power of the "
    "map's width.",
    "0 counted, 1 error.",
    {"tilesat count rules/coast.rules --size 24x24   # \"1945651872306\"",
     "tilesat count rules/coast.rules --size 8x8 --method approx --seed 1   "
     "# \"approx: \"",
     NULL}};

const command_doc command_doc_sample = {
    "Valid maps drawn uniformly at random: exactly with the dp, within a "
    "factor of uniform by XOR hashing (approx), or uniformly in the limit "
    "by a block Markov chain (chain) on maps too large for the dp (count's "
    "exact count). Same seed, same maps. auto predicts first what the dp "
    "would hold (from the dp on strips of the map) and takes the chain at "
    "once, saying so with the prediction, where the dp would pass "
    "--max-memory or a minute; on a map with constraints only the dp "
    "keeps, it refuses such a draw at once (--method dp tries it "
    "regardless). The chain's line on stderr: its "
    "burn-in is the first sweeps, dropped so that the maps forget where the "
    "chain started (--burn-in); the autocorrelation of the tile counts "
    "from one sweep to the next says how alike consecutive sweeps are: "
    "near 0 the maps drawn are nearly independent, near 1 the chain barely "
    "moves (raise --sweeps, the sweeps between maps).",
    "10 maps drawn, 20 no map exists, 1 error.",
    {"tilesat sample rules/coast.rules --size 12x8 -n 3 --seed 7 --png "
     "maps.png   # exit 10",
     NULL}};

const command_doc command_doc_sum = {
    "Adds the counts that count --part K/N saved, one file a part. It "
    "refuses a part missing or given twice, parts of different problems, "
    "and a part whose count does not match its check.",
    "0 the total printed, 1 error.",
    {"tilesat count rules/coast.rules --size 8x8 --part 1/2 > p1.txt",
     "tilesat count rules/coast.rules --size 8x8 --part 2/2 > p2.txt",
     "tilesat sum p1.txt p2.txt   # \"16188\"",
     "tilesat count rules/coast.rules --size 8x8   # \"16188\"", NULL}};

const command_doc command_doc_import_tileset = {
    "Rules from a WFC simple-tiled tileset (mxgmn's XML): each tile in its "
    "orientations by its symmetry, the neighbour pairs, the weights; the "
    "tiles' pictures beside the rules (X.pictures) when the images are "
    "there. NAME 0 is a tile as its picture is drawn; NAME 1, NAME 2 and "
    "NAME 3 are it turned a quarter, a half and three quarters "
    "counterclockwise; with symmetry F, NAME 4 to NAME 7 are NAME 0 to "
    "NAME 3 mirrored left to right.",
    "0 written, 1 error.",
    {"tilesat import-tileset tests/data/wfc/tilesets/Knots.xml -o "
     "knots.rules",
     NULL}};

const command_doc command_doc_export_tileset = {
    "The rules' tiles as a Tiled tileset X.tsx (or .tsj) and its picture "
    "X.tsx.png, each tile named by its \"tilesat\" property: paint a level "
    "in Tiled with it, and every command reads the level back "
    "(--pins-from). The picture replaces only a PNG tilesat wrote; a file "
    "of yours there is refused unless --force.",
    "0 written, 1 error.",
    {"tilesat export-tileset rules/coast.rules -o coast.tsx", NULL}};

const command_doc command_doc_explain = {
    "Why no map exists: a minimal set of constraints (cells holding a tile, "
    "allowed pairs, pins, global constraints) that cannot all hold, each "
    "in the rules' own words, with the propagation that refutes them when "
    "it does. Dropping any one of them leaves a satisfiable set (checked). "
    "--smallest finds one of fewest constraints, --all every minimal one, "
    "--prefer which groups to blame first. --png frames the cells "
    "involved, pinned cells drawn as their tile. A map larger than 32x32 "
    "is shown, as text and in --png, around the clash with 4 cells of "
    "margin (its rows and columns said), a global constraint's clash "
    "too (around its other cells); --whole shows all of it. A map whose "
    "whole solver would not fit --max-memory, with pins that clash, is "
    "explained within the window around them that check finds with no "
    "filling (the first such window), and stderr says so. stderr says "
    "each step once, and what the solver works on.",
    "20 explained, 10 a map exists after all, 1 error.",
    {"tilesat explain rules/hard.rules --size 3x3   # exit 20, \"These 3 "
     "constraints\"",
     NULL}};

const command_doc command_doc_repair = {
    "For a map with no valid filling: the fewest pairs to allow, printed as "
    "allow lines to paste into the rules (-o writes the rules repaired), or "
    "with --keep-rules the fewest pins to drop; the pins too by default "
    "when they alone clash (the map without them has a filling), found "
    "first in the windows around the pins where check refutes them "
    "(--change-rules: the pairs regardless). Each repair is checked: "
    "with it a map exists, without it none does. --all lists every minimal "
    "repair, smallest first.",
    "0 a repair found, 10 a map exists already, 20 no repair, 1 error.",
    {"tilesat repair rules/hard.rules --size 3x3   # exit 0, \"allow B E "
     "B\"",
     "tilesat repair rules/coast.rules --size 3x3 --pin 0,0=S --pin 0,1=L "
     "--keep-rules   # \"--pin 0,1=L\"",
     NULL}};

const command_doc command_doc_trace = {
    "WFC's propagation with a reason for each step: the pins, then each "
    "--choose in order; on a contradiction the chain of steps that leads to "
    "it.",
    "20 a contradiction, 10 every cell decided, 0 propagation ended with "
    "cells undecided, 1 error.",
    {"tilesat trace rules/coast.rules --size 3x3 --pin 0,0=S --pin 2,2=L   "
     "# exit 20, \"contradiction\"",
     NULL}};

const command_doc command_doc_analyze = {
    "A report on a rule set: tiles that can only stand on a border, tiles "
    "no map uses, and which sizes from 1x1 to --max have a map. With "
    "--chunk K: is every valid border of a KxK chunk completed by a filling "
    "inside (then WFC filling chunk by chunk never fails), or a border with "
    "none; --chunk-max M tries each size up to M.",
    "0 reported, 1 error.",
    {"tilesat analyze rules/hard.rules --max 4",
     "tilesat analyze rules/coast.rules --chunk 3   # \"not complete at "
     "3\"",
     NULL}};

const command_doc command_doc_anneal = {
    "A low-energy map: soft terms (frequencies, coherence, palindromes, an "
    "energy file's terms) minimised by simulated annealing, then the hard "
    "rules restored by SAT. Prints the map, its energy, the violations left "
    "and the tile counts against their targets (the rules' weights "
    "scaled to the map; the energy weighs them only with --frequency W or "
    "a frequency term, and stderr says how far they are when it does "
    "not).",
    "0 a map, 20 no valid map, 1 error.",
    {"tilesat anneal rules/entropy7.rules --size 8x8 --energy "
     "rules/entropy7.energy --seed 1   # \"violations: 0\"",
     NULL}};

const command_doc command_doc_collapse = {
    "Runs Wave Function Collapse as mxgmn's reference does (lowest entropy "
    "cell, tile drawn by weight, AC-4 propagation) on the rules: SAT and "
    "the map, or where it contradicted. -n RUNS gives the failure rate "
    "with its 95% interval, --sizes a table by size, --explain a failed "
    "run's point of no return and a minimal doomed set of choices. --guard "
    "auto makes it never fail on any map: it takes sat while sat answers "
    "soon, then blocks, then modify where a block would grow to 49x49 "
    "cells on a map of 256x256 or more, or need the whole map's solver; "
    "by modify at once past 512x512. The others: sat bans a tile with which "
    "no valid map "
    "exists (exact, the map an eager guard makes; for small maps and maps "
    "with counts or connectivity: on a large map its proofs can need the "
    "whole map's solver, and stderr says so with its size before it "
    "starts), blocks re-decides the cells around a contradiction, modify "
    "starts from a periodic pattern and makes it again in overlapping 16x16 "
    "blocks (WFC, then SAT, a block neither fills keeping its content), in "
    "the memory of a block.",
    "10 a map (one run) or a run that succeeded (-n), 0 a run that "
    "contradicted, 20 no valid map (guarded), 1 error.",
    {"tilesat collapse rules/coast.rules --size 12x8 --seed 1   # exit 10, "
     "\"SAT\"",
     "tilesat collapse rules/coast.rules --size 12x8 -n 20   # "
     "\"successes: 20\"",
     "tilesat collapse rules/coast.rules --size 64x64 --guard auto -q "
     "--png coast-map.png   # exit 10, \"SAT\"",
     "tilesat collapse rules/coast.rules --size 100x60 --guard modify   # "
     "exit 10, \"SAT\"",
     NULL}};

const command_doc command_doc_world = {
    "Prints the N x N chunk at chunk row R and chunk column C of an endless "
    "map (rows grow to the south, columns to the east; any 64-bit "
    "coordinates, negative too), or with --span WxH the W x H chunks from "
    "there to the south-east as one map. The map starts as a periodic "
    "pattern (a 16x16 torus filled by WFC with the exact guard, one fixed "
    "seed; else the smallest torus up to 16x16 SAT finds), made again by "
    "overlapping blocks (16x16 at two offsets, then 10x10 on their "
    "margins' crossings), each by WFC (then SAT) with its margin fixed, as "
    "collapse --guard modify does; a chunk is computed "
    "from the blocks it depends on alone, so it is the same whatever was "
    "asked before, agrees with its neighbours at every seam, and takes the "
    "same time anywhere. Same seed, same world.",
    "10 the chunks (printed), 1 error, also when the rules have no "
    "periodic pattern up to 16x16 (tilesat world needs one).",
    {"tilesat world rules/coast.rules --chunk 16 --at 0,0   # exit 10, "
     "\"SAT\"",
     "tilesat world rules/coast.rules --chunk 16 --at "
     "-3,576460752303423487 --span 2x2 --seed 7 --png world.png   # exit 10",
     NULL}};

const command_doc command_doc_verify = {
    "Does a finished map (a text grid, a Tiled map, or a PNG cut by the "
    "rules' pictures, or without them by the squares of generated colours "
    "tilesat draws their tiles as) keep the rules and constraints? VALID, "
    "or INVALID "
    "and every pair of neighbouring cells that breaks them; a Tiled map "
    "with empty cells is INVALID, incomplete (how many cells are empty, "
    "the first). A map's picture tilesat drew larger (--png, --scale) is "
    "read back at its tiles' size; one with more than the map (a legend, "
    "framed pins, several maps, an explaining picture) is refused, saying "
    "why.",
    "10 valid, 20 invalid or incomplete, 1 error.",
    {"tilesat verify rules/coast.rules rules/coast.txt   # exit 10, "
     "\"VALID\"",
     NULL}};

const command_doc command_doc_run_samples = {
    "mxgmn's run list (WFC's samples.xml), each entry with its own "
    "settings: a line each with sat or not, WFC's failure rate over RUNS "
    "runs with its 95% interval, and the time; its maps as PNGs in "
    "--out-dir.",
    "0 every entry ran, 1 an entry could not run.",
    {"tilesat run-samples tests/data/wfc/samples.xml --only Knots -n 2 "
     "--max-size 8 --out-dir out   # \"entries: 11\"",
     NULL}};
