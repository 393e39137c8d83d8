build/obj/solve.o: src/solve.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
