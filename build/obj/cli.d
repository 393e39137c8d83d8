build/obj/cli.o: src/cli.c src/tilesat.h
src/tilesat.h:
