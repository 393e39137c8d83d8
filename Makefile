# tilesat: a SAT-based model checker for tiled-map rules.
# `make demo` and `make test` install what is missing first.

CC      ?= cc
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wwrite-strings -Wformat=2 -Wvla -Werror
OPT     ?= -O2 -g
CFLAGS  += $(CSTD) $(WARN) $(OPT) -MMD -MP
LIBS     = -lcryptominisat5 -lpicosat -lgmp -lm
# Inputs and pictures (issue 6): libpng, libxml2, zlib, cJSON.
IO_PKGS  = libpng libxml-2.0 zlib libcjson
CFLAGS  += $(shell pkg-config --cflags $(IO_PKGS) 2>/dev/null || echo -I/usr/include/libxml2 -I/usr/include/cjson)
LIBS    += $(shell pkg-config --libs $(IO_PKGS) 2>/dev/null || echo -lpng16 -lxml2 -lz -lcjson)
TEST_LIBS = $(shell pkg-config --libs criterion 2>/dev/null || echo -lcriterion)

# BUILD is the object directory; `make asan` uses build-asan/.
BUILD   ?= build
CLI_SRC  = $(wildcard src/cli*.c src/cmd_*.c)
CLI_OBJ  = $(CLI_SRC:src/%.c=$(BUILD)/obj/%.o)
LIB_SRC  = $(filter-out $(CLI_SRC),$(wildcard src/*.c))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_SRC = $(wildcard tests/*.c)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(BUILD)/tobj/%.o)
BIN      = $(BUILD)/tilesat
TESTBIN  = $(BUILD)/tilesat-tests

# Reference CNF instances in cnf/: NAME=RULES:SIZE[:extra options]
CNF_CASES = coast-1x2:coast:1x2 coast-3x3:coast:3x3 \
            coast-3x3-pin:coast:3x3:--pin=2,2=L hard-2x2:hard:2x2 \
            hard-3x3:hard:3x3 coast-hex-3x4:coast-hex:3x4 coast-12x12-periodic:coast:12x12:--periodic

.PHONY: print-libs all deps demo test check-test asan bench cnf format lint clean help
all: $(BIN)

deps:
	@tools/install-deps.sh

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/tobj/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Isrc -c $< -o $@

$(BUILD)/libtilesat.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(BUILD)/libtilesat.a
	$(CC) $(CFLAGS) $^ $(LIBS) -o $@

$(TESTBIN): $(TEST_OBJ) $(BUILD)/libtilesat.a
	$(CC) $(CFLAGS) $^ $(LIBS) $(TEST_LIBS) -o $@

help:
	@echo "make demo    install deps, build, run the coast example end to end"
	@echo "make test    install deps, build, run every test (plain and ASan/UBSan)"
	@echo "make bench   encode sizes and check times, both backends"
	@echo "make cnf     regenerate the reference DIMACS instances in cnf/"
	@echo "make format  clang-format the sources; make lint checks it"

demo: deps
	@$(MAKE) --no-print-directory all
	tools/demo.sh $(BIN)

# The suite, then the same suite under AddressSanitizer + UBSan.
test: deps
	@$(MAKE) --no-print-directory check-test
	@$(MAKE) --no-print-directory BUILD=build-asan \
	  OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  check-test
	@$(MAKE) --no-print-directory lint

check-test: $(BIN) $(TESTBIN)
	TILESAT_BIN=$(BIN) ASAN_OPTIONS=detect_leaks=1 $(TESTBIN) --jobs 2

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan \
	  OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  check-test

bench: deps
	@$(MAKE) --no-print-directory all
	tools/bench.sh $(BIN)
	tools/bench-explain.sh $(BIN)
	tools/bench-anneal.sh
	tools/bench-count.sh

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
	clang-format -i src/*.c src/*.h tests/*.c tests/*.h

lint:
	@command -v clang-format >/dev/null || { echo "lint: clang-format missing (tools/install-deps.sh)"; exit 1; }
	@clang-format --dry-run -Werror src/*.c src/*.h tests/*.c tests/*.h && echo "lint: clang-format clean"

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
