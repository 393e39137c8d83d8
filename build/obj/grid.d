build/obj/grid.o: src/grid.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
