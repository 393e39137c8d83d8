build/obj/map.o: src/map.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
