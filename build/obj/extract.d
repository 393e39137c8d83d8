build/obj/extract.o: src/extract.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
