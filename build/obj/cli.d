build/obj/cli.o: src/cli.c src/cli.h src/tilesat.h
src/cli.h:
src/tilesat.h:
