# tilesat: a SAT-based model checker for tiled-map rules.
# `make demo` and `make test` install what is missing first.

CC      ?= cc
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wvla -Werror
OPT     ?= -O2 -g
CFLAGS  += $(CSTD) $(WARN) $(OPT) -MMD -MP
CPPFLAGS += -Isrc
# libtilesat: core, sat, wfc, explain, gen, count (GMP and the SAT solvers).
# libcryptominisat5 exports its own copy of every picosat_* symbol, and
# -lpicosat after it would bind tilesat's calls to that copy.  So Debian's
# static libpicosat.a is linked in, and --exclude-libs keeps its symbols out
# of the binary's dynamic table, which would otherwise bind CryptoMiniSat's
# calls to it in turn: each library keeps its own PicoSAT
# (tests/test_backends.c checks).  CaDiCaL comes only as a static C++
# library, hence -lstdc++. The block chain draws on two threads: -pthread.
# The shared libtilesat cannot take libpicosat.a (not position-independent):
# it names the shared libpicosat before libcryptominisat5 instead, so that
# picosat_* resolve to Debian's PicoSAT first (breadth-first lookup), and
# CryptoMiniSat's own calls then reach the same library.
SYSLIBDIR = /usr/lib/$(or $(shell $(CC) -print-multiarch 2>/dev/null),x86_64-linux-gnu)
SOLVER_LIBS = $(SYSLIBDIR)/libcadical.a -lcryptominisat5 -lgmp -lstdc++ -lm -pthread
CORE_LIBS = -Wl,--exclude-libs,libpicosat.a $(SYSLIBDIR)/libpicosat.a $(SOLVER_LIBS)
CORE_SO_LIBS = -lpicosat $(SOLVER_LIBS)
# libtilesat-io: images, Tiled maps, tilesets (libpng, libxml2, zlib, cJSON).
IO_PKGS  = libpng libxml-2.0 zlib libcjson
IO_CFLAGS = $(shell pkg-config --cflags $(IO_PKGS) 2>/dev/null || echo -I/usr/include/libxml2 -I/usr/include/cjson)
IO_LIBS  = $(strip $(shell pkg-config --libs $(IO_PKGS) 2>/dev/null || echo -lpng16 -lxml2 -lz -lcjson) -lm)
LIBS     = $(IO_LIBS) $(CORE_LIBS)
TEST_LIBS = $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)

# BUILD is the object directory; `make asan` uses build-asan/.
BUILD   ?= build
# The stages, one folder of src/ each, in calling order, lowest first: a
# stage includes and calls only those before it in this list, never one
# after it (tools/check-stages.sh checks the includes in `make lint`).
# LIB_STAGES make libtilesat; io is libtilesat-io (it builds on core alone,
# and its library links libtilesat); cli the command line; mpi tilesat-mpi.
LIB_STAGES = core sat wfc explain gen count
STAGES   = $(LIB_STAGES) io cli mpi
CORE_SRC = $(foreach d,$(LIB_STAGES),$(wildcard src/$(d)/*.c))
IO_SRC   = $(wildcard src/io/*.c)
CLI_SRC  = $(wildcard src/cli/*.c)
CORE_OBJ = $(CORE_SRC:src/%.c=$(BUILD)/obj/%.o)
IO_OBJ   = $(IO_SRC:src/%.c=$(BUILD)/obj/%.o)
CLI_OBJ  = $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
LIB_OBJ  = $(CORE_OBJ) $(IO_OBJ)
# the command line's objects but main: what the MPI driver and the cli
# fuzzing harness link
CLI_LIB_OBJ = $(filter-out %/main.o,$(CLI_OBJ))
TEST_SRC = $(wildcard tests/*.c)
# the tests' own objects (TOBJ: make test's sanitizer pass links the plain
# build's, see TEST_OPT)
TOBJ    ?= $(BUILD)/tobj
TEST_OBJ = $(TEST_SRC:tests/%.c=$(TOBJ)/%.o)
LIBA     = $(BUILD)/libtilesat.a
IOLIBA   = $(BUILD)/libtilesat-io.a
BIN      = $(BUILD)/tilesat
TESTBIN  = $(BUILD)/tilesat-tests

# ------------------------------------------------------- shared libraries
# The version is written once, as TILESAT_VERSION in src/tilesat.h; the
# soname carries its major number.
VERSION := $(shell sed -n 's/^.define TILESAT_VERSION "\([0-9.]*\)".*/\1/p' src/tilesat.h)
MAJOR   := $(firstword $(subst ., ,$(VERSION)))
$(if $(VERSION),,$(error no TILESAT_VERSION in src/tilesat.h))
SO       = $(BUILD)/libtilesat.so.$(VERSION)
IOSO     = $(BUILD)/libtilesat-io.so.$(VERSION)
LIBRARIES = $(LIBA) $(IOLIBA) $(SO) $(IOSO)
# Every library object is position-independent, so one object serves both
# the archive and the shared library; and hidden but for the functions the
# public headers declare TILESAT_API (src/tilesat.h), which are all a shared
# library exports.
$(LIB_OBJ): CFLAGS += -fPIC -fvisibility=hidden
# Who uses what: programs linking the shared libraries (tools/example.c
# through pkg-config) see only tilesat_* (check-install's t_symbols).  The
# CLI ($(BIN)), tilesat-mpi, the tests and the fuzzing harnesses link the
# archives, where hidden symbols still link, so they keep calling the
# stages' internal ts_* functions.  libtilesat-io.so uses libtilesat.so's
# public API and carries its own hidden copy of the core objects that hold
# the internal helpers it needs (memory, errors, names, files, readers,
# rule and grid construction): IO_CORE_SRC, compiled again with
# TILESAT_HIDE_API so that even their tilesat_* functions stay local.
IO_CORE_SRC = $(addprefix src/core/,util.c grid.c kind.c reader.c rules.c suggest.c topology.c)
IO_CORE_OBJ = $(IO_CORE_SRC:src/%.c=$(BUILD)/obj/io-core/%.o)
$(IO_CORE_OBJ): CFLAGS += -fPIC -fvisibility=hidden -DTILESAT_HIDE_API

# Reference CNF instances in cnf/: NAME=RULES:SIZE[:extra options]
CNF_CASES = coast-1x2:coast:1x2 coast-3x3:coast:3x3 \
            coast-3x3-pin:coast:3x3:--pin=2,2=L hard-2x2:hard:2x2 \
            hard-3x3:hard:3x3 coast-hex-3x4:coast-hex:3x4 coast-12x12-periodic:coast:12x12:--periodic

# The MPI driver (src/mpi/, src/count/README.md "Beyond one machine"), built with Open
# MPI's mpicc when it is there (tools/install-deps.sh installs it).
MPICC   ?= mpicc
MPI_BIN  = $(if $(shell command -v $(MPICC) 2>/dev/null),$(BUILD)/tilesat-mpi)

.PHONY: print-libs all deps demo test test-long check-test check-look check-mpi asan bench bench-collapse bench-scale bench-count bench-chunk bench-rates cnf format lint lint-tools \
        lint-tidy lint-cppcheck lint-api clean help install uninstall check-install man
all: $(BIN) $(LIBRARIES) $(MPI_BIN)

deps:
	@tools/install-deps.sh

# io and the command line (collapse's JSON) read libxml2's and cJSON's headers
$(BUILD)/obj/io/%.o: src/io/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(IO_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/cli/%.o: src/cli/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(IO_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/io-core/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/mpi/%.o: src/mpi/%.c
	@mkdir -p $(@D)
	$(MPICC) $(CPPFLAGS) $(IO_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/tilesat-mpi: $(BUILD)/obj/mpi/tilesat_mpi.o $(CLI_LIB_OBJ) $(IOLIBA) $(LIBA)
	$(MPICC) $(CFLAGS) $^ $(LIBS) -o $@

# The tests' own code is built with TEST_OPT: `make test`'s sanitizer pass
# instruments the library and the command line they check, not the
# tests' brute-force oracles (a third of its time went to them), and so
# links the very test objects of the plain build (TOBJ).
TEST_OPT ?= $(OPT)
$(TOBJ)/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(IO_CFLAGS) $(filter-out $(OPT),$(CFLAGS)) $(TEST_OPT) \
	  -c $< -o $@

$(LIBA): $(CORE_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

$(IOLIBA): $(IO_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

# What each shared library exports: the functions the public headers
# declare TILESAT_API, all named tilesat_*, in one version node per library
# (the version scripts only name the node: -fvisibility=hidden already keeps
# everything else, and the solvers linked into the library, local).
# -Bsymbolic-functions binds the library's calls to its own functions.
$(BUILD)/libtilesat.map: src/tilesat.h Makefile
	@mkdir -p $(@D)
	printf 'TILESAT_%s { global: tilesat_*; local: *; };\n' $(MAJOR) >$@

$(BUILD)/libtilesat-io.map: src/tilesat.h Makefile
	@mkdir -p $(@D)
	printf 'TILESAT_IO_%s { global: tilesat_*; local: *; };\n' $(MAJOR) >$@

SHARED = -shared -Wl,-z,defs -Wl,-Bsymbolic-functions

$(SO): $(CORE_OBJ) $(BUILD)/libtilesat.map
	$(CC) $(CFLAGS) $(SHARED) -Wl,-soname,libtilesat.so.$(MAJOR) \
	  -Wl,--version-script=$(BUILD)/libtilesat.map $(CORE_OBJ) $(CORE_SO_LIBS) -o $@

$(IOSO): $(IO_OBJ) $(IO_CORE_OBJ) $(SO) $(BUILD)/libtilesat-io.map
	$(CC) $(CFLAGS) $(SHARED) -Wl,-soname,libtilesat-io.so.$(MAJOR) \
	  -Wl,--version-script=$(BUILD)/libtilesat-io.map $(IO_OBJ) $(IO_CORE_OBJ) \
	  $(SO) $(IO_LIBS) -o $@

$(BIN): $(CLI_OBJ) $(IOLIBA) $(LIBA)
	$(CC) $(CFLAGS) $^ $(LIBS) -o $@

$(TESTBIN): $(TEST_OBJ) $(IOLIBA) $(LIBA)
	$(CC) $(CFLAGS) $^ $(LIBS) $(TEST_LIBS) -o $@

# The man pages, written by the binary from its command and option tables
# and the commands' reference (src/cli/command_docs.c): tilesat.1 and a
# tilesat-COMMAND.1 for each command of src/cli/commands.c.
COMMANDS  := $(shell sed -n 's/^    {"\([a-z-]*\)",.*/\1/p' src/cli/commands.c)
MANPAGES  = $(BUILD)/man/tilesat.1 $(COMMANDS:%=$(BUILD)/man/tilesat-%.1)
$(BUILD)/man/tilesat.1: $(BIN)
	@mkdir -p $(@D)
	$(BIN) --man > $@.tmp && mv $@.tmp $@

$(BUILD)/man/tilesat-%.1: $(BIN)
	@mkdir -p $(@D)
	$(BIN) --man $* > $@.tmp && mv $@.tmp $@

man: $(MANPAGES)

help:
	@echo "make demo    install deps, build, run the coast example end to end"
	@echo "make test    install deps, build, run every test (plain and ASan/UBSan)"
	@echo "make test-long  the differential test on 5000 problems, chunk checks x4 (minutes)"
	@echo "make fuzz    libFuzzer harnesses, each FUZZ_SECONDS=300 s (-j2: two at a time)"
	@echo "make bench   encode sizes and check times, both backends"
	@echo "make bench-chunk     analyze --chunk K at K = 3..8, rule sets and tilesets"
	@echo "make bench-collapse  collapse, guarded, check, anneal and a JS WFC side by side"
	@echo "make bench-scale     the exact, block, auto and modify guards side by side, 128 to 1024; worlds; modify's look; fast-wfc and POMS (FASTWFC_GIT, POMS_GIT); samples.xml at 2048 by modify (SAMPLES_REF); check at scale"
	@echo "make bench-count     the dp, sampling and the seen key; one dp over MPI ranks (--shard) against one process"
	@echo "make bench-rates     WFC's failure rate on Castle by size (RUNS=1000)"
	@echo "make man     the man pages, tilesat.1 and tilesat-COMMAND.1, in build/man/"
	@echo "make cnf     regenerate the reference DIMACS instances in cnf/"
	@echo "make format  clang-format the sources"
	@echo "make lint    stage order, files under 1000 lines, clang-format, clang-tidy and cppcheck, warnings as errors; the library's exports (tools/check-api.sh)"
	@echo "make install PREFIX=/usr/local DESTDIR=  (make uninstall removes it)"

demo: deps
	@$(MAKE) --no-print-directory all
	tools/demo.sh $(BIN)

# The suite, then the same suite under AddressSanitizer + UBSan.
# The sanitizer pass runs every test with the same assertions; the random
# cross-checks draw half as many cases there (TILESAT_TEST_QUICK,
# tests/helpers.c test_cases).  -fno-var-tracking halves the build of the
# large files under -g; reports keep their file and line.
ASAN_OPT = -O1 -g -fno-var-tracking -fsanitize=address,undefined \
  -fno-omit-frame-pointer -fno-sanitize-recover=all
# Each stage's wall time goes to $(BUILD)/stages.txt (tools/stage.sh),
# printed at the end after the ten slowest tests of each pass.  The MPI
# check, mostly mpirun starting its ranks, runs beside the sanitizer build
# (its output printed after it).
STAGE = tools/stage.sh $(BUILD)/stages.txt
ASAN_MAKE = $(MAKE) --no-print-directory $(LINT_J) BUILD=build-asan \
  OPT="$(ASAN_OPT)" TEST_OPT="$(OPT)" TOBJ=$(BUILD)/tobj
test: deps
	@mkdir -p $(BUILD) && rm -f $(BUILD)/stages.txt
	@$(STAGE) build $(MAKE) --no-print-directory $(LINT_J) $(BIN) $(TESTBIN) \
	  fuzz-replay-bins
	@$(STAGE) suite $(MAKE) --no-print-directory $(LINT_J) check-test
	@$(STAGE) "mpi, sanitizer build" sh -c '\
	  $(MAKE) --no-print-directory check-mpi >$(BUILD)/mpi.log 2>&1 & m=$$!; \
	  $(ASAN_MAKE) build-asan/tilesat build-asan/tilesat-tests \
	    fuzz-replay-bins; b=$$?; wait $$m; r=$$?; cat $(BUILD)/mpi.log; \
	  [ $$b -eq 0 ] && [ $$r -eq 0 ]'
	@$(STAGE) "sanitizer suite" $(ASAN_MAKE) TEST_ENV=TILESAT_TEST_QUICK=1 \
	  check-test
	@$(STAGE) install $(MAKE) --no-print-directory $(LINT_J) check-install
	@$(STAGE) lint $(MAKE) --no-print-directory lint
	@tools/slowest.sh $(BUILD)/tests.xml build-asan/tests.xml
	@echo "wall time by stage:" && cat $(BUILD)/stages.txt

TEST_ENV =
check-test: $(BIN) $(TESTBIN) fuzz-replay-bins
	$(TEST_ENV) TILESAT_BIN=$(BIN) ASAN_OPTIONS=detect_leaks=1 $(TESTBIN) --jobs 2 \
	  --xml=$(BUILD)/tests.xml
	@$(MAKE) --no-print-directory fuzz-replay

# Issue 32's look targets (tests/test_modify_look.c) at 128x128: make test
# checks the seams' instrument, modify's seams at 32x32 and 64x64 and the
# shares at 128x128; this adds the seams at 128x128 (missed today).
check-look: $(BIN) $(TESTBIN)
	TILESAT_BIN=$(BIN) TILESAT_LOOK_TARGETS=1 $(TESTBIN) --filter 'look/*' --jobs 2

# What must stay large: the differential test (tests/test_agree.c) on
# 5000 random problems instead of 400, and the chunk cross-checks on four
# times as many random rule sets (test_cases).
test-long: deps
	@$(MAKE) --no-print-directory $(BIN) $(TESTBIN)
	TILESAT_BIN=$(BIN) TILESAT_AGREE_CASES=5000 $(TESTBIN) --filter 'agree*/*' --jobs 2
	TILESAT_BIN=$(BIN) TILESAT_TEST_LONG=1 $(TESTBIN) --filter 'chunk/*' --jobs 2

# The MPI driver on this one machine against `tilesat count`: its own
# cases, and the differential test on random problems (both mostly wait
# for mpirun to start ranks, so they run side by side).
check-mpi: $(BIN) $(BUILD)/tilesat-mpi
	@tools/test-mpi-agree.sh $(BIN) $(BUILD)/tilesat-mpi >$(BUILD)/mpi-agree.log 2>&1 & a=$$!; \
	  tools/test-mpi.sh $(BIN) $(BUILD)/tilesat-mpi; t=$$?; wait $$a; g=$$?; \
	  cat $(BUILD)/mpi-agree.log; [ $$t -eq 0 ] && [ $$g -eq 0 ]

# ------------------------------------------------------------------ fuzzing
# tests/fuzz/: a libFuzzer harness per parser and the command line
# (tests/README.md, "Fuzzing").  `make fuzz` builds them with clang, libFuzzer,
# ASan and UBSan in build-fuzz/ and runs each FUZZ_SECONDS seconds (two at
# a time with -j2) from the repository's own files and the stored corpus
# tests/fuzz/corpus/NAME/.  `make test` builds the same harnesses with the
# normal compiler and a plain main() (replay.c) and replays the stored
# corpus through them: no clang needed, seconds.
FUZZ_NAMES   = grid rules constraints energy pictures png tileset tmx tmj tsx cli
FUZZ_SECONDS ?= 300
FUZZ_OPT     = -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=all -fno-omit-frame-pointer \
               -Wno-missing-field-initializers
FUZZ_DIR     = $(BUILD)/fuzz
FUZZ_SRC     = $(wildcard tests/fuzz/*.c)
FUZZ_CLI_OBJ = $(CLI_LIB_OBJ)
FUZZ_REPLAY  = $(FUZZ_NAMES:%=$(FUZZ_DIR)/replay-%)
FUZZ_BINS    = $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz-%)
# the repository's files each harness starts from (and its stored corpus)
FUZZ_SEEDS_grid     = rules/*.txt
FUZZ_SEEDS_rules    = rules/*.rules
FUZZ_SEEDS_constraints = rules/*.constraints
FUZZ_SEEDS_energy   = rules/*.energy
FUZZ_SEEDS_png      = tests/data/wfc/samples/*.png tests/data/wfc/tilesets/*/*.png
FUZZ_SEEDS_tileset  = tests/data/wfc/tilesets/*.xml
FUZZ_SEEDS_tmx      = tests/data/*.tmx
FUZZ_SEEDS_tmj      = tests/data/*.tmj
FUZZ_SEEDS_tsx      = tests/data/*.tsx tests/data/*.tsj
# the tokens a harness's mutations may insert (libFuzzer -dict)
FUZZ_DICT_tmx       = tests/fuzz/tiled.dict
FUZZ_DICT_tmj       = tests/fuzz/tiled.dict
FUZZ_DICT_tsx       = tests/fuzz/tiled.dict

.PHONY: fuzz fuzz-build fuzz-replay fuzz-replay-bins
# (fuzz-run-NAME is a pattern rule: make skips those for .PHONY targets)

$(FUZZ_DIR)/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(IO_CFLAGS) $(CFLAGS) -c $< -o $@

$(FUZZ_DIR)/replay-cli $(FUZZ_DIR)/fuzz-cli: $(FUZZ_CLI_OBJ)

$(FUZZ_DIR)/replay-%: $(FUZZ_DIR)/fuzz_%.o $(FUZZ_DIR)/common.o $(FUZZ_DIR)/replay.o $(IOLIBA) $(LIBA)
	$(CC) $(CFLAGS) $(filter %.o,$^) $(IOLIBA) $(LIBA) $(LIBS) -o $@

$(FUZZ_DIR)/fuzz-%: $(FUZZ_DIR)/fuzz_%.o $(FUZZ_DIR)/common.o $(IOLIBA) $(LIBA)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(filter %.o,$^) $(IOLIBA) $(LIBA) $(LIBS) -o $@

.PRECIOUS: $(FUZZ_DIR)/%.o
fuzz-replay-bins: $(FUZZ_REPLAY)

# Each harness over its stored corpus; one closing line.
fuzz-replay: $(FUZZ_REPLAY)
	@for n in $(FUZZ_NAMES); do \
	  ASAN_OPTIONS=detect_leaks=1 $(FUZZ_DIR)/replay-$$n tests/fuzz/corpus/$$n/*; \
	done | awk '{ print; p += $$2; f += $$4 } \
	  END { printf "fuzz replay: %d passed, %d failed\n", p, f; exit f > 0 }'

fuzz:
	@tools/install-deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang OPT="$(FUZZ_OPT)" fuzz-build
	@$(MAKE) -k --no-print-directory BUILD=build-fuzz CC=clang OPT="$(FUZZ_OPT)" $(FUZZ_NAMES:%=fuzz-run-%)

fuzz-build: $(FUZZ_BINS)

# Run one harness: its working corpus in build-fuzz/fuzz/corpus-NAME/ (the
# seeds and the stored corpus copied in, what it finds added), a crashing
# input saved as build-fuzz/fuzz/crash-NAME-*, the log in NAME.log; the
# harnesses' temporary folders in tmp/ (libFuzzer ends without atexit).
# Absolute paths: the cli harness runs the commands in a folder of its own.
fuzz-run-%: FUZZ_ABS = $(abspath $(FUZZ_DIR))
fuzz-run-%: $(FUZZ_DIR)/fuzz-%
	@mkdir -p $(FUZZ_DIR)/corpus-$* $(FUZZ_DIR)/tmp
	@for f in $(wildcard $(FUZZ_SEEDS_$*)) tests/fuzz/corpus/$*/*; do \
	  cp "$$f" "$(FUZZ_DIR)/corpus-$*/$$(echo "$$f" | tr / _)" || exit 1; done
	@echo "fuzz $*: $(FUZZ_SECONDS) s"
	@TMPDIR=$(FUZZ_ABS)/tmp $(FUZZ_ABS)/fuzz-$* -max_total_time=$(FUZZ_SECONDS) -timeout=60 \
	  -rss_limit_mb=2048 -close_fd_mask=1 -print_final_stats=1 \
	  $(if $(FUZZ_DICT_$*),-dict=$(abspath $(FUZZ_DICT_$*))) \
	  -artifact_prefix=$(FUZZ_ABS)/crash-$*- $(FUZZ_ABS)/corpus-$* \
	  >$(FUZZ_DIR)/$*.log 2>&1; rc=$$?; \
	  runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FUZZ_DIR)/$*.log); \
	  secs=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $(FUZZ_DIR)/$*.log); \
	  files=$$(ls $(FUZZ_DIR)/corpus-$* | wc -l); \
	  if [ $$rc -eq 0 ]; then \
	    echo "fuzz $*: $$runs runs ($$secs/s), corpus $$files files, no finding"; \
	  else \
	    tail -n 40 $(FUZZ_DIR)/$*.log; \
	    echo "fuzz $*: FINDING after $$runs runs: $$(ls $(FUZZ_DIR)/crash-$*-* 2>/dev/null)"; exit 1; \
	  fi

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT="$(ASAN_OPT)" \
	  TEST_OPT="$(OPT)" TOBJ=$(BUILD)/tobj check-test

bench: deps
	@$(MAKE) --no-print-directory all
	tools/bench.sh $(BIN)
	tools/bench-explain.sh $(BIN)
	tools/bench-repair.sh $(BIN)
	tools/bench-memory.sh $(BIN)
	tools/bench-anneal.sh
	tools/bench-count.sh
	tools/bench-shard.sh
	tools/bench-bounds.sh
	tools/bench-chain.sh
	tools/bench-global.sh
	tools/bench-chunk.sh $(BIN)
	@$(MAKE) --no-print-directory bench-collapse

# analyze --chunk K at K = 3..8, the text rule sets and the four tilesets.
bench-chunk:
	@$(MAKE) --no-print-directory all
	tools/bench-chunk.sh $(BIN)

# The peer column needs node and npm (install-deps.sh bench adds them when
# missing); the bench runs without them.
bench-collapse:
	@tools/install-deps.sh bench || echo "bench-collapse: no node/npm: the peer column is skipped"
	@$(MAKE) --no-print-directory all
	tools/bench-collapse.sh $(BIN)

bench-scale:
	@$(MAKE) --no-print-directory $(BIN)
	tools/bench-scale.sh $(BIN)

# Counting: the dp, sampling, the seen key (tools/bench-count.sh), then one
# dp over MPI ranks against one process (tools/bench-shard.sh).
bench-count:
	@$(MAKE) --no-print-directory all
	tools/bench-count.sh
	tools/bench-shard.sh

# WFC's failure rate on Castle by size (RUNS=1000 runs a size).
bench-rates:
	@$(MAKE) --no-print-directory $(BIN)
	tools/bench-rates.sh $(BIN)

# The link flags, for the bench tools that link libtilesat.a themselves.
print-libs:
	@echo $(LIBS)

cnf: $(BIN)
	@for c in $(CNF_CASES); do \
	  name=$${c%%:*}; rest=$${c#*:}; rules=$${rest%%:*}; rest=$${rest#*:}; \
	  size=$${rest%%:*}; extra=$${rest#$$size}; extra=$${extra#:}; \
	  echo "cnf/$$name.cnf"; \
	  $(BIN) encode rules/$$rules.rules --size $$size $$extra -o cnf/$$name.cnf || exit 1; \
	done

format:
	clang-format -i src/*.h src/*/*.[ch] tests/*.c tests/*.h tests/fuzz/*.[ch]

# lint: the stage order (tools/check-stages.sh: no stage includes one above
# it in STAGES), clang-format, clang-tidy (.clang-tidy) and cppcheck
# (tools/lint/), every warning an error. clang-tidy runs per file into stamps under
# $(BUILD)/lint/, so `make -j2 lint` runs two at a time and a second run
# checks only what changed.
LINT_SRC  = $(CORE_SRC) $(IO_SRC) $(CLI_SRC)
# two at a time, unless make already runs with -j (then its job slots rule)
LINT_J    = $(if $(filter -j%,$(MAKEFLAGS)),,-j2)
LINT_HDR  = $(wildcard src/*.h src/*/*.h)
TIDY_STAMPS = $(LINT_SRC:src/%.c=$(BUILD)/lint/%.tidy)
TIDY_FLAGS = $(CSTD) $(CPPFLAGS) $(IO_CFLAGS)
# -D__GNUC__ -D__x86_64__: check the configuration this build compiles
# (anneal's AVX2 path); cJSON's header is read for its ForEach macro.
CPPCHECK_FLAGS = --quiet --std=c11 --enable=warning,performance,portability,style \
  --error-exitcode=1 --inline-suppr --library=posix --library=zlib \
  --library=tools/lint/tilesat.cfg --suppressions-list=tools/lint/cppcheck-suppressions.txt \
  -D_POSIX_C_SOURCE=200809L -D__GNUC__ -D__x86_64__ $(CPPFLAGS) \
  $(filter -I%cjson,$(IO_CFLAGS)) --template='{file}:{line}:{column}: {severity}: {message} [{id}]'


lint: lint-tools lint-api
	@tools/check-stages.sh $(STAGES)
	@awk 'FNR == 1001 { print FILENAME ": over 1000 lines: split it where its concerns part"; bad = 1 } \
	  END { exit bad }' src/*.h src/*/*.[ch] && echo "lint: no file of src/ over 1000 lines"
	@clang-format --dry-run -Werror src/*.h src/*/*.[ch] tests/*.c tests/*.h tests/fuzz/*.[ch] && echo "lint: clang-format clean"
	@$(MAKE) --no-print-directory $(LINT_J) lint-tidy lint-cppcheck

# The library stays small and public (tools/check-api.sh): the shared
# libraries export tilesat_* only, the archives define no unprefixed name,
# library code names no command-line flag (tools/lint/flag-literals.txt:
# the exceptions, each with its reason).
lint-api: $(LIBRARIES)
	@tools/check-api.sh $(BUILD)

lint-tools:
	@for t in clang-format clang-tidy cppcheck; do \
	  command -v $$t >/dev/null || { echo "lint: $$t missing (tools/install-deps.sh)"; exit 1; }; done

lint-tidy: $(TIDY_STAMPS)
	@echo "lint: clang-tidy clean"

$(BUILD)/lint/%.tidy: src/%.c $(LINT_HDR) .clang-tidy Makefile
	@mkdir -p $(@D)
	@out=$$(clang-tidy --quiet $(if $(TIDY_OFF_$<),--checks='$(TIDY_OFF_$<)') $< -- $(TIDY_FLAGS) 2>&1); \
	  rc=$$?; printf '%s\n' "$$out" | grep -v 'warnings\? generated\.$$' | grep . ; \
	  [ $$rc -eq 0 ] && touch $@

lint-cppcheck: $(BUILD)/lint/cppcheck.stamp
	@echo "lint: cppcheck clean"

$(BUILD)/lint/cppcheck.stamp: $(LINT_SRC) $(LINT_HDR) tools/lint/tilesat.cfg tools/lint/cppcheck-suppressions.txt Makefile
	@mkdir -p $(@D)
	@cppcheck $(CPPCHECK_FLAGS) src && touch $@

# ---------------------------------------------------------------- install
# The CLI links libtilesat's archives, so it needs no library path; programs
# find the libraries through pkg-config (tools/*.pc.in).
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
# the Tiled extension (src/io/README.md, "Using tilesat with Tiled")
TILEDDIR   ?= $(PREFIX)/share/tilesat/tiled
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# The man pages, generated from the option table (tilesat --man [COMMAND]).
MAN        = $(MANPAGES)
SONAMES    = $(foreach l,libtilesat libtilesat-io,$(l).so $(l).so.$(MAJOR) $(l).so.$(VERSION))
# pkg-config files: paths under PREFIX as ${prefix}/..., so pkg-config can
# relocate them; Libs.private lists the link flags of a static link.
pcpath     = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
PC_SED     = -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pcpath,$(LIBDIR))|' \
             -e 's|@INCLUDEDIR@|$(call pcpath,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' \
             -e 's|@CORE_LIBS@|$(CORE_LIBS)|' -e 's|@IO_LIBS@|$(IO_LIBS)|'

install: all $(MAN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/tilesat
	$(if $(MPI_BIN),install -m 755 $(MPI_BIN) $(DESTDIR)$(BINDIR)/tilesat-mpi)
	install -m 644 $(LIBA) $(IOLIBA) $(DESTDIR)$(LIBDIR)
	install -m 755 $(SO) $(IOSO) $(DESTDIR)$(LIBDIR)
	for l in libtilesat libtilesat-io; do \
	  ln -sf $$l.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$$l.so.$(MAJOR) && \
	  ln -sf $$l.so.$(MAJOR) $(DESTDIR)$(LIBDIR)/$$l.so || exit 1; \
	done
	install -m 644 src/tilesat.h src/tilesat_gen.h src/tilesat_io.h $(DESTDIR)$(INCLUDEDIR)
	for p in tilesat tilesat-io; do \
	  sed $(PC_SED) tools/$$p.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/$$p.pc || exit 1; \
	done
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)/man1
	install -d $(DESTDIR)$(TILEDDIR)
	install -m 644 tools/tiled/tilesat.js $(DESTDIR)$(TILEDDIR)/tilesat.js

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tilesat $(DESTDIR)$(BINDIR)/tilesat-mpi \
	  $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN))) \
	  $(DESTDIR)$(TILEDDIR)/tilesat.js \
	  $(addprefix $(DESTDIR)$(LIBDIR)/,libtilesat.a libtilesat-io.a $(SONAMES)) \
	  $(addprefix $(DESTDIR)$(INCLUDEDIR)/,tilesat.h tilesat_gen.h tilesat_io.h) \
	  $(addprefix $(DESTDIR)$(PKGCONFIGDIR)/,tilesat.pc tilesat-io.pc)

# Install into a temporary prefix, then build and run tools/example.c with
# pkg-config, against the shared and the static libraries.
check-install: all $(MAN)
	MAKE='$(MAKE)' CC='$(CC)' BUILD='$(BUILD)' tools/test-install.sh

clean:
	rm -rf build build-asan build-fuzz

-include $(LIB_OBJ:.o=.d) $(IO_CORE_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(BUILD)/obj/mpi/tilesat_mpi.d $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_DIR)/%.d)
