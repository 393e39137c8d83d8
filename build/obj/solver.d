build/obj/solver.o: src/solver.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
