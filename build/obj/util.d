build/obj/util.o: src/util.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
