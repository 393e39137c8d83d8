build/obj/encode.o: src/encode.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
